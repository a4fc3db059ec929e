import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditSpec } from './audit.ts';
import type { Platform } from './errors.ts';
import type { QueueId, ScheduleId } from './queues.ts';

/**
 * What a function needs to be deployed, declared once in `functions/<name>.declaration.ts` beside its
 * handler: its route, and what it reads, writes and opens. The route table, the CDK stack (IAM,
 * environment, memory) and the local stack are all built from these declarations.
 */
/** What a function reads, writes and opens: the CDK stack grants exactly this. */
export interface FunctionNeeds {
  /** the function's name (the operation, for an HTTP route) */
  operation: string;
  /** the handler file, relative to the project (see handlerBeside) */
  entry: string;
  /**
   * upstream platform the function calls: it then needs the app-credentials secret and the connection
   * key, and table writes, to mark a refused connection reconnect_required and store the event
   * (see grantsOf)
   */
  platform?: Platform;
  /** calls any of the platforms (the lifecycle, connect callbacks, disconnect): needs what a platform operation needs, for all of them, and announces what it finds at once */
  callsPlatforms?: boolean;
  /** reads our apps' client ids (a consent URL) without calling a platform */
  readsAppCredentials?: boolean;
  /** reads the whole main table (a batch job; no request does) */
  scansTable?: boolean;
  /** the body is a CSV upload, staged in the upload bucket */
  usesUploadBucket?: boolean;
  /** writes to the main table (every operation but the public ones reads keys and users) */
  writes?: boolean;
  /** seals or opens platform tokens without calling a platform (it then needs the connection key) */
  sealsConnections?: boolean;
  /** honours `Idempotency-Key` (it then needs the idempotency table) */
  idempotent?: boolean;
  /** queues it sends messages to (webhook events) */
  sendsTo?: readonly QueueId[];
  memoryMb?: number;
  timeoutSeconds?: number;
  /** NODE_OPTIONS the function runs with (the bench measures with the same) */
  nodeOptions?: string;
  /** settings read by the process before Node starts (the C allocator's), set in its environment */
  processEnvironment?: Record<string, string>;
  /** files the function reads at run time, copied beside its bundle: file name → module specifier, or GENERATED_OPENAPI_DOCUMENT */
  bundledFiles?: Record<string, string>;
}

/** In `bundledFiles`: the OpenAPI document of the routes being deployed, generated when they are. */
export const GENERATED_OPENAPI_DOCUMENT = 'generated:openapi-document';

/** An HTTP operation: a route of the API. */
export interface FunctionDeclaration extends FunctionNeeds {
  method: 'POST' | 'GET';
  path: string;
  /** one of our own per-tenant limits applies (429 RATE_LIMITED with Retry-After) */
  limited?: boolean;
  /** the audit event a success (or a platform's refusal) of this operation records; none for a read */
  audit?: AuditSpec;
  /** answers without an API key and touches no table, bucket or secret (the published interface) */
  public?: boolean;
  /**
   * followed by a person's browser while connecting an account: no API key, redirects and HTML pages,
   * throttled per route (the gateway's limits in the cloud)
   */
  browser?: { burstLimit: number; rateLimit: number };
  /**
   * a platform calls it (its webhooks, docs/leads.md): no API key; the platform's signature over the raw
   * bytes is checked before anything else; the platform's own answers, not our envelope; not in the
   * OpenAPI document (no client calls it)
   */
  inbound?: 'social' | 'professional';
  /** answers 202 Accepted: what it was asked is queued, and `results` says how to follow it */
  accepted?: true;
  /** answers a protocol of its own, not the envelope: the Model Context Protocol's JSON-RPC (docs/agents.md) */
  protocol?: 'mcp';
  /** a write that removes, pauses, overwrites or moves money, not only adds (the MCP tool's destructiveHint, docs/agents.md) */
  destructive?: true;
  /** the same call again changes nothing more (the MCP tool's idempotentHint; not Idempotency-Key, which is `idempotent`) */
  unchangedByRepeat?: true;
}

/**
 * Items of the main table's stream a worker is handed: those written under the partition `pk` whose
 * new image has `flag` true (a DynamoDB Streams filter in the cloud; a poll of that partition locally).
 */
