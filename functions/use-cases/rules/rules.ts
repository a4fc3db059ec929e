import type { Context } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import type { AuditUnit } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { CampaignRefused, NotFound, PlatformNotConnected, RuleLimitReached } from '../../../shared/core/errors.ts';
import {
  MAX_RULES_PER_USER,
  type CreateRuleInput,
  type Evaluation,
  type Rule,
  type RuleDefinition,
  type UpdateRuleInput,
} from '../../../shared/schemas/rules.ts';
import { LOST_RACE, retryOnConflict } from '../../../shared/store/client.ts';
import { createRule, deleteRule, replaceRule } from '../../../shared/store/rule-writes.ts';
import { findRuleItem, publicRule, type RuleItem } from '../../../shared/store/rules.ts';
import type { User } from '../../../shared/store/users.ts';
import { actionOf, decide, evaluateRule, readGroupMetrics } from './rule-evaluation.ts';
import { platformAdapters } from '../../../shared/platforms/registry.ts';

/**
 * The rule operations (docs/operations.md, "Rules"): a new or re-enabled rule is due at once; a
 * disabled one leaves the schedule; the platform of a rule never changes; at most 100 a user.
 */
const notFound = (ruleId: string) => new NotFound(`No rule ${ruleId} for this user.`);

export function requireConnection(user: User, platform: RuleDefinition['platform']): void {
  if (!user.connections[platform]) throw new PlatformNotConnected(platform);
}

/**
 * A rule names only campaigns of the user's connected account: one read of the account finds them, and
 * any other id is CAMPAIGN_NOT_FOUND (200, results.success false) with nothing stored.
 */
async function requireCampaignsInAccount(
  user: User,
  platformName: RuleDefinition['platform'],
  campaignIds: readonly string[],
  context: Context,
): Promise<void> {
  const platform = platformAdapters[platformName];
  const found = await platform.metrics.campaignsIn(platform.session(user, context), campaignIds);
  const missing = campaignIds.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new CampaignRefused(
      'CAMPAIGN_NOT_FOUND',
      `${missing.length === 1 ? `Campaign ${missing[0]} is` : `Campaigns ${missing.join(', ')} are`} not in the user’s connected ${platformName} account; nothing was stored.`,
      { campaignIds: missing },
    );
}

export async function createRuleFor(tenantId: string, user: User, input: CreateRuleInput, context: Context, audit: AuditUnit): Promise<{ rule: Rule }> {
  requireConnection(user, input.platform);
  await requireCampaignsInAccount(user, input.platform, input.campaignIds, context);
  const now = new Date(clock.now()).toISOString();
  const { userId: _user, ...definition } = input;
  const rule: Rule = {
    ruleId: `rul_${randomBytes(12).toString('hex')}`,
    userId: user.userId,
    ...definition,
    createdAt: now,
    updatedAt: now,
    ...(definition.enabled ? { nextRunAt: now } : {}),
    consecutiveFailedRuns: 0,
  };
  const answer = { rule };
  if ((await createRule(tenantId, rule, audit.event(answer))) === 'limit') throw new RuleLimitReached(MAX_RULES_PER_USER);
  return answer;
}

async function ruleOf(tenantId: string, userId: string, ruleId: string): Promise<RuleItem> {
  const item = await findRuleItem(tenantId, userId, ruleId);
  if (!item) throw notFound(ruleId);
  return item;
}

export async function updateRuleFor(tenantId: string, user: User, input: UpdateRuleInput, context: Context, audit: AuditUnit): Promise<{ rule: Rule }> {
  const { userId: _user, ruleId, platform: _fixed, ...changes } = input;
  if (changes.campaignIds) {
    const stored = await ruleOf(tenantId, user.userId, ruleId);
    requireConnection(user, stored.platform);
    await requireCampaignsInAccount(user, stored.platform, changes.campaignIds, context);
  }
  return retryOnConflict(`Rule ${ruleId}`, async () => {
    const before = await ruleOf(tenantId, user.userId, ruleId);
    const now = new Date(clock.now()).toISOString();
    const after: Rule = { ...publicRule(before), ...changes, updatedAt: now };
    if (after.enabled && !before.enabled) {
      // enabled again: due at once, with a clean record
      Object.assign(after, { nextRunAt: now, consecutiveFailedRuns: 0 });
      delete after.disabledReason;
    }
    if (!after.enabled) delete after.nextRunAt;
    const answer = { rule: after };
    return (await replaceRule(tenantId, before, after, audit.event(answer))) ? answer : LOST_RACE;
  });
}

export function deleteRuleFor(tenantId: string, user: User, ruleId: string, audit: AuditUnit): Promise<{ ruleId: string; deleted: true }> {
  return retryOnConflict(`Rule ${ruleId}`, async () => {
    const before = await ruleOf(tenantId, user.userId, ruleId);
    const answer = { ruleId, deleted: true as const };
    return (await deleteRule(tenantId, before, audit.event(answer))) ? answer : LOST_RACE;
  });
}

/** A stored rule of the user (`ruleId`), or one not created yet (`rule`). */
export async function storedOrGiven(tenantId: string, user: User, input: { ruleId?: string; rule?: RuleDefinition }): Promise<RuleDefinition> {
  return input.ruleId ? ruleOf(tenantId, user.userId, input.ruleId) : (input.rule as RuleDefinition);
}

/** What the rule would do now: its metrics, whether each campaign matches, the change or why none; nothing is changed. */
export async function previewRule(
  tenantId: string,
  user: User,
  input: { ruleId?: string; rule?: RuleDefinition },
  context: Context,
): Promise<{ evaluations: Evaluation[] }> {
  const stored = input.ruleId ? await ruleOf(tenantId, user.userId, input.ruleId) : undefined;
  const rule = stored ?? (input.rule as RuleDefinition);
  requireConnection(user, rule.platform);
  const platform = platformAdapters[rule.platform];
  platform.canReadMetrics?.(user);
  const session = platform.session(user, context);
  const metrics = await readGroupMetrics(platform, session, [rule]);
  const evaluations = evaluateRule(rule, metrics);
  for (const evaluation of evaluations.filter((candidate) => candidate.matched)) {
    const decision = await decide(
      platform,
      session,
      { tenantId, userId: user.userId, ruleId: stored?.ruleId ?? 'preview', rule, timeZone: metrics.facts.timeZone },
      evaluation.campaignId,
    );
    if (decision.kind === 'fail') evaluation.skipped = `${decision.code}: ${decision.message}`;
    else {
      Object.assign(evaluation, actionOf(rule.action.type, decision.change));
      if (decision.kind === 'skip') evaluation.skipped = decision.reason;
    }
  }
  return { evaluations };
}
