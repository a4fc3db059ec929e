import Big from 'big.js';
import { PLATFORMS } from '../core/errors.ts';
import * as z from 'zod';
import type { AuditSpec } from '../core/audit.ts';
import { amountSchema, controlCampaignIdSchema } from './campaign-control.ts';
import { shapeError, userIdSchema, type Output } from './common.ts';
import { ruleIdSchema } from './ids.ts';
import { PERFORMANCE_METRICS } from './performance.ts';

/**
 * The optimizer's rules (docs/operations.md, "Rules"): a rule watches campaigns of one user on one
 * platform and acts when all its conditions hold. The metric words are those of the performance rows,
 * the same on every platform.
 */
export const RULE_PLATFORMS = PLATFORMS;
export const RULE_METRICS = PERFORMANCE_METRICS;
export const RULE_WINDOWS = ['TODAY', 'YESTERDAY', 'LAST_3_DAYS', 'LAST_7_DAYS', 'LAST_14_DAYS', 'LAST_30_DAYS'] as const;
export const RULE_OPERATORS = ['>', '>=', '<', '<='] as const;
export const RULE_SCHEDULES = ['HOURLY', 'DAILY'] as const;
export const MAX_RULES_PER_USER = 100;

export type RuleMetric = (typeof RULE_METRICS)[number];
export type RuleWindow = (typeof RULE_WINDOWS)[number];

/** The digits after the point of a finite number, as it is written (1e-7 has 7). */
const decimalsOf = (value: number) => {
  const big = new Big(value);
  return Math.max(0, big.c.length - big.e - 1);
};

/** Rule numbers the optimizer can hold exactly (docs/decisions.md, "Bounds"). */
export const MAX_CONDITION_VALUE = 1e12;
export const MAX_CONDITION_DECIMALS = 6;
export const MAX_PERCENT_DECIMALS = 2;

/** How far a compared metric may move, in percent: down to −100 (gone), up to a millionfold. */
export const MAX_CHANGE_PERCENT = 1e6;

