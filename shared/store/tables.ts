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
  /** the table streams each written item's new image (the event flows' relay reads it) */
  streamsNewImages?: boolean;
  /** global secondary indexes: a string partition key and a number sort key, every attribute projected */
  indexes?: ReadonlyArray<{ name: string; partitionKey: string; sortKey: string }>;
}

/**
 * The event flows' due index (docs/architecture.md, "The event flow"): an item of a flow carries
 * `dueShard` (`<flow>#<0..15>`, from its key) and `dueAt` (epoch ms) while it is not settled, and only
 * then, so the index holds what is still due and nothing else; sixteen shards per flow spread the writes.
 */
export const DUE_INDEX = { name: 'due', partitionKey: 'dueShard', sortKey: 'dueAt' } as const;

/** Tenants, API-key hashes, users with their connections, optimization history, upload progress (single-table design). */
export const mainTable: TableDefinition = {
  id: 'Main',
  configKey: 'TABLE_NAME',
  partitionKey: 'pk',
  sortKey: 'sk',
  timeToLiveAttribute: 'expiresAt',
  streamsNewImages: true,
  indexes: [DUE_INDEX],
};

/** Powertools idempotency records (its DynamoDB persistence layer's default attribute names). */
export const idempotencyTable: TableDefinition = {
  id: 'Idempotency',
  configKey: 'IDEMPOTENCY_TABLE_NAME',
  partitionKey: 'id',
  timeToLiveAttribute: 'expiration',
};

export const tableDefinitions = [mainTable, idempotencyTable] as const;
