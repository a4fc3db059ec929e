import { day } from './example-dates.ts';
import type { Proposal } from './proposals.ts';
import type { Evaluation, Rule } from './rules.ts';

/** The rule operations' examples in the OpenAPI document: one rule and one evaluation, shown by all six. */
export const RULE_EXAMPLE: Rule = {
  ruleId: 'rul_5f0c1b2a3d4e5f60718293a4',
  userId: 'demo-user',
  platform: 'social' as const,
  name: 'Pause spenders without leads',
  campaignIds: ['120210987000000100'],
  conditions: [
    { metric: 'spend' as const, operator: '>' as const, value: 50, window: 'LAST_3_DAYS' as const },
    { metric: 'conversions' as const, operator: '<' as const, value: 1, window: 'LAST_3_DAYS' as const },
  ],
  action: { type: 'PAUSE' as const },
  schedule: 'HOURLY' as const,
  cooldownHours: 24,
  enabled: true,
  createdAt: `${day(0)}T09:00:00.000Z`,
  updatedAt: `${day(0)}T09:00:00.000Z`,
  nextRunAt: `${day(0)}T09:00:00.000Z`,
  consecutiveFailedRuns: 0,
};

export const EVALUATION_EXAMPLE: Evaluation = {
  campaignId: '120210987000000100',
  metrics: { 'spend.LAST_3_DAYS': '142.87', 'conversions.LAST_3_DAYS': '0' },
  matched: true,
  action: { type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED' },
};

const RUN_MS = Date.parse(`${day(0)}T09:00:00.000Z`);

export const PROPOSAL_EXAMPLE: Proposal = {
  proposalId: `prp_${RUN_MS}_3c9a1f0b7d2e`,
  ruleId: RULE_EXAMPLE.ruleId,
  userId: 'demo-user',
  platform: 'social',
  campaignId: '120210987000000100',
  runId: `run_${RUN_MS}_${RULE_EXAMPLE.ruleId.slice(4)}`,
  action: { type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED' },
  metrics: EVALUATION_EXAMPLE.metrics,
  status: 'pending',
  createdAt: `${day(0)}T09:00:02.000Z`,
  expiresAt: `${day(1)}T09:00:02.000Z`,
};

export const RUN_ID_EXAMPLE = PROPOSAL_EXAMPLE.runId;