const conditionSchema = z
  .strictObject({
    metric: z.enum(RULE_METRICS).describe('A metric of the daily rows; ratios are computed over the whole window.'),
    operator: z.enum(RULE_OPERATORS),
    value: z
      .number()
      .finite()
      .min(-100)
      .max(MAX_CONDITION_VALUE)
      .refine((value) => decimalsOf(value) <= MAX_CONDITION_DECIMALS, `must have at most ${MAX_CONDITION_DECIMALS} decimals`)
      .describe(
        'Counts as counts, money in major units of the account’s currency, ctr as a fraction; at most 1e12, with at most 6 decimals. With `compareTo`: a change in percent (−100 to 1e6; 20 is 20 % above, −20 20 % below).',
      ),
    window: z.enum(RULE_WINDOWS).describe('Whole days in the ad account’s time zone: TODAY so far, or the N whole days before today.'),
    compareTo: z
      .strictObject({ window: z.enum(RULE_WINDOWS) })
      .optional()
      .describe('Compare two windows: the condition holds on the metric’s change over `window` against `compareTo.window`, in percent.'),
  })
  .superRefine((condition, ctx) => {
    if (!condition.compareTo && condition.value < 0)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must not be negative (a negative value is a change in percent, with compareTo)' });
    if (condition.compareTo && condition.value > MAX_CHANGE_PERCENT)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be at most ${MAX_CHANGE_PERCENT} (percent) with compareTo` });
    if (condition.compareTo?.window === condition.window) ctx.addIssue({ code: 'custom', path: ['compareTo', 'window'], message: 'must differ from window' });
  });

const bounds = {
  minDailyBudget: amountSchema.describe('The lowest daily budget the rule may set (major units).'),
  maxDailyBudget: amountSchema.describe('The highest daily budget the rule may set (major units).'),
};

export const ACTION_MODES = ['apply', 'approve', 'notify'] as const;
export const DEFAULT_APPROVAL_HOURS = 24;

/** How a rule acts on a match: it changes the campaign, proposes the change for a person to approve, or only tells. */
const modeFields = {
  mode: z
    .enum(ACTION_MODES)
    .optional()
    .describe(
      'apply (the default): the rule changes the campaign; approve: it proposes the change (list_proposals, decide_proposal); notify: it changes nothing and sends optimization.matched.',
    ),
  approvalHours: z
    .number()
    .int()
    .min(1)
    .max(168)
    .optional()
    .describe(`With mode approve: how long a proposal waits for a decision before it expires (default ${DEFAULT_APPROVAL_HOURS}).`),
};

const actionSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('PAUSE'), ...modeFields }),
    z.strictObject({ type: z.literal('ACTIVATE'), ...modeFields }),
    z.strictObject({ type: z.literal('SET_DAILY_BUDGET'), amount: amountSchema, ...bounds, ...modeFields }),
    z.strictObject({
      type: z.literal('CHANGE_DAILY_BUDGET'),
      ...modeFields,
      percent: z
        .number()
        .finite()
        .min(-90)
        .max(1000)
        .refine((value) => value !== 0, 'must not be 0')
        .refine((value) => decimalsOf(value) <= MAX_PERCENT_DECIMALS, `must have at most ${MAX_PERCENT_DECIMALS} decimals`)
        .describe('Raise (positive) or lower (negative) the daily budget by this many percent (−90 to 1000, at most 2 decimals), kept within the bounds.'),
      ...bounds,
    }),
  ])
  .superRefine((action, ctx) => {
    if (action.approvalHours !== undefined && action.mode !== 'approve')
      ctx.addIssue({ code: 'custom', path: ['approvalHours'], message: 'is for mode approve only' });
    if (!('minDailyBudget' in action)) return;
    const [min, max] = [new Big(action.minDailyBudget), new Big(action.maxDailyBudget)];
    if (min.gt(max)) ctx.addIssue({ code: 'custom', path: ['minDailyBudget'], message: 'must not be above maxDailyBudget' });
    if (action.type === 'SET_DAILY_BUDGET' && (new Big(action.amount).lt(min) || new Big(action.amount).gt(max)))
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must be within minDailyBudget and maxDailyBudget' });
  })
  .describe('Budget actions need both bounds, and never leave them.');

const campaignIdsSchema = z
  .array(controlCampaignIdSchema)
  .min(1)
  .max(100)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a campaign')
  .describe('1 to 100 campaigns of the user’s account on the rule’s platform.');

const ruleFields = {
  name: z.string().trim().min(1).max(200),
  campaignIds: campaignIdsSchema,
  conditions: z.array(conditionSchema).min(1).max(5).describe('All must hold for the rule to act.'),
  action: actionSchema,
  schedule: z.enum(RULE_SCHEDULES).describe('How often the rule runs.'),
  cooldownHours: z.number().int().min(1).max(720).default(24).describe('After acting on a campaign, the rule leaves it alone this long.'),
  enabled: z.boolean().default(true),
};

export const ruleDefinitionSchema = z.strictObject({ platform: z.enum(RULE_PLATFORMS), ...ruleFields });

export const createRuleFields = { userId: userIdSchema, platform: z.enum(RULE_PLATFORMS), ...ruleFields };

export const updateRuleFields = {
  userId: userIdSchema,
  ruleId: ruleIdSchema,
  platform: z.never({ error: 'a rule’s platform is fixed; create another rule for another platform' }).optional(),
  name: ruleFields.name.optional(),
  campaignIds: campaignIdsSchema.optional(),
  conditions: ruleFields.conditions.optional(),
  action: actionSchema.optional(),
  schedule: ruleFields.schedule.optional(),
  cooldownHours: z.number().int().min(1).max(720).optional(),
  enabled: z.boolean().optional(),
};

/** An update names at least one field to change. */
export const namesAChange = (input: object) =>
  ['name', 'campaignIds', 'conditions', 'action', 'schedule', 'cooldownHours', 'enabled'].some((field) => field in input);

export type RuleDefinition = z.output<typeof ruleDefinitionSchema>;
export type RuleAction = RuleDefinition['action'];
export type ActionMode = (typeof ACTION_MODES)[number];
export const modeOf = (action: Pick<RuleAction, 'mode'>): ActionMode => action.mode ?? 'apply';
export type RuleCondition = RuleDefinition['conditions'][number];
export type CreateRuleInput = Output<typeof createRuleFields>;
export type UpdateRuleInput = Output<typeof updateRuleFields>;

export const ruleSchema = ruleDefinitionSchema.extend({
  ruleId: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  nextRunAt: z.string().describe('When the rule runs next (ISO 8601); absent while it is disabled.').optional(),
  lastRunAt: z.string().optional(),
  consecutiveFailedRuns: z.number().int(),
  disabledReason: z.string().optional().describe('Why the service disabled the rule (its actions failed in 3 runs in a row).'),
});
export type Rule = z.output<typeof ruleSchema>;

export const evaluationSchema = z.object({
  campaignId: z.string(),
  metrics: z.record(z.string(), z.string().nullable()).describe('"<metric>.<window>" → its value over the window; null when it has none (no denominator).'),
  matched: z.boolean(),
  action: z.object({ type: z.string(), from: z.unknown(), to: z.unknown() }).optional().describe('What the rule does (or would do).'),
  skipped: z.string().optional().describe('Why it does not act although it matched: cooldown, daily cap, bound, reversal, removed campaign …'),
});
export type Evaluation = z.output<typeof evaluationSchema>;

export const ruleActionOutcomeSchema = z.object({
  campaignId: z.string(),
  type: z.string(),
  from: z.unknown().optional(),
  to: z.unknown().optional(),
  outcome: z
    .enum(['applied', 'skipped', 'failed', 'proposed', 'notified'])
    .describe('applied: changed; proposed: waiting for a person (mode approve); notified: told only (mode notify); skipped or failed: why in reason or error.'),
  proposalId: z.string().optional().describe('The proposal a run in mode approve made.'),
  reason: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type RuleActionOutcome = z.output<typeof ruleActionOutcomeSchema>;

export const ruleRunSchema = z.object({
  runId: z.string(),
  ruleId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  status: z.enum(['completed', 'partial', 'failed']),
  evaluations: z.array(evaluationSchema),
  actions: z.array(ruleActionOutcomeSchema),
  reason: z.string().optional().describe('Why a run is partial or failed (a quota share used up, a refused read).'),
});
export type RuleRun = z.output<typeof ruleRunSchema>;

export const ruleResultSchema = z.object({ rule: ruleSchema });

/** The audit events of the rule operations: the rule is the target, the changed fields named. */
export const ruleAudit = (
  action: 'rule.created' | 'rule.updated' | 'rule.deleted',
): AuditSpec<{ ruleId?: string } & Record<string, unknown>, { rule?: Rule; ruleId?: string }> => ({
  action,
  target: (input, result) => ({ type: 'rule', id: result?.rule?.ruleId ?? result?.ruleId ?? input.ruleId ?? '' }),
  changes: (input) => {
    const fields = ['name', 'campaignIds', 'conditions', 'action', 'schedule', 'cooldownHours', 'enabled'].filter((field) => field in input);
    return action === 'rule.deleted' ? undefined : Object.fromEntries(fields.map((field) => [field, { to: input[field] }]));
  },
});

/**
 * A request that names a stored rule (`ruleId`) or gives one not created yet (`rule`), exactly one of
 * them: the document says so (oneOf), and so do a typed client's types.
 */
export function storedOrNewRule<Fields extends z.core.$ZodLooseShape>(fields: Fields) {
  return z
    .xor(
      [
        z.strictObject({ ...fields, ruleId: ruleIdSchema.check(z.describe('A stored rule; or send `rule` instead.')), rule: z.never().optional() }),
        z.strictObject({
          ...fields,
          ruleId: z.never().optional(),
          rule: ruleDefinitionSchema.describe('A rule not created yet, as create_rule takes it (without userId).'),
        }),
      ],
      { error: shapeError('send exactly one of ruleId (a stored rule) and rule (a rule not created yet)') },
    )
    .transform((input): z.output<z.ZodObject<Fields>> & { ruleId?: string; rule?: RuleDefinition } => input as never);
}
