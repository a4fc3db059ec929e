import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AdminRefusal, type AdminRequest, COMMANDS, executeAdminCommand, USAGE } from './admin-commands.ts';
import { askRunningStack } from '../local/admin-socket.ts';
import { ensureTables, LOCAL_TABLE_NAMES, startDynalite } from '../local/dynamo.ts';
import { DEFAULT_DATA_DIR, DataDirTaken, runningStackPid } from '../local/data-dir.ts';

/**
 * `npm run admin -- <command>` (the commands: admin-commands.ts). Store: DynamoDB as the AWS SDK is
 * configured when TABLE_NAME is set (the deployed table's name); otherwise the local data folder
 * (DATA_DIR): through the running `npm start` when one holds it (its admin socket), else opened here.
 */
function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const print = (line: string) => console.log(line);
const dataDir = resolve(process.env.DATA_DIR ?? DEFAULT_DATA_DIR);

async function openLocalStore(): Promise<() => Promise<void>> {
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

/** The command run by the stack that holds the data folder; false when none answered. */
async function throughRunningStack(request: AdminRequest): Promise<boolean> {
  const holder = runningStackPid(dataDir);
  if (!holder) return false;
  const answer = await askRunningStack(dataDir, request, (line) =>
    // run-rules says which stack makes the pass; its runs are in its log and list_rule_runs
    print(request.command === 'run-rules' ? JSON.stringify({ askedStack: holder, ...JSON.parse(line) }) : line),
  );
  if (!answer) return false;
  if (answer.exit !== 0) {
    console.error(answer.error ?? 'the running stack refused the command');
    process.exit(answer.exit);
  }
  return true;
}

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
  const request: AdminRequest = { command, positionals, values };
  try {
    if (process.env.TABLE_NAME) return await executeAdminCommand(request, print);
    if (await throughRunningStack(request)) return;
    if (command === 'run-rules') return await runRulesOnStartedStack(request);
    const holder = runningStackPid(dataDir);
    if (holder)
      fail(
        `The local stack (pid ${holder}) holds ${dataDir} and did not take the command on its admin socket; stop \`npm start\` first, or set TABLE_NAME to use DynamoDB.`,
      );
    const close = await openLocalStore();
    try {
      await executeAdminCommand(request, print);
    } finally {
      await close();
    }
  } catch (error) {
    if (error instanceof AdminRefusal) fail(error.message);
    throw error;
  }
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

/**
 * run-rules with the stack stopped: the local stack is started for the pass (its start queues every due
 * rule, as after any restart), waited for until its rule-run queue is empty, and stopped. A start that
 * another run-rules won (the data folder is claimed under a lock) hands the pass to that stack instead.
 */
async function runRulesOnStartedStack(request: AdminRequest): Promise<void> {
  process.env.LOG_LEVEL ??= 'WARN';
  const { startLocalStack } = await import('../local/stack.ts');
  let stack: Awaited<ReturnType<typeof startLocalStack>>;
  const giveUpAt = Date.now() + 60_000;
  for (;;) {
    try {
      stack = await startLocalStack({ port: 0, dataDir, webhookReceiverPort: 0 });
      break;
    } catch (error) {
      if (!(error instanceof DataDirTaken)) throw error;
      if (await throughRunningStack(request)) return;
      if (Date.now() > giveUpAt) fail(`${error.message} It did not take the command on its admin socket.`);
      await new Promise((later) => setTimeout(later, 100)); // that stack is starting or stopping: ask again
    }
  }
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

await main();
