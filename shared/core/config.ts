import * as z from 'zod/mini';
import english from 'zod/v4/locales/en.js';
import { parseNetworks } from './addresses.ts';
import { UPSTREAM_DEFAULTS } from './versions.ts';

/**
 * The service's whole configuration, read from the environment and validated once per container.
 * AWS endpoints, region and credentials are left to the SDK's own variables
 * (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_S3, AWS_REGION, …). Written with zod's mini API: every
 * function builds this schema at its cold start and parses it at its first request, and the classic
 * API's chained schemas made that about 15 ms of CPU more (docs/deploying.md, "Bundles").
 */
const optionalSecret = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined) => (value === '' ? undefined : value)),
);

// the mini API leaves messages to a locale ("Invalid input" otherwise); the classic API sets this same one
z.config(english());

/** a whole number, `fallback` when the variable is unset */
const wholeNumber = (fallback: number, { min, max }: { min?: number; max?: number }) =>
  z._default(z.pipe(z.coerce.number(), z.int().check(...bounds({ min, max }))), fallback);
/** a number, fractions allowed */
const fraction = (fallback: number, { min, above, max }: { min?: number; above?: number; max?: number }) =>
  z._default(z.coerce.number().check(...bounds({ min, max }), ...(above === undefined ? [] : [z.gt(above)])), fallback);
const bounds = ({ min, max }: { min?: number | undefined; max?: number | undefined }) => [
  ...(min === undefined ? [] : [z.minimum(min)]),
  ...(max === undefined ? [] : [z.maximum(max)]),
];
const nonEmpty = (fallback: string) => z._default(z.string().check(z.minLength(1)), fallback);
const url = (fallback: string) => z._default(z.url(), fallback);
/** `true` or `false` (the default) */
const flag = () =>
  z.pipe(
    z._default(z.enum(['true', 'false']), 'false'),
    z.transform((value: 'true' | 'false') => value === 'true'),
  );

