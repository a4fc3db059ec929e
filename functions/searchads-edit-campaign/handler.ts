import { searchadsCampaignControl } from '../../shared/platforms/searchads/campaign-control.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { budgetOperation } from '../use-cases/control/campaign-control-operations.ts';
import { declaration } from './declaration.ts';
import { editCampaignRequest } from './schema.ts';

export const handler = budgetOperation(declaration, editCampaignRequest, searchadsCampaignControl, searchadsSession);
