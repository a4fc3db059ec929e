import { campaignStatusResultSchema } from '../../shared/schemas/campaign-control.ts';
import { updateCampaignStatusRequest } from './schema.ts';
import { STATUS_REFUSALS, DECLARATION_REFUSAL, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: [...STATUS_REFUSALS, DECLARATION_REFUSAL],
  summary: 'Pause, resume or delete a campaign (search ads)',
  description:
    'Reads the campaign, then makes one write: `ACTIVE` resumes, `PAUSED` pauses, `DELETE` removes it for good. A campaign already as asked changes nothing (`changed: false`). Refusals that depend on the campaign answer `results.success: false` with CAMPAIGN_NOT_FOUND, CAMPAIGN_REMOVED or INVALID_TRANSITION. An account blocked by campaigns without the EU political-advertising declaration answers EU_POLITICAL_DECLARATION_REQUIRED with `campaignIds` (declare them with /searchads/declare_eu_political_advertising). Every applied change is added to the campaign’s optimization history and to the audit log. `validateOnly: true` changes nothing and says what would.',
  tag: 'Campaign control',
  request: updateCampaignStatusRequest,
  result: campaignStatusResultSchema,
  requestExample: { userId: 'demo-user', campaignId: '21234567890', status: 'PAUSED' },
  resultExample: { campaignId: '21234567890', status: 'PAUSED', previousStatus: 'ACTIVE', platformStatus: 'PAUSED', changed: true },
};
