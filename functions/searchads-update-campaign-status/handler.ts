import { searchadsCampaignControl } from '../../shared/platforms/searchads/campaign-control.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { statusOperation } from '../use-cases/control/campaign-control-operations.ts';
import { declaration } from './declaration.ts';
import { updateCampaignStatusRequest } from './schema.ts';

export const handler = statusOperation(declaration, updateCampaignStatusRequest, searchadsCampaignControl, searchadsSession);
