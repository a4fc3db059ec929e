import { readFileSync } from 'node:fs';

/**
 * Every AWS call a function's bundle can make, as the IAM action it needs and the resource it is made
 * on. It is read from the bundle (infra/bundling.ts's bundledModules): the commands that the project
 * modules esbuild kept import from the AWS SDK, and Powertools' idempotency layer where it was kept.
 * (The SDK packages themselves hold commands nobody sends, such as the paginators' Scan that a
 * top-level call keeps in every bundle; what our code imports is what it can send.) This reads the
 * code, not the declarations, so the IAM test compares two independent sources.
 */
export type AwsResource = 'main-table' | 'idempotency-table' | 'upload-bucket' | 'secret' | 'queue';

export interface AwsCall {
  action: string;
  resource: AwsResource;
}

/** Our store speaks to the main table through the document client. */
const DOCUMENT_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  // a transaction is authorised item by item: ours pair a store write (its own command, imported beside) with the audit event's put
  TransactWrite: 'PutItem',
};

const CLIENTS: Record<string, { prefix: string; resource: AwsResource }> = {
  '@aws-sdk/client-s3': { prefix: 's3', resource: 'upload-bucket' },
  '@aws-sdk/client-secrets-manager': { prefix: 'secretsmanager', resource: 'secret' },
  '@aws-sdk/client-sqs': { prefix: 'sqs', resource: 'queue' },
};
/** Commands authorised by another action's name (S3: HeadObject needs s3:GetObject). */
const ACTION_OF_COMMAND: Record<string, string> = { HeadObject: 'GetObject' };

/** Powertools' idempotency layer: the item actions its documentation lists as required. */
const IDEMPOTENCY_LAYER = /node_modules\/@aws-lambda-powertools\/idempotency\/lib\/esm\/persistence\/DynamoDBPersistenceLayer\.js$/;
const IDEMPOTENCY_ACTIONS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'];

/** `import { A, B } from '@aws-sdk/x'` and `const { A } = await import('@aws-sdk/x')`; type-only imports send nothing */
const SDK_IMPORT = /(import\s+type|import|const)\s*\{([^}]*)\}\s*(?:from\s*|=\s*await\s+import\(\s*)'(@aws-sdk\/[\w-]+)'/g;

export function commandsImportedBy(source: string): Array<{ module: string; command: string }> {
  const found: Array<{ module: string; command: string }> = [];
  for (const [, keyword = '', names = '', module = ''] of source.matchAll(SDK_IMPORT)) {
    if (/^import\s+type$/.test(keyword)) continue;
    for (const name of names.split(',').map((part) => part.trim())) {
      if (/^type\s/.test(name)) continue;
      const command = /^(\w+)Command$/.exec(name.split(/\s+as\s+/)[0] ?? '')?.[1];
      if (command) found.push({ module, command });
    }
  }
  return found;
}

export function awsCallsOf(modules: Map<string, number>): AwsCall[] {
  const calls = new Map<string, AwsCall>();
  const add = (action: string, resource: AwsResource) => calls.set(`${action} ${resource}`, { action, resource });
  for (const [path, bytes] of modules) {
    if (bytes === 0) continue;
    if (IDEMPOTENCY_LAYER.test(path)) for (const action of IDEMPOTENCY_ACTIONS) add(`dynamodb:${action}`, 'idempotency-table');
    if (path.includes('node_modules/') || !/\.ts$/.test(path)) continue;
    for (const { module, command } of commandsImportedBy(readFileSync(path, 'utf8'))) {
      if (module === '@aws-sdk/lib-dynamodb') {
        const action = DOCUMENT_ACTIONS[command];
        if (!action) throw new Error(`${path}: no IAM action known for the document command ${command}`);
        add(`dynamodb:${action}`, 'main-table');
        continue;
      }
      const client = CLIENTS[module];
      if (!client) throw new Error(`${path} sends ${command} through ${module}: teach awsCallsOf which resource it reaches`);
      add(`${client.prefix}:${ACTION_OF_COMMAND[command] ?? command}`, client.resource);
    }
  }
  return [...calls.values()].sort((a, b) => `${a.resource}${a.action}`.localeCompare(`${b.resource}${b.action}`));
}
