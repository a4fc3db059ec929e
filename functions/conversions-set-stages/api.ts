import { day } from '../../shared/schemas/example-dates.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { setStagesRequest, stagesResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Map the CRM funnel to the platforms',
  description:
    'Replaces the user’s CRM funnel: 1–10 stages in order, earliest first, each mapped to a destination on any platform (a social dataset and the event name it receives, a search-ads conversion action, a professional conversion rule). Every destination must be one `/conversions/list_destinations` names for the user now, else 400 DESTINATION_NOT_FOUND naming it, and nothing is stored. Audited as `conversions.stages_set` with the number of stages.',
  tag: 'Conversions',
  request: setStagesRequest,
  result: stagesResultSchema,
  refusals: ['SCOPE_MISSING'],
  requestExample: {
    userId: 'demo-user',
    crmName: 'HubSpot',
    stages: [
      { stage: 'Lead', social: { datasetId: '771122334455667', eventName: 'Lead' }, professional: { conversionRuleId: '700000101' } },
      { stage: 'Qualified', social: { datasetId: '771122334455667', eventName: 'QualifiedLead' }, searchads: { conversionActionId: '6543210987' } },
    ],
  },
  resultExample: {
    crmName: 'HubSpot',
    stages: [
      { stage: 'Lead', social: { datasetId: '771122334455667', eventName: 'Lead' }, professional: { conversionRuleId: '700000101' } },
      { stage: 'Qualified', social: { datasetId: '771122334455667', eventName: 'QualifiedLead' }, searchads: { conversionActionId: '6543210987' } },
    ],
    updatedAt: `${day(-1)}T12:00:00.000Z`,
  },
};
