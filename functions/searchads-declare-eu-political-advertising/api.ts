import { declareEuPoliticalAdvertisingRequest, declareEuPoliticalAdvertisingResult } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Declare EU political advertising (search ads)',
  description:
    'Since the platform’s EU political-advertising rules took effect, one campaign without an EU political-advertising declaration makes the platform refuse every campaign change in its Google Ads account; each such refusal answers `EU_POLITICAL_DECLARATION_REQUIRED` with `campaignIds`, the undeclared campaigns. This declares them (all undeclared ones when `campaignIds` is absent) with updates that set only that field, which the platform accepts while the account is blocked, and answers the campaigns declared. The statement is the advertiser’s: send `containsEuPoliticalAdvertising: true` for campaigns that do contain it. Audited as `campaign.eu_political_declared`.',
  tag: 'Campaign control',
  request: declareEuPoliticalAdvertisingRequest,
  result: declareEuPoliticalAdvertisingResult,
  requestExample: { userId: 'demo-user', containsEuPoliticalAdvertising: false },
  resultExample: { declared: ['21234567890', '21234567891'] },
};
