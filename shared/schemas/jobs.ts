import { conversionsResultSchema } from './conversions.ts';
import { reportFileSchema } from './reports.ts';
import * as z from 'zod';
import { socialAudienceResultSchema } from './audiences.ts';
import { jobStatusSchema } from './uploads.ts';
import { ruleActionOutcomeSchema } from './rules.ts';

/**
 * A job as get_job and the job webhooks show it: one shape per `type` (docs/decisions.md, "Uploads and
 * audience jobs", "Media into an ad account", "Launching a whole campaign"), so a typed client narrows
 * `result`, `error` and `progress` on `type` without a cast.
 */
const jobBase = {
  jobId: z.string(),
  userId: z.string(),
  status: jobStatusSchema,
  createdAt: z.string().describe('ISO 8601'),
  updatedAt: z.string().describe('ISO 8601'),
};

const jobError = <Code extends z.ZodType>(code: Code) => z.object({ code, message: z.string() }).strict();

const audienceProgress = z
  .object({ bytesRead: z.number(), totalBytes: z.number(), rowsRead: z.number(), rowsSent: z.number(), batchesSent: z.number() })
  .strict()
  .describe(
    'An audience job: rowsRead counts data rows (not the header) as the file is checked; rowsSent the rows the platform acknowledged. Counters only move forward.',
  );

const mediaProgress = z
  .object({
    bytesSent: z.number(),
    totalBytes: z.number(),
    chunksSent: z.number(),
    processing: z
      .object({ status: z.enum(['processing', 'ready', 'error']), percent: z.number().optional() })
      .strict()
      .optional()
      .describe('Once the platform has every byte: where its processing is.'),
  })
  .strict()
  .describe('An ad_media job (a video): the bytes and chunks the platform acknowledged, then its processing.');

export const launchStepSchema = z
  .object({
    step: z.string().describe('`group`, `campaign`, `adset`, `creative:<i>`, `ad:<i>` (i from 0, in the order of `ads`), `activate`.'),
    status: z.enum(['pending', 'done', 'undone', 'orphaned']),
    platformId: z.string().optional().describe('The object the platform made for the step.'),
  })
  .strict();

const launchProgress = z
  .object({ steps: z.array(launchStepSchema) })
  .strict()
  .describe('A campaign_launch job: each step, and the object it made (`undone` once a rollback deleted it, `orphaned` when it could not).');

export const launchPlatformDetailSchema = z
  .object({
    code: z.union([z.number(), z.string()]),
    subcode: z.number().optional(),
    userTitle: z.string().optional(),
    userMessage: z.string().optional(),
    traceId: z.string().optional(),
  })
  .strict();

const launchObjectTypeSchema = z.enum(['campaign_group', 'campaign', 'adset', 'creative', 'ad']);
/** an object a failed launch could not undo, or one it may have made */
export const launchOrphanSchema = z.union([
  z
    .object({
      type: launchObjectTypeSchema,
      id: z.string().describe('An object the launch made and could not remove: left paused (or a draft), spending nothing.'),
    })
    .strict(),
  z
    .object({
      type: launchObjectTypeSchema,
      id: z.null().describe('No id: a create whose answer was lost may have made this object, and no read-back found it.'),
      name: z.string().describe('The name it would have: look for it in the ad account.'),
      possible: z.literal(true),
    })
    .strict(),
]);

export const launchResultSchema = z
  .object({
    campaignId: z.string(),
    adSetId: z.string().optional().describe('Social: the one ad set.'),
    campaignGroupId: z.string().optional().describe('Professional: the campaign group.'),
    ads: z.array(z.object({ adId: z.string(), creativeId: z.string() }).strict()).describe('Professional: `adId` is the creative’s URN (no separate ad).'),
    status: z.enum(['PAUSED', 'ACTIVE']),
  })
  .strict();

const AUDIENCE_ERRORS = z
  .string()
  .describe('INVALID_REQUEST, PLATFORM_REJECTED, PLATFORM_AUTH_EXPIRED, PLATFORM_NOT_CONNECTED, CONFLICT, RATE_LIMITED, INTERNAL, …');
const MEDIA_ERRORS = z
  .string()
  .describe('MEDIA_PROCESSING_FAILED, UNSUPPORTED_MEDIA, PLATFORM_REJECTED, PLATFORM_AUTH_EXPIRED, PLATFORM_NOT_CONNECTED, SCOPE_MISSING, INTERNAL, …');
const LAUNCH_ERRORS = z
  .string()
  .describe(
    'BUDGET_TOO_LOW, INVALID_OPTIMIZATION_FOR_OBJECTIVE, DECLARATION_REQUIRED, CREATIVE_OPTION_REQUIRED, MEDIA_NOT_READY, MEDIA_PROCESSING_FAILED, ACCOUNT_NOT_ELIGIBLE, PAGE_NOT_AUTHORIZED, SCOPE_MISSING, PLATFORM_REJECTED, PLATFORM_RATE_LIMITED, PLATFORM_NOT_CONNECTED, UNKNOWN_OUTCOME, INTERNAL',
  );

export const socialAudienceJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('social_audience'),
    progress: audienceProgress,
    result: socialAudienceResultSchema.strict().optional().describe('Operation 7’s audience fields with the platform’s final counts.'),
    error: jobError(AUDIENCE_ERRORS).optional(),
  })
  .strict();

export const professionalAudienceJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('professional_audience'),
    progress: audienceProgress,
    result: z
      .object({ audience: z.object({ csvFileId: z.string() }).strict(), warnings: z.array(z.string()).optional() })
      .strict()
      .optional()
      .describe('Operation 8’s audience: the uploaded list’s id on the platform, and what it warned of.'),
    error: jobError(AUDIENCE_ERRORS).optional(),
  })
  .strict();

