import * as z from 'zod';
import { parseNetworks } from './addresses.ts';
import { UPSTREAM_DEFAULTS } from './versions.ts';

/**
 * The service's whole configuration, read from the environment and validated once per container.
 * AWS endpoints, region and credentials are left to the SDK's own variables
 * (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_S3, AWS_REGION, …).
 */
const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

const configSchema = z.object({
  TABLE_NAME: z.string().min(1).default('ad-campaign-api-main'),
  IDEMPOTENCY_TABLE_NAME: z.string().min(1).default('ad-campaign-api-idempotency'),
  UPLOAD_BUCKET: z.string().min(1).default('ad-campaign-api-uploads'),
  /** an S3-compatible store that answers on one host, without per-bucket subdomains (s3rver, MinIO) */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** KMS key for staged uploads (the cloud stack sets it; the bucket's default encryption applies anyway) */
  UPLOAD_KMS_KEY_ID: optionalSecret,
  /** a random secret of at least 32 characters; platform tokens are sealed with a key derived from it */
  CONNECTION_ENCRYPTION_KEY: optionalSecret,
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  IDEMPOTENCY_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 60 * 60),
  /** the largest file create_upload hands out a URL for (1 GiB) */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(5 * 1024 ** 3)
    .default(1024 ** 3),
  /** the job queue (SQS in the cloud, the emulator locally) */
  JOB_QUEUE_URL: optionalSecret,
  RULE_RUN_QUEUE_URL: optionalSecret,
  /** the queue of verified platform webhook bodies (docs/leads.md) */
  PLATFORM_EVENT_QUEUE_URL: optionalSecret,
  /** the queue of conversions to send (docs/conversions.md) */
  CONVERSION_QUEUE_URL: optionalSecret,
  /** the share of a platform's daily calls the optimizer may spend for one tenant (docs/operations.md, "Rules") */
  RULES_QUOTA_SHARE: z.coerce.number().min(0).max(1).default(0.2),
  /** each platform's daily calls for our app, of which RULES_QUOTA_SHARE is one tenant's (search ads: Basic access) */
  RULES_DAILY_CALLS_SOCIAL: z.coerce.number().int().min(0).default(10_000),
  RULES_DAILY_CALLS_SEARCHADS: z.coerce.number().int().min(0).default(15_000),
  RULES_DAILY_CALLS_PROFESSIONAL: z.coerce.number().int().min(0).default(10_000),
  /** how long a job’s lease outlives its holder's last heartbeat: a crashed run is taken over after it */
  JOB_LEASE_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
  /** the catch-all function's route table (`METHOD path`, comma-separated), to tell 405 from 404: set by whoever deploys the routes */
  ROUTE_TABLE: z.string().default(''),
  /** browser origins on loopback (any port) may call /mcp, beside a tenant's allowedOrigins: `npm start` sets it (docs/agents.md) */
  MCP_ALLOW_LOOPBACK_ORIGINS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** the OpenAPI document the document route serves: generated when the routes are deployed (default: beside the function's code) */
  OPENAPI_DOCUMENT_FILE: optionalSecret,

  SOCIAL_API_URL: z.url().default(UPSTREAM_DEFAULTS.socialApiUrl),
  SOCIAL_VIDEO_API_URL: z.url().default(UPSTREAM_DEFAULTS.socialVideoApiUrl),
  SEARCHADS_API_URL: z.url().default(UPSTREAM_DEFAULTS.searchadsApiUrl),
  SEARCHADS_OAUTH_URL: z.url().default(UPSTREAM_DEFAULTS.searchadsOauthUrl),
  SEARCHADS_DATA_MANAGER_URL: z.url().default(UPSTREAM_DEFAULTS.searchadsDataManagerUrl),
  /** Data Manager writes a minute for the whole service (the project's quota is 300) and the share one tenant may take */
  DATA_MANAGER_WRITES_PER_MINUTE: z.coerce.number().int().min(1).max(300).default(250),
  DATA_MANAGER_TENANT_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
  PROFESSIONAL_API_URL: z.url().default(UPSTREAM_DEFAULTS.professionalApiUrl),
  PROFESSIONAL_OAUTH_URL: z.url().default(UPSTREAM_DEFAULTS.professionalOauthUrl),
  PROFESSIONAL_API_VERSION: z
    .string()
    .regex(/^\d{6}$/)
    .default(UPSTREAM_DEFAULTS.professionalApiVersion),
  /** connect links (docs/decisions.md "Connect links"): consent screens, revocation and token introspection */
  SOCIAL_AUTHORIZE_URL: z.url().default(UPSTREAM_DEFAULTS.socialAuthorizeUrl),
  /** when set, the social consent URL carries this Login-for-Business configuration instead of `scope` */
  SOCIAL_LOGIN_CONFIG_ID: optionalSecret,
  SEARCHADS_AUTHORIZE_URL: z.url().default(UPSTREAM_DEFAULTS.searchadsAuthorizeUrl),
  SEARCHADS_REVOKE_URL: z.url().default(UPSTREAM_DEFAULTS.searchadsRevokeUrl),
  PROFESSIONAL_AUTHORIZE_URL: z.url().default(UPSTREAM_DEFAULTS.professionalAuthorizeUrl),
  PROFESSIONAL_INTROSPECT_URL: z.url().default(UPSTREAM_DEFAULTS.professionalIntrospectUrl),
  PROFESSIONAL_REVOKE_URL: z.url().default(UPSTREAM_DEFAULTS.professionalRevokeUrl),
  /** this API's own public URL: connect links and the platforms' callback URLs are built on it */
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(8_000),
  /**
   * Non-public networks that URLs given by clients (images, webhooks) may reach besides the public
   * internet, as comma-separated CIDRs; none by default (the local stack names loopback)
   */
  OUTBOUND_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .transform((value, context) => {
      const cidrs = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      try {
        return { cidrs, networks: parseNetworks(cidrs) };
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),

  /** the webhook delivery queue (SQS); the local stack points it at its emulator */
  WEBHOOK_QUEUE_URL: optionalSecret,
  /** seconds between delivery attempts; after the last one fails the event is failed (docs/decisions.md "Webhooks") */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((value) => value.split(',').map((part) => Number(part.trim())))
    .pipe(z.array(z.number().int().min(0).max(43_200)).min(1).max(20)),
  /** how long a receiver may take to answer one delivery */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(20_000).default(10_000),
  /** an event still pending this long past its due time is queued again (its message was lost) */
  WEBHOOK_SWEEP_AFTER_SECONDS: z.coerce.number().int().min(1).default(300),
  /** how long before a grant runs out the connection lifecycle renews it or marks it `expiring` */
  /** how long a lead is kept (sealed) after it was received (docs/leads.md) */
  LEADS_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(90),
  /** a platform webhook body larger than this is refused (413): the platforms send far less */
  PLATFORM_WEBHOOK_MAX_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  CONNECTION_RENEW_BEFORE_DAYS: z.coerce.number().int().min(1).max(30).default(7),

  /** our social app's id (token health checks use the app token `<id>|<secret>`) */
  SOCIAL_APP_ID: optionalSecret,
  SOCIAL_APP_SECRET: optionalSecret,
  /** what the social platform's verification GET must name (`hub.verify_token`) to be answered */
  SOCIAL_WEBHOOK_VERIFY_TOKEN: optionalSecret,
  /** optional since Google retired developer tokens (September 2026): the `developer-token` header is sent only when it is set */
  SEARCHADS_DEVELOPER_TOKEN: optionalSecret,
  /** the search-ads Cloud project's operations a Google day (its access level's), shared by every tenant */
  SEARCHADS_DAILY_OPERATIONS: z.coerce.number().int().min(1).default(15_000),
  /**
   * the first wait of a Google audience job on the queue (seconds), doubling: before it reads its requests'
   * statuses (up to 30 minutes), and before it asks again for a list another job is writing to (up to 5)
   */
  SEARCHADS_FIRST_WAIT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  /** the first wait (seconds) of a report export before it reads its asynchronous run's status, doubling up to 2 minutes (docs/reports.md) */
  REPORT_RUN_FIRST_WAIT_SECONDS: z.coerce.number().int().min(1).max(120).default(30),
  /** the part of those one tenant may spend in a Google day (docs/configuration.md) */
  SEARCHADS_TENANT_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
  SEARCHADS_CLIENT_ID: optionalSecret,
  SEARCHADS_CLIENT_SECRET: optionalSecret,
  PROFESSIONAL_CLIENT_ID: optionalSecret,
  PROFESSIONAL_CLIENT_SECRET: optionalSecret,
  /** in the cloud: the Secrets Manager secret holding the app credentials above, as JSON */
  APP_CREDENTIALS_SECRET_ARN: optionalSecret,
  /** in the cloud: the Secrets Manager secret holding CONNECTION_ENCRYPTION_KEY */
  CONNECTION_KEY_SECRET_ARN: optionalSecret,
});

export type Config = z.infer<typeof configSchema>;

let cached: Config | undefined;
let overrides: Record<string, string> = {};

/** The validated configuration; the environment is read on the first call only. */
export function config(): Config {
  if (!cached) {
    const parsed = configSchema.safeParse({ ...process.env, ...overrides });
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`Invalid configuration: ${problems.join('; ')}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** App credentials read from Secrets Manager at cold start join the configuration (validated again). */
export function addSecretConfiguration(values: Record<string, string>): void {
  overrides = { ...overrides, ...values };
  cached = undefined;
  config();
}