export interface StreamSelection {
  /** the stream hands the worker only the new images with this attribute true (the cloud's filter; the local stream likewise) */
  flag: string;
}

/** A function that answers a queue, a schedule or the table's stream instead of HTTP (functions/workers/). */
export interface WorkerDeclaration extends FunctionNeeds {
  consumes?: QueueId;
  consumesStream?: StreamSelection;
  /** the queue whose dead-letter queue it consumes (what the queue gave up on) */
  consumesDeadLettersOf?: QueueId;
  schedule?: ScheduleId;
}

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The handler file a declaration stands beside: `functions/x/declaration.ts` → `functions/x/handler.ts`. */
export function handlerBeside(declarationUrl: string): string {
  return relative(projectRoot, fileURLToPath(declarationUrl)).replace(/declaration\.ts$/, 'handler.ts');
}

/**
 * The CSV functions stream files of any size through small buffers; a 4 MB young generation keeps
 * their memory flat (V8 otherwise grows it to 32 MB per semi-space under that allocation rate) at
 * no cost in throughput, as `npm run bench` shows.
 */
export const CSV_NODE_OPTIONS = '--max-semi-space-size=4';

/** What both CSV audience functions need: the staging bucket, memory for hashing, the gateway's whole 28 s. */
export const CSV_UPLOAD_FUNCTION = {
  usesUploadBucket: true,
  writes: true,
  idempotent: true,
  memoryMb: 1024,
  timeoutSeconds: 28,
  nodeOptions: CSV_NODE_OPTIONS,
} as const satisfies Partial<FunctionDeclaration>;

/**
 * upload_ad_media on either platform: it reads the user's upload, keeps what the platform made on it,
 * and hands a video to the job worker. An image is recorded at once; a video's job records it at its end.
 */
export const AD_MEDIA_FUNCTION = {
  usesUploadBucket: true,
  writes: true,
  idempotent: true,
  sendsTo: ['Jobs'],
  audit: {
    action: (_input, result) => (result?.jobId ? 'ad_media_job.started' : 'ad_media.uploaded'),
    target: (_input, result) => (result?.jobId ? { type: 'ad_media_job', id: result.jobId } : { type: 'media', id: result?.media?.id ?? 'unknown' }),
    changes: (input) => ({ source: { to: input.uploadId ? 'upload' : 'url' } }),
  },
} as const satisfies Partial<FunctionDeclaration>;

/**
 * create_campaign on a platform: it reads the account, then stores the launch job and queues it (or,
 * for a dry run, only asks the platform). The job records the launch at its end.
 */
export const LAUNCH_FUNCTION = {
  writes: true,
  idempotent: true,
  sendsTo: ['Jobs'],
  audit: {
    action: 'campaign_launch.started',
    target: (_input, result) => ({ type: 'campaign_launch_job', id: result?.jobId ?? 'unknown' }),
    changes: (input) => ({ name: { to: input.name }, objective: { to: input.objective }, ads: { to: input.ads.length } }),
    writes: (input) => !input.validateOnly,
  },
} as const satisfies Partial<FunctionDeclaration>;

/** What a declaration is granted, the facts it implies included: the CDK stack and its tests read this. */
export function grantsOf(needs: Partial<FunctionNeeds>): {
  writes: boolean;
  scans: boolean;
  sendsTo: QueueId[];
  appCredentials: boolean;
  connectionKey: boolean;
} {
  const callsPlatforms = Boolean(needs.platform || needs.callsPlatforms);
  const sendsTo = new Set<QueueId>(needs.sendsTo ?? []);
  // the lifecycle and the connect routes announce what they find at once; a platform operation's rare event goes through the outbox relay
  if (needs.callsPlatforms) sendsTo.add('WebhookDeliveries');
  return {
    writes: Boolean(needs.writes || callsPlatforms),
    scans: Boolean(needs.scansTable),
    sendsTo: [...sendsTo],
    appCredentials: Boolean(callsPlatforms || needs.readsAppCredentials),
    connectionKey: Boolean(callsPlatforms || needs.sealsConnections),
  };
}
