import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import S3rver from 's3rver';
import { SEARCHADS_API_VERSION, SOCIAL_API_VERSION } from '../shared/core/versions.ts';
import { serveAdminSocket } from './admin-socket.ts';
import { DataDirTaken, DEFAULT_DATA_DIR, PID_FILE, runningStackPid } from './data-dir.ts';
import { clockOffsetFromEnv, installLocalClock, LocalClock } from './clock.ts';
import { ensureTables, LOCAL_TABLE_NAMES, startDynalite } from './dynamo.ts';
import { startGateway } from './gateway.ts';
import { withRequestLogger } from '../shared/core/logger.ts';
import { startConsumers, startLocalQueues, startSchedules } from './queues.ts';
import { localStream } from './streams.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';
import { startPresignedGuard } from './s3-presigned-guard.ts';
import { queueDefinitions } from '../shared/core/queues.ts';
import { PLATFORMS } from '../shared/core/errors.ts';
import { workers } from '../functions/workers/index.ts';
import { DEMO_CONNECTIONS, DEMO_TENANT_NAME, DEMO_USER_ID, SANDBOX_APP_CREDENTIALS } from './sandbox/demo-data.ts';
import { startProfessionalSandbox, type ProfessionalSandbox } from './sandbox/professional.ts';
import { startSearchadsSandbox, type SearchadsSandbox } from './sandbox/searchads.ts';
import { startSocialSandbox, type SocialSandbox } from './sandbox/social.ts';
import { callbackUrl } from '../shared/platforms/connect-flow.ts';
import { encodeRouteTable } from '../shared/http/route-table.ts';
import { OPENAPI_FILE_NAME } from '../shared/docs/reference-files.ts';

/**
 * The embedded local stack: dynalite, s3rver, the platform sandboxes and the local gateway in one
 * process, configured through the same environment variables the functions read in the cloud.
 */
/** `{social, searchads, professional}`: each sandbox's URL, written at every start */
export const SANDBOXES_FILE = 'sandboxes.json';
export const DEFAULT_LOCAL_API_KEY = 'local-demo-key-do-not-use-in-production';

/**
 * Makes this process the one stack of `dataDir`: the check and the pid file's write happen under an
 * exclusive lock (a directory made with mkdir, which only one process can make), so two starts at
 * once (two `npm run admin -- run-rules` with the stack stopped) never both open the folder.
 */
