import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTables, LOCAL_TABLE_NAMES, startDynalite } from './local/dynamo.ts';
import { DEFAULT_DATA_DIR, runningStackPid } from './local/stack.ts';

/**
 * API-key management: `npm run admin -- <command>`.
 *   create-api-key --tenant <name>   prints {"tenantId","apiKey"}; the key is shown this once
 *   list-api-keys                     ids and creation dates, never keys
 *   revoke-api-key --key-id <id>      requests with that key fail from then on (after the ≤30 s key cache)
 *   audit <tenant>                    the tenant's audit log, newest first (its id or its name)
 *   run-rules                         one pass of the optimizer's scheduler: the due rules run (with `npm start`
 *                                     running, that stack runs them; stopped, the local stack is started
 *                                     for the pass and stopped after it)
 *   refresh-connections               one run of the connection lifecycle (renew, check, mark), against
 *                                     the platforms the environment names (a deployed stage's, with
 *                                     TABLE_NAME and APP_CREDENTIALS_SECRET_ARN or the credentials set)
 *
 * Store: DynamoDB as the AWS SDK is configured (region, credentials) when TABLE_NAME is set, the
 * deployed table's name; otherwise the local data folder (DATA_DIR), with `npm start` stopped.
 */
const COMMANDS: Record<string, string> = {
  'create-api-key': `npm run admin -- create-api-key --tenant <name>
  Creates a tenant and its API key; prints {"tenantId","apiKey"}. The key is shown this once.`,
  'list-api-keys': `npm run admin -- list-api-keys
  Lists every key's id, tenant and creation date, never a key.`,
  'revoke-api-key': `npm run admin -- revoke-api-key --key-id <id>
  Requests with that key fail from then on (after the key cache of at most 30 s).`,
  audit: `npm run admin -- audit <tenant id or name> [--user <userId>] [--action <action>] [--since <ISO time>] [--until <ISO time>]
  Prints the tenant's audit events newest first, one JSON object a line: what list_audit_events answers.`,
  'run-rules': `npm run admin -- run-rules
  One pass of the optimizer's scheduler: every due rule runs. With \`npm start\` running, that stack runs them (its log says
  so); with it stopped, the local stack is started for the pass and stopped once the runs are done.`,
  'refresh-connections': `npm run admin -- refresh-connections
  One run of the connection lifecycle: renews, checks and marks every connection.`,
};
const USAGE = `usage: npm run admin -- <command> [options]   (npm run admin -- <command> --help for one)

${Object.values(COMMANDS).join('\n\n')}

Store: the local data folder (DATA_DIR, default .data) with \`npm start\` stopped, or DynamoDB as the AWS SDK
is configured when TABLE_NAME is set (a deployed stage's table).`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function openLocalStore(): Promise<() => Promise<void>> {
  const dataDir = resolve(process.env.DATA_DIR ?? DEFAULT_DATA_DIR);
  const holder = runningStackPid(dataDir);
  if (holder) fail(`The local stack (pid ${holder}) is using ${dataDir}; stop \`npm start\` first, or set TABLE_NAME to use DynamoDB.`);
  Object.assign(process.env, {
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
    ...LOCAL_TABLE_NAMES,
  });
  const dynamo = await startDynalite(resolve(dataDir, 'dynamodb'));
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  await ensureTables(new DynamoDBClient({}));
  return dynamo.close;
}

const parseOptions = () =>
  parseArgs({
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      'key-id': { type: 'string' },
      user: { type: 'string' },
      action: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions();
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (values.help || command === 'help') {
    console.log(command && COMMANDS[command] ? COMMANDS[command] : USAGE);
    return;
  }
  if (!command || !COMMANDS[command]) fail(USAGE);

  if (command === 'run-rules' && !process.env.TABLE_NAME) return runRulesLocally();
  const close = process.env.TABLE_NAME ? async () => undefined : await openLocalStore();
  const keys = await import('../shared/store/api-keys.ts');
  try {
    if (command === 'audit') {
      const named = positionals[1];
      if (!named) fail(COMMANDS.audit as string);
      const tenantId = named.startsWith('tn_') ? named : await keys.findTenantByName(named);
      if (!tenantId) fail(`No tenant ${named}.`);
      await printAuditLog(tenantId, values);
    } else if (command === 'run-rules') {
      const { handler } = await import('../functions/workers/schedule-rules/handler.ts');
      console.log(JSON.stringify(await handler()));
    } else if (command === 'refresh-connections') {
      const { handler } = await import('../functions/workers/refresh-connections/handler.ts');
      console.log(JSON.stringify(await handler()));
    } else if (command === 'create-api-key') {
      const tenant = values.tenant?.trim();
      if (!tenant || !/^[\w.-]{1,64}$/.test(tenant)) fail('--tenant <name> is required: 1 to 64 letters, digits, . _ or -');
      const { tenantId, apiKey } = await keys.createApiKey(tenant);
      console.log(JSON.stringify({ tenantId, apiKey }));
    } else if (command === 'list-api-keys') {
      for (const listing of await keys.listApiKeys()) console.log(JSON.stringify(listing));
    } else {
      const keyId = values['key-id'];
      if (!keyId) fail('--key-id <id> is required (see list-api-keys)');
      if (!(await keys.revokeApiKey(keyId))) fail(`No API key with id ${keyId}.`);
      console.log(JSON.stringify({ keyId, revoked: true }));
    }
  } finally {
    await close();
  }
}

/**
 * run-rules on the local data folder: the running stack is asked (SIGUSR2) to make the pass; a stopped
 * one is started (its start queues every due rule, as after any restart), waited for until its rule-run
 * queue is empty, and stopped.
 */
async function runRulesLocally(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? DEFAULT_DATA_DIR);
  const holder = runningStackPid(dataDir);
  if (holder) {
    process.kill(holder, 'SIGUSR2');
    console.log(JSON.stringify({ askedStack: holder, note: 'the running stack makes the pass; its log and list_rule_runs show the runs' }));
    return;
  }
  process.env.LOG_LEVEL ??= 'WARN';
  const { startLocalStack } = await import('./local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir, webhookReceiverPort: 0 });
  try {
    const { GetQueueAttributesCommand, SQSClient } = await import('@aws-sdk/client-sqs');
    const sqs = new SQSClient({});
    const waiting = async () => {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: process.env.RULE_RUN_QUEUE_URL,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
    };
    const startedAt = Date.now();
    while ((await waiting()) > 0) {
      if (Date.now() - startedAt > 120_000) fail('Rule runs were still under way after 2 minutes; list_rule_runs shows where they are.');
      await new Promise((done) => setTimeout(done, 250));
    }
    console.log(JSON.stringify({ ran: true, note: 'every due rule ran; list_rule_runs shows each run' }));
  } finally {
    await stack.stop();
  }
}

/** Every page of the tenant's audit log, through the listing the API answers (the same filters, checked the same way). */
async function printAuditLog(tenantId: string, options: { user?: string; action?: string; since?: string; until?: string }): Promise<void> {
  const { listAuditEventsRequest } = await import('../functions/list-audit-events/schema.ts');
  const { listAuditEvents } = await import('../shared/store/audit-events.ts');
  const parsed = listAuditEventsRequest.safeParse({ userId: options.user, action: options.action, since: options.since, until: options.until });
  if (!parsed.success) fail(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'));
  let pagination = '';
  do {
    const page = await listAuditEvents(tenantId, parsed.data, pagination);
    for (const event of page.events) console.log(JSON.stringify(event));
    pagination = page.paging.next ?? '';
  } while (pagination);
}

await main();
