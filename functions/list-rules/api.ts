import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { listRulesRequest, rulesListResultSchema } from '../../shared/schemas/rules.ts';

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
  summary: 'List rules',
  description: 'The user’s rules, 50 a page, with their next run, last run and failure streak.',
  tag: 'Optimization',
  request: listRulesRequest,
  result: rulesListResultSchema,
  requestExample: { userId: 'demo-user' },
  resultExample: { rules: [RULE], paging: {} },
};