function claimDataDir(dataDir: string): void {
  const lock = join(dataDir, 'start.lock');
  const giveUpAt = Date.now() + 10_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // a lock older than any start is a killed start's
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 30_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > giveUpAt) throw new Error(`${lock} is held by another start; remove it if no stack is starting.`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    const holder = runningStackPid(dataDir);
    if (holder) throw new DataDirTaken(holder, dataDir);
    writeFileSync(join(dataDir, PID_FILE), String(process.pid));
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface LocalStackOptions {
  port?: number;
  dataDir?: string;
  apiKey?: string;
  /** default: the system clock moved by LOCAL_CLOCK_OFFSET_DAYS */
  clock?: LocalClock;
  /** default WEBHOOK_RECEIVER_PORT, else the gateway's port + 1 (0: any free port) */
  webhookReceiverPort?: number;
}

export interface LocalStack {
  url: string;
  /** the local webhook endpoint (GET /received lists what it got) */
  webhookReceiverUrl: string;
  apiKey: string;
  dataDir: string;
  sandboxes: { social?: SocialSandbox; searchads?: SearchadsSandbox; professional?: ProfessionalSandbox };
  /** the environment the functions run with (endpoints, table names, upstream URLs) */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Sets `name` unless the caller's environment already has it. */
function preferEnv(env: Record<string, string>, name: string, value: string): void {
  env[name] = process.env[name] ?? value;
}

/** The key that seals tokens at rest, created once per data folder. */
function localEncryptionKey(dataDir: string): string {
  const file = join(dataDir, 'connection-encryption.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir ?? process.env.DATA_DIR ?? DEFAULT_DATA_DIR);
  const apiKey = options.apiKey ?? process.env.LOCAL_API_KEY ?? DEFAULT_LOCAL_API_KEY;
  installLocalClock(options.clock ?? new LocalClock({ offsetMs: clockOffsetFromEnv() }));
  mkdirSync(dataDir, { recursive: true });
  claimDataDir(dataDir);
  // the pid file goes with the process, however it ends (process.exit from a signal handler, a stop)
  const removePidFile = () => {
    if (existsSync(join(dataDir, PID_FILE)) && readFileSync(join(dataDir, PID_FILE), 'utf8') === String(process.pid))
      rmSync(join(dataDir, PID_FILE), { force: true });
  };
  process.once('exit', removePidFile);
  const closers: Array<() => Promise<unknown>> = [async () => removePidFile()];

  try {
    const stream = localStream();
    // the store's and the queues' emulators start on their threads at the same time; each is closed at the end once up
    const starting = [startDynalite(join(dataDir, 'dynamodb'), stream.onPut), startLocalQueues(dataDir)] as const;
    for (const emulator of starting)
      void emulator.then(
        (started) => closers.push(() => started.close()),
        () => undefined,
      );
    const [dynamo, queues] = await Promise.all(starting);

    const env: Record<string, string> = {};
    preferEnv(env, 'AWS_REGION', 'us-east-1');
    // the local stores take s3rver's fixed credentials, whatever AWS account the shell is set up for
    env.AWS_ACCESS_KEY_ID = 'S3RVER';
    env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    preferEnv(env, 'TABLE_NAME', LOCAL_TABLE_NAMES.TABLE_NAME);
    preferEnv(env, 'IDEMPOTENCY_TABLE_NAME', LOCAL_TABLE_NAMES.IDEMPOTENCY_TABLE_NAME);
    preferEnv(env, 'UPLOAD_BUCKET', 'ad-campaign-api-local-uploads');
    preferEnv(env, 'CONNECTION_ENCRYPTION_KEY', localEncryptionKey(dataDir));
    // the sandboxes, the tests' image servers and the webhook receiver listen on loopback
    preferEnv(env, 'OUTBOUND_ALLOWED_NETWORKS', '127.0.0.0/8,::1/128');
    // an MCP client in a page on this machine may call /mcp (docs/agents.md)
    preferEnv(env, 'MCP_ALLOW_LOOPBACK_ORIGINS', 'true');
    env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;

    env.AWS_ENDPOINT_URL_SQS = queues.endpoint;
    for (const queue of queueDefinitions) env[queue.configKey] = queues.urls[queue.id];

    const s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: join(dataDir, 's3'),
      configureBuckets: [{ name: env.UPLOAD_BUCKET as string, configs: [] }],
    });
    const s3Address = (await s3.run()) as AddressInfo;
    closers.push(() => s3.close());
    // presigned URLs (create_upload) are checked as S3 checks them before s3rver stores the object
    const s3Front = await startPresignedGuard(s3Address.port, { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY });
    closers.push(() => s3Front.close());
    env.AWS_ENDPOINT_URL_S3 = s3Front.url;
    env.S3_FORCE_PATH_STYLE = 'true';

    // A platform whose API URL is configured is used as it is; the others get a sandbox.
    const sandboxes: LocalStack['sandboxes'] = {};
    if (!process.env.SOCIAL_API_URL) {
      const social = await startSocialSandbox({
        audiencesFile: join(dataDir, 'sandbox-social-audiences.json'),
        campaignsFile: join(dataDir, 'sandbox-social-campaigns.json'),
        videosDir: join(dataDir, 'sandbox-social-videos'),
        imagesFile: join(dataDir, 'sandbox-social-images.json'),
        reportRunsFile: join(dataDir, 'sandbox-social-report-runs.json'),
      });
      closers.push(() => social.close());
      sandboxes.social = social;
      env.SOCIAL_API_URL = `${social.url}/${SOCIAL_API_VERSION}`;
      preferEnv(env, 'SOCIAL_VIDEO_API_URL', `${social.url}/video-host/${SOCIAL_API_VERSION}`);
      preferEnv(env, 'SOCIAL_AUTHORIZE_URL', `${social.url}/${SOCIAL_API_VERSION}/dialog/oauth`);
      preferEnv(env, 'SOCIAL_APP_SECRET', SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET);
      preferEnv(env, 'SOCIAL_APP_ID', SANDBOX_APP_CREDENTIALS.SOCIAL_APP_ID);
      preferEnv(env, 'SOCIAL_WEBHOOK_VERIFY_TOKEN', SANDBOX_APP_CREDENTIALS.SOCIAL_WEBHOOK_VERIFY_TOKEN);
    }
    if (!process.env.SEARCHADS_API_URL) {
      const searchads = await startSearchadsSandbox({
        accountsFile: join(dataDir, 'sandbox-searchads-accounts.json'),
        dataManagerFile: join(dataDir, 'sandbox-searchads-datamanager.json'),
      });
      closers.push(() => searchads.close());
      sandboxes.searchads = searchads;
      env.SEARCHADS_API_URL = `${searchads.url}/${SEARCHADS_API_VERSION}`;
      preferEnv(env, 'SEARCHADS_OAUTH_URL', `${searchads.url}/token`);
      preferEnv(env, 'SEARCHADS_DATA_MANAGER_URL', searchads.url);
      preferEnv(env, 'SEARCHADS_AUTHORIZE_URL', `${searchads.url}/o/oauth2/v2/auth`);
      preferEnv(env, 'SEARCHADS_REVOKE_URL', `${searchads.url}/revoke`);
      for (const name of ['SEARCHADS_CLIENT_ID', 'SEARCHADS_CLIENT_SECRET'] as const) {
        preferEnv(env, name, SANDBOX_APP_CREDENTIALS[name]);
      }
    }
    if (!process.env.PROFESSIONAL_API_URL) {
      const professional = await startProfessionalSandbox({ campaignsFile: join(dataDir, 'sandbox-professional-campaigns.json') });
      closers.push(() => professional.close());
      sandboxes.professional = professional;
      env.PROFESSIONAL_API_URL = `${professional.url}/rest`;
      preferEnv(env, 'PROFESSIONAL_OAUTH_URL', `${professional.url}/oauth/v2/accessToken`);
      preferEnv(env, 'PROFESSIONAL_AUTHORIZE_URL', `${professional.url}/oauth/v2/authorization`);
      preferEnv(env, 'PROFESSIONAL_INTROSPECT_URL', `${professional.url}/oauth/v2/introspectToken`);
      preferEnv(env, 'PROFESSIONAL_REVOKE_URL', `${professional.url}/oauth/v2/revoke`);
      for (const name of ['PROFESSIONAL_CLIENT_ID', 'PROFESSIONAL_CLIENT_SECRET'] as const) {
        preferEnv(env, name, SANDBOX_APP_CREDENTIALS[name]);
      }
    }

    // where each sandbox listens, for walk-throughs and scripts that drive a sandbox's controls (`/__sandbox/…`)
    writeFileSync(join(dataDir, SANDBOXES_FILE), JSON.stringify(Object.fromEntries(Object.entries(sandboxes).map(([name, sandbox]) => [name, sandbox?.url]))));

    // listening first: links and callbacks are built on the gateway's own URL (no request comes before this returns)
    const port = options.port ?? Number(process.env.PORT ?? 3000);
    const gateway = await startGateway(port);
    closers.push(() => gateway.close());
    preferEnv(env, 'PUBLIC_BASE_URL', gateway.url);
    // the sandboxes' apps have our callbacks registered, as each platform's app would
    for (const platform of PLATFORMS) {
      sandboxes[platform]?.state.connect.desk.redirectUris.push(callbackUrl(env.PUBLIC_BASE_URL as string, platform));
    }

    // what the deployed stack hands the catch-all and the document functions, made here from the same folders
    const { routes } = await import('../functions/routes.ts');
    env.ROUTE_TABLE = encodeRouteTable(routes);
    // written when a function that reads it is first loaded (local/generated-files.ts)
    env.OPENAPI_DOCUMENT_FILE = join(dataDir, OPENAPI_FILE_NAME);

    // The functions read their configuration from the environment, once, on first use.
    Object.assign(process.env, env);
    await ensureTables(new DynamoDBClient({}));
    await seedDemo(apiKey);
    gateway.open();

    // no run of the last process can be alive: its unfinished audience jobs go on from their checkpoints
    // (imported here: the functions read their configuration on load, which the environment above sets)
    const { handler: sweepJobs } = await import('../functions/workers/sweep-jobs/handler.ts');
    await sweepJobs({ afterRestart: true });
    // and the rule runs it had claimed are queued again (each finishes what it began, acting once)
    const { handler: scheduleRules } = await import('../functions/workers/schedule-rules/handler.ts');
    const stopConsumers = startConsumers(queues, workers);
    await scheduleRules({ afterRestart: true });
    await stream.start(workers);
    // the social sandbox's app takes its Pages' lead events at our gateway, as the deploy step makes the real one
    if (sandboxes.social) {
      const { subscribePlatformWebhooks } = await import('../functions/use-cases/leads/platform-webhooks.ts');
      await withRequestLogger({ requestId: `start-${Date.now()}`, operation: 'subscribe_platform_webhooks' }, () => subscribePlatformWebhooks());
    }
    const stopSchedules = startSchedules(workers);
    // stopped together: each waits a moment for its runs in flight, and the waits need not add up
    closers.push(() => Promise.all([stopConsumers(), stream.stop(), stopSchedules()]));
    const receiver = await startWebhookReceiver(options.webhookReceiverPort ?? Number(process.env.WEBHOOK_RECEIVER_PORT ?? (port === 0 ? 0 : port + 1)));
    closers.push(() => receiver.close());
    // `npm run admin` while this stack holds the folder: the command runs here
    closers.push(await serveAdminSocket(dataDir));

    return {
      url: gateway.url,
      webhookReceiverUrl: receiver.url,
      apiKey,
      dataDir,
      sandboxes,
      env,
      stop: async () => {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

/** The demo tenant with the local API key, and a demo user connected to the sandboxes. */
async function seedDemo(apiKey: string): Promise<void> {
  const { ensureApiKey } = await import('../shared/store/api-keys.ts');
  const { findUser } = await import('../shared/store/users.ts');
  const { createUser } = await import('../shared/store/user-writes.ts');
  const tenantId = await ensureApiKey(DEMO_TENANT_NAME, apiKey);
  if (!(await findUser(tenantId, DEMO_USER_ID))) {
    const connections = {
      social: { ...DEMO_CONNECTIONS.social },
      searchads: { ...DEMO_CONNECTIONS.searchads },
      professional: { ...DEMO_CONNECTIONS.professional },
    };
    await createUser(tenantId, DEMO_USER_ID, connections, {
      tenantId,
      action: 'user.created',
      target: { type: 'user', id: DEMO_USER_ID },
      userId: DEMO_USER_ID,
      changes: { connections: { to: Object.keys(connections).sort() } },
    });
  }
}
