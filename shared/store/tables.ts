/**
 * The DynamoDB tables, defined once: the CDK stack and the local stack both build them from here.
 * Names come from configuration (TABLE_NAME, IDEMPOTENCY_TABLE_NAME).
 */
export interface TableDefinition {
  /** logical id, used by CDK and the configuration variable that carries the physical name */
  id: 'Main' | 'Idempotency';
  configKey: 'TABLE_NAME' | 'IDEMPOTENCY_TABLE_NAME';
  partitionKey: string;
  sortKey?: string;
  /** epoch-seconds attribute that DynamoDB's TTL deletes */
  timeToLiveAttribute?: string;
  /** the table streams each written item's new image (the webhook outbox relay reads it) */
  streamsNewImages?: boolean;
}

/** Tenants, API-key hashes, users with their connections, optimization history, upload progress (single-table design). */
export const mainTable: TableDefinition = {
  id: 'Main',
  configKey: 'TABLE_NAME',
  partitionKey: 'pk',
  sortKey: 'sk',
  timeToLiveAttribute: 'expiresAt',
  streamsNewImages: true,
};

/** Powertools idempotency records (its DynamoDB persistence layer's default attribute names). */
export const idempotencyTable: TableDefinition = {
  id: 'Idempotency',
  configKey: 'IDEMPOTENCY_TABLE_NAME',
  partitionKey: 'id',
  timeToLiveAttribute: 'expiration',
};

export const tableDefinitions = [mainTable, idempotencyTable] as const;
