import * as z from 'zod';
import type { PlatformDetail } from '../../../shared/core/errors.ts';
import { platformSchema } from '../../../shared/schemas/common.ts';
import type { Job, LaunchObjectType, LaunchOrphan } from '../../../shared/store/jobs.ts';

/**
 * What a campaign_launch job stores (docs/decisions.md, "Launching a whole campaign"): the request,
 * with the platform's params of every create decided once at the request (`plan`, read by the
 * platform's script), and the checkpoint: receipts, the create in flight, waits, and once failing, the
 * failure and what was left.
 */

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A platform's plan, as its script reads it: every plan names its ad account. */
export const planOf = <Plan extends { adAccountId: string }>() =>
  z.custom<Plan>((value) => z.object({ adAccountId: z.string() }).safeParse(value).success, 'a launch plan names its ad account');

export const launchJobRequestSchema = z.object({
  platform: platformSchema,
  plan: planOf<{ adAccountId: string }>(),
  /** the creates the plan makes, in order, before the activation: what get_job shows (decided at the request) */
  steps: z.array(z.string()),
  activate: z.boolean(),
  /** what the history record shows of each ad: its texts and its image (for a social video, the thumbnail the job reads) */
  ads: z.array(
    z.object({
      headline: z.string(),
      primaryText: z.string(),
      videoId: z.string().optional(),
      image: z.object({ id: z.string(), url: z.string(), width: z.number(), height: z.number() }).optional(),
    }),
  ),
  campaignName: z.string(),
  /** the campaign's start (ms), or undefined for "at activation" */
  startMs: z.number().optional(),
});
export type LaunchJobRequest = z.infer<typeof launchJobRequestSchema>;

const objectType = z.enum(['campaign_group', 'campaign', 'adset', 'creative', 'ad']) satisfies z.ZodType<LaunchObjectType>;

const orphan = z.union([
  z.object({ type: objectType, id: z.string() }),
  z.object({ type: objectType, id: z.null(), name: z.string(), possible: z.literal(true) }),
]) satisfies z.ZodType<LaunchOrphan>;

const jobError = z.object({
  code: z.string(),
  message: z.string(),
  platform: z.custom<PlatformDetail>(isObject).optional(),
  minimum: z.object({ amount: z.string(), currency: z.string() }).optional(),
});

/** An object the platform made for the job, stored before the next call; `undone` once a rollback deleted it. */
const receipt = z.object({ step: z.string(), type: objectType, platformId: z.string(), undone: z.literal(true).optional() });
export type LaunchReceipt = z.infer<typeof receipt>;

export const launchCheckpointSchema = z.object({
  receipts: z.array(receipt),
  /**
   * The create in flight: what it makes, how often it was sent, and when it was first sent (epoch ms): a
   * read-back adopts only an object made after that (less the platform's clock slack).
   */
  pending: z
    .object({ step: z.string(), sends: z.number(), type: objectType.optional(), name: z.string().optional(), firstSentAt: z.number().optional() })
    .optional(),
  /** the activation, decided before its write: a run after a crash records it once, whatever the platform shows */
  activation: z.literal('decided').optional(),
  thumbnails: z.record(z.string(), z.object({ url: z.string(), width: z.number(), height: z.number() })).optional(),
  /** media a professional launch waited for and found ready */
  mediaReady: z.array(z.string()).optional(),
  /** the polls of each wait so far (a video's thumbnail, media still processing) */
  waits: z.record(z.string(), z.number()).optional(),
  /** how often a professional launch was parked by throttling (its wait doubles) */
  parks: z.number().optional(),
  /** how many of the ads' history entries are stored */
  historyEntries: z.number().optional(),
  failure: jobError.optional(),
  orphans: z.array(orphan).optional(),
});
export type LaunchCheckpoint = z.infer<typeof launchCheckpointSchema>;
export type LaunchJob = Job<LaunchJobRequest, LaunchCheckpoint>;

/** The checkpoint's count of polls per wait, made when first needed. */
export function waitsOf(checkpoint: LaunchCheckpoint): Record<string, number> {
  checkpoint.waits ??= {};
  return checkpoint.waits;
}

/**
 * What a launch shows of its progress: its steps in order (the platform's creates, then the activation
 * when asked), each with the object it made.
 */
export function launchProgressOf(job: LaunchJob) {
  const { checkpoint, request } = job;
  const orphaned = new Set((checkpoint.orphans ?? job.orphans ?? []).map((orphan) => orphan.id));
  const steps = [...request.steps, ...(request.activate ? ['activate'] : [])];
  return {
    steps: steps.map((step) => {
      const receipt = checkpoint.receipts.find((candidate) => candidate.step === step);
      if (!receipt) return { step, status: step === 'activate' && job.status === 'succeeded' ? ('done' as const) : ('pending' as const) };
      const status = receipt.undone ? ('undone' as const) : orphaned.has(receipt.platformId) ? ('orphaned' as const) : ('done' as const);
      return { step, status, platformId: receipt.platformId };
    }),
  };
}
