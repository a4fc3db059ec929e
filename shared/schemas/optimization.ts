import * as z from 'zod';
import { userIdSchema, type Output } from './common.ts';
import { campaignIdSchema } from './ids.ts';

export const text = z.string().max(5000);
const epochMillis = z.number().int().nonnegative().describe('Milliseconds since the epoch.');

export const textChangeSchema = z.strictObject({ newText: text, oldText: text });

export const optimizationImageSchema = z.strictObject({
  url: z.url().max(4096),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  id: z.string().max(256),
});

export const historyEntryInputSchema = z.strictObject({
  adId: z.string().min(1).max(256),
  adSetId: z.string().min(1).max(256),
  headlines: z.array(textChangeSchema).max(100).default([]),
  primaryTexts: z.array(textChangeSchema).max(100).default([]),
  images: z.array(optimizationImageSchema).max(100).default([]),
  timestamp: epochMillis.describe('Time of the change, milliseconds since the epoch.'),
});

/** One stored entry must fit a DynamoDB item (400 KB) with the campaign's fields beside it. */
export const MAX_ENTRY_BYTES = 300 * 1024;

export const recordOptimizationFields = {
  userId: userIdSchema,
  campaignId: campaignIdSchema,
  campaignName: z.string().min(1).max(1024),
  platform: z.string().min(1).max(64),
  optimizationStatus: z.string().min(1).max(64),
  startDate: epochMillis.describe('Campaign start, milliseconds since the epoch.'),
  entry: historyEntryInputSchema.superRefine((entry, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify(entry));
    if (bytes > MAX_ENTRY_BYTES) {
      ctx.addIssue({ code: 'custom', message: `is ${Math.ceil(bytes / 1024)} KB of JSON; one entry may have at most ${MAX_ENTRY_BYTES / 1024} KB` });
    }
  }),
};

export const lastUpdateSchema = z.object({ _seconds: z.number().int(), _nanoseconds: z.number().int() });

/** A change the service made to the campaign (campaign control, or a rule), on the entry that records it. */
export const historyChangeSchema = z.object({
  field: z.enum(['status', 'dailyBudget']),
  from: z.unknown().describe('A status (ACTIVE, PAUSED, REMOVED) or a budget {amount, currency}.'),
  to: z.unknown(),
});
export const historySourceSchema = z.object({
  type: z.enum(['api', 'rule', 'undo']),
  ruleId: z.string().optional().describe('The rule that made the change (type rule).'),
  proposalId: z.string().optional().describe('The approved proposal the rule’s change came from (type rule, mode approve).'),
  runId: z.string().optional().describe('The rule run an undo set back (type undo).'),
});

export const historyEntrySchema = historyEntryInputSchema.extend({
  adId: z.string().max(256).describe('The ad the entry is about; empty ("") on a campaign-level change (an entry with `change`).'),
  adSetId: z.string().max(256).describe('The ad set the entry is about; empty ("") on a campaign-level change (an entry with `change`).'),
  lastUpdate: lastUpdateSchema,
  change: historyChangeSchema.optional().describe('Present on entries the service wrote when it changed the campaign.'),
  source: historySourceSchema
    .optional()
    .describe('Who made the change: an API call, a rule (with its id, and the proposal a person approved), or the undo of a rule run.'),
});

export const optimizationRecordSchema = z.object({
  campaignId: z.string(),
  campaignName: z.string(),
  startDate: z.number(),
  timestamp: z.number().describe('The newest history entry’s timestamp.'),
  optimizationStatus: z.string(),
  platform: z.string(),
  history: z.array(historyEntrySchema),
});

export type RecordOptimizationInput = Output<typeof recordOptimizationFields>;
export type OptimizationRecord = z.infer<typeof optimizationRecordSchema>;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type HistoryChange = z.infer<typeof historyChangeSchema>;
export type HistorySource = z.infer<typeof historySourceSchema>;
