import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { listLeadsRequest, listLeadsResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List leads',
  description:
    'The leads stored for the user (kept LEADS_RETENTION_DAYS, sealed at rest), newest submission first, filtered by platform, form, campaign and time.',
  tag: 'Leads',
  request: listLeadsRequest,
  result: listLeadsResultSchema,
  requestExample: { userId: 'demo-user', platform: 'social' },
  resultExample: { leads: [], paging: {} },
};
