import { day } from '../../shared/schemas/example-dates.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { getStagesRequest, stagesResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Read the CRM funnel',
  description: 'The user’s stages as `/conversions/set_stages` last set them, in order; `stages` is empty (and `crmName` absent) until they are set.',
  tag: 'Conversions',
  request: getStagesRequest,
  result: stagesResultSchema,
  requestExample: { userId: 'demo-user' },
  resultExample: {
    crmName: 'HubSpot',
    stages: [{ stage: 'Lead', social: { datasetId: '771122334455667', eventName: 'Lead' } }],
    updatedAt: `${day(-1)}T12:00:00.000Z`,
  },
};