const configSchema = z.object({
  TABLE_NAME: nonEmpty('ad-campaign-api-main'),
  IDEMPOTENCY_TABLE_NAME: nonEmpty('ad-campaign-api-idempotency'),
  UPLOAD_BUCKET: nonEmpty('ad-campaign-api-uploads'),
  /** an S3-compatible store that answers on one host, without per-bucket subdomains (s3rver, MinIO) */
  S3_FORCE_PATH_STYLE: flag(),
  /** KMS key for staged uploads (the cloud stack sets it; the bucket's default encryption applies anyway) */
  UPLOAD_KMS_KEY_ID: optionalSecret,
  /** a random secret of at least 32 characters; platform tokens are sealed with a key derived from it */
  CONNECTION_ENCRYPTION_KEY: optionalSecret,
  API_KEY_CACHE_TTL_MS: wholeNumber(30_000, { min: 0 }),
  IDEMPOTENCY_TTL_SECONDS: wholeNumber(24 * 60 * 60, { min: 1 }),
  /** the largest file create_upload hands out a URL for (1 GiB) */
  UPLOAD_MAX_BYTES: wholeNumber(1024 ** 3, { min: 1, max: 5 * 1024 ** 3 }),
  /** the job queue (SQS in the cloud, the emulator locally) */
  JOB_QUEUE_URL: optionalSecret,
  RULE_RUN_QUEUE_URL: optionalSecret,
  /** the queue of verified platform webhook bodies (docs/leads.md) */
  PLATFORM_EVENT_QUEUE_URL: optionalSecret,
  /** the queue of conversions to send (docs/conversions.md) */
  CONVERSION_QUEUE_URL: optionalSecret,
  /** the share of a platform's daily calls the optimizer may spend for one tenant (docs/operations.md, "Rules") */
  RULES_QUOTA_SHARE: fraction(0.2, { min: 0, max: 1 }),
  /** each platform's daily calls for our app, of which RULES_QUOTA_SHARE is one tenant's (search ads: Basic access) */
  RULES_DAILY_CALLS_SOCIAL: wholeNumber(10_000, { min: 0 }),
  RULES_DAILY_CALLS_SEARCHADS: wholeNumber(15_000, { min: 0 }),
  RULES_DAILY_CALLS_PROFESSIONAL: wholeNumber(10_000, { min: 0 }),
  /** how long a job’s lease outlives its holder's last heartbeat: a crashed run is taken over after it */
  JOB_LEASE_MS: wholeNumber(30_000, { min: 1_000, max: 300_000 }),
  LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']), 'INFO'),
  /** the catch-all function's route table (`METHOD path`, comma-separated), to tell 405 from 404: set by whoever deploys the routes */
  ROUTE_TABLE: z._default(z.string(), ''),
  /** browser origins on loopback (any port) may call /mcp, beside a tenant's allowedOrigins: `npm start` sets it (docs/agents.md) */
  MCP_ALLOW_LOOPBACK_ORIGINS: flag(),
  /** the OpenAPI document the document route serves: generated when the routes are deployed (default: beside the function's code) */
  OPENAPI_DOCUMENT_FILE: optionalSecret,

  SOCIAL_API_URL: url(UPSTREAM_DEFAULTS.socialApiUrl),
  SOCIAL_VIDEO_API_URL: url(UPSTREAM_DEFAULTS.socialVideoApiUrl),
  SEARCHADS_API_URL: url(UPSTREAM_DEFAULTS.searchadsApiUrl),
  SEARCHADS_OAUTH_URL: url(UPSTREAM_DEFAULTS.searchadsOauthUrl),
  SEARCHADS_DATA_MANAGER_URL: url(UPSTREAM_DEFAULTS.searchadsDataManagerUrl),
  /** Data Manager writes a minute for the whole service (the project's quota is 300) and the share one tenant may take */
  DATA_MANAGER_WRITES_PER_MINUTE: wholeNumber(250, { min: 1, max: 300 }),
  DATA_MANAGER_TENANT_SHARE: fraction(0.5, { above: 0, max: 1 }),
  PROFESSIONAL_API_URL: url(UPSTREAM_DEFAULTS.professionalApiUrl),
  PROFESSIONAL_OAUTH_URL: url(UPSTREAM_DEFAULTS.professionalOauthUrl),
  PROFESSIONAL_API_VERSION: z._default(z.string().check(z.regex(/^\d{6}$/)), UPSTREAM_DEFAULTS.professionalApiVersion),
  /** connect links (docs/decisions.md "Connect links"): consent screens, revocation and token introspection */
  SOCIAL_AUTHORIZE_URL: url(UPSTREAM_DEFAULTS.socialAuthorizeUrl),
  /** when set, the social consent URL carries this Login-for-Business configuration instead of `scope` */
  SOCIAL_LOGIN_CONFIG_ID: optionalSecret,
  SEARCHADS_AUTHORIZE_URL: url(UPSTREAM_DEFAULTS.searchadsAuthorizeUrl),
  SEARCHADS_REVOKE_URL: url(UPSTREAM_DEFAULTS.searchadsRevokeUrl),
  PROFESSIONAL_AUTHORIZE_URL: url(UPSTREAM_DEFAULTS.professionalAuthorizeUrl),
  PROFESSIONAL_INTROSPECT_URL: url(UPSTREAM_DEFAULTS.professionalIntrospectUrl),
  PROFESSIONAL_REVOKE_URL: url(UPSTREAM_DEFAULTS.professionalRevokeUrl),
  /** this API's own public URL: connect links and the platforms' callback URLs are built on it */
  PUBLIC_BASE_URL: url('http://127.0.0.1:3000'),
  UPSTREAM_TIMEOUT_MS: wholeNumber(8_000, { min: 1 }),
  /**
   * Non-public networks that URLs given by clients (images, webhooks) may reach besides the public
   * internet, as comma-separated CIDRs; none by default (the local stack names loopback)
   */
  OUTBOUND_ALLOWED_NETWORKS: z.pipe(
    z._default(z.string(), ''),
    z.transform((value: string, context) => {
      const cidrs = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      try {
        return { cidrs, networks: parseNetworks(cidrs) };
      } catch (error) {
        context.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        return z.NEVER;
      }
    }),
  ),

  /** the webhook delivery queue (SQS); the local stack points it at its emulator */
  WEBHOOK_QUEUE_URL: optionalSecret,
  /** seconds between delivery attempts; after the last one fails the event is failed (docs/decisions.md "Webhooks") */
  WEBHOOK_RETRY_DELAYS: z.pipe(
    z.pipe(
      z._default(z.string(), '5,300,1800,7200,18000,36000,36000'),
      z.transform((value: string) => value.split(',').map((part) => Number(part.trim()))),
    ),
    z.array(z.int().check(z.minimum(0), z.maximum(43_200))).check(z.minLength(1), z.maxLength(20)),
  ),
  /** how long a receiver may take to answer one delivery */
  WEBHOOK_TIMEOUT_MS: wholeNumber(10_000, { min: 100, max: 20_000 }),
  /** an event still pending this long past its due time is queued again (its message was lost) */
  WEBHOOK_SWEEP_AFTER_SECONDS: wholeNumber(300, { min: 1 }),
  /** how long before a grant runs out the connection lifecycle renews it or marks it `expiring` */
  /** how long a lead is kept (sealed) after it was received (docs/leads.md) */
  LEADS_RETENTION_DAYS: wholeNumber(90, { min: 1, max: 365 }),
  /** a platform webhook body larger than this is refused (413): the platforms send far less */
  PLATFORM_WEBHOOK_MAX_BYTES: wholeNumber(1_048_576, { min: 1024 }),
  CONNECTION_RENEW_BEFORE_DAYS: wholeNumber(7, { min: 1, max: 30 }),

  /** our social app's id (token health checks use the app token `<id>|<secret>`) */
  SOCIAL_APP_ID: optionalSecret,
  SOCIAL_APP_SECRET: optionalSecret,
  /** what the social platform's verification GET must name (`hub.verify_token`) to be answered */
  SOCIAL_WEBHOOK_VERIFY_TOKEN: optionalSecret,
  /** optional since Google retired developer tokens (September 2026): the `developer-token` header is sent only when it is set */
  SEARCHADS_DEVELOPER_TOKEN: optionalSecret,
  /** the search-ads Cloud project's operations a Google day (its access level's), shared by every tenant */
  SEARCHADS_DAILY_OPERATIONS: wholeNumber(15_000, { min: 1 }),
  /**
   * the first wait of a Google audience job on the queue (seconds), doubling: before it reads its requests'
   * statuses (up to 30 minutes), and before it asks again for a list another job is writing to (up to 5)
   */
  SEARCHADS_FIRST_WAIT_SECONDS: wholeNumber(5, { min: 1, max: 60 }),
  /** the first wait (seconds) of a report export before it reads its asynchronous run's status, doubling up to 2 minutes (docs/reports.md) */
  REPORT_RUN_FIRST_WAIT_SECONDS: wholeNumber(30, { min: 1, max: 120 }),
  /** the part of those one tenant may spend in a Google day (docs/configuration.md) */
  SEARCHADS_TENANT_SHARE: fraction(0.5, { above: 0, max: 1 }),
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

/** The configuration `variables` give (the environment's), or an error naming each one that is wrong and why. */
export function parseConfig(variables: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(variables);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The validated configuration; the environment is read on the first call only. */
export function config(): Config {
  cached ??= parseConfig({ ...process.env, ...overrides });
  return cached;
}

/** App credentials read from Secrets Manager at cold start join the configuration (validated again). */
export function addSecretConfiguration(values: Record<string, string>): void {
  overrides = { ...overrides, ...values };
  cached = undefined;
  config();
}
