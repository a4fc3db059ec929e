import * as z from 'zod';
import { launchOrphanSchema, launchPlatformDetailSchema } from '../../shared/schemas/operation-doc.ts';
import { jobErrorSchema, jobStatusSchema } from '../../shared/schemas/uploads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getJobRequest = z.strictObject({ jobId: z.string().min(1).max(64) });

export const jobViewSchema = z.object({
  jobId: z.string(),
  type: z.enum(['social_audience', 'professional_audience', 'ad_media', 'campaign_launch']),
  userId: z.string(),
  status: jobStatusSchema,
  progress: z.union([
    z
      .object({ bytesRead: z.number(), totalBytes: z.number(), rowsRead: z.number(), rowsSent: z.number(), batchesSent: z.number() })
      .describe(
        'An audience job: rowsRead counts data rows (not the header) as the file is checked; rowsSent the rows the platform acknowledged. Counters only move forward.',
      ),
    z
      .object({
        bytesSent: z.number(),
        totalBytes: z.number(),
        chunksSent: z.number(),
        processing: z
          .object({ status: z.enum(['processing', 'ready', 'error']), percent: z.number().optional() })
          .optional()
          .describe('Once the platform has every byte: where its processing is.'),
      })
      .describe('An ad_media job (a video): the bytes and chunks the platform acknowledged, then its processing.'),
    z
      .object({
        steps: z.array(
          z.object({
            step: z.string().describe('`campaign`, `adset`, `creative:<i>`, `ad:<i>` (i from 0, in the order of `ads`), `activate`.'),
            status: z.enum(['pending', 'done', 'undone', 'orphaned']),
            platformId: z.string().optional().describe('The object the platform made for the step.'),
          }),
        ),
      })
      .describe('A campaign_launch job: each step, and the object it made (`undone` once a rollback deleted it, `orphaned` when it could not).'),
  ]),
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'The operation’s own result: operation 7’s audience fields with the platform’s final counts; operation 8’s `audience.csvFileId`; an ad_media job’s `media` `{type: VIDEO, id, status: ready}`; a campaign_launch’s `{campaignId, adSetId (social) | campaignGroupId (professional), ads: [{adId, creativeId}], status}` (professional: `adId` is the creative’s URN, the platform has no separate ad).',
    ),
  error: jobErrorSchema
    .extend({ platform: launchPlatformDetailSchema.optional().describe('A launch’s refusal: the platform’s code, subcode, title and message.') })
    .optional(),
  rolledBack: z.boolean().optional().describe('A failed launch: true when everything it made was deleted.'),
  orphans: z.array(launchOrphanSchema).optional().describe('A failed launch: what could not be deleted (paused, spending nothing).'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