export const searchadsAudienceJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('searchads_audience'),
    progress: audienceProgress,
    result: z
      .object({
        audienceId: z.string(),
        userListId: z.string().describe('Google’s Customer Match list.'),
        received: z.number().describe('Rows in the file.'),
        invalid: z.number().describe('Rows with no usable identifier here, and members Google refused after accepting them.'),
        matchRateRange: z.string().optional().describe('Google’s match-rate range of the largest request (MATCH_RATE_RANGE_…).'),
        warnings: z.array(z.string()).optional(),
      })
      .strict()
      .optional()
      .describe('The list, with what Google made of the rows.'),
    error: jobError(AUDIENCE_ERRORS).optional(),
  })
  .strict();

export const adMediaJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('ad_media'),
    progress: mediaProgress,
    result: z
      .object({ media: z.object({ type: z.literal('VIDEO'), id: z.string(), status: z.literal('ready') }).strict() })
      .strict()
      .optional()
      .describe('The video in the ad account: social its id, professional its URN.'),
    error: jobError(MEDIA_ERRORS).optional(),
  })
  .strict();

export const campaignLaunchJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('campaign_launch'),
    progress: launchProgress,
    result: launchResultSchema.optional(),
    error: z
      .object({
        code: LAUNCH_ERRORS,
        message: z.string(),
        platform: launchPlatformDetailSchema.optional().describe('A launch’s refusal: the platform’s code, subcode, title and message.'),
        minimum: z
          .object({ amount: z.string(), currency: z.string() })
          .strict()
          .optional()
          .describe('BUDGET_TOO_LOW: the smallest daily budget, when the platform named it.'),
      })
      .strict()
      .optional(),
    rolledBack: z.boolean().optional().describe('A failed launch: true only when nothing it may have made is left.'),
    orphans: z
      .array(launchOrphanSchema)
      .optional()
      .describe('A failed launch: what could not be deleted (paused, spending nothing), and what a lost create may have made.'),
  })
  .strict();

export const leadsBackfillJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('leads_backfill'),
    progress: z
      .object({ leadsFound: z.number(), leadsDelivered: z.number() })
      .strict()
      .describe('A leads_backfill job: the leads the platform listed since `since`, and how many of them were new (each sent as lead.received).'),
    result: z.object({ leadsFound: z.number(), leadsDelivered: z.number() }).strict().optional(),
    error: jobError(z.string().describe('PLATFORM_AUTH_EXPIRED, SCOPE_MISSING, PLATFORM_REJECTED, PLATFORM_NOT_CONNECTED, INTERNAL, …')).optional(),
  })
  .strict();

export const ruleUndoJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('rule_undo'),
    progress: z
      .object({ actions: z.array(ruleActionOutcomeSchema) })
      .strict()
      .describe('A rule_undo job: the changes of the run set back so far, newest first.'),
    result: z
      .object({ runId: z.string(), status: z.literal('undone'), undoneAt: z.string(), actions: z.array(ruleActionOutcomeSchema) })
      .strict()
      .optional(),
    error: jobError(z.string().describe('PLATFORM_AUTH_EXPIRED, PLATFORM_NOT_CONNECTED, INTERNAL, …')).optional(),
  })
  .strict();

export const conversionsJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('conversions'),
    progress: audienceProgress.describe(
      'A conversions job: rowsRead counts the events recorded, rowsSent the events in requests the platforms took, batchesSent those requests.',
    ),
    result: conversionsResultSchema.optional(),
    error: jobError(z.string().describe('PLATFORM_AUTH_EXPIRED, PLATFORM_NOT_CONNECTED, INTERNAL, …')).optional(),
  })
  .strict();

export const reportExportJobSchema = z
  .object({
    ...jobBase,
    type: z.literal('report_export'),
    progress: audienceProgress.describe('A report export: rowsRead counts the rows written so far.'),
    result: reportFileSchema.optional(),
    error: jobError(z.string().describe('PLATFORM_AUTH_EXPIRED, PLATFORM_REJECTED, PLATFORM_NOT_CONNECTED, SCOPE_MISSING, INTERNAL, …')).optional(),
  })
  .strict();

export const jobViewSchema = z.discriminatedUnion('type', [
  socialAudienceJobSchema,
  professionalAudienceJobSchema,
  searchadsAudienceJobSchema,
  adMediaJobSchema,
  campaignLaunchJobSchema,
  leadsBackfillJobSchema,
  ruleUndoJobSchema,
  conversionsJobSchema,
  reportExportJobSchema,
]);

/** What a job's end webhook carries: the job without its progress and times. */
const notInEvents = { progress: true, createdAt: true, updatedAt: true } as const;
export const audienceJobEndSchema = z.discriminatedUnion('type', [
  socialAudienceJobSchema.omit(notInEvents),
  professionalAudienceJobSchema.omit(notInEvents),
  searchadsAudienceJobSchema.omit(notInEvents),
]);
export const adMediaJobEndSchema = adMediaJobSchema.omit(notInEvents);
export const campaignLaunchJobEndSchema = campaignLaunchJobSchema.omit(notInEvents);
export const leadsBackfillJobEndSchema = leadsBackfillJobSchema.omit(notInEvents);
export const ruleUndoJobEndSchema = ruleUndoJobSchema.omit(notInEvents);
export const conversionsJobEndSchema = conversionsJobSchema.omit(notInEvents);
export const reportExportJobEndSchema = reportExportJobSchema.omit(notInEvents);
