import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { updateRuleRequest, ruleResultSchema } from '../../shared/schemas/rules.ts';

const RULE = {
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

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Update a rule',
  description:
    'Changes any field but the platform. A rule enabled again is due at once and its failure streak starts over; a disabled rule leaves the schedule.',
  tag: 'Optimization',
  request: updateRuleRequest,
  result: ruleResultSchema,
  requestExample: { userId: 'demo-user', ruleId: 'rul_5f0c1b2a3d4e5f60718293a4', enabled: false },
  resultExample: { rule: { ...RULE, enabled: false, nextRunAt: undefined } },
};
