import { professionalCampaignControl } from '../../shared/platforms/professional/campaign-control.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import { statusOperation } from '../use-cases/control/campaign-control-operations.ts';
import { declaration } from './declaration.ts';
import { updateCampaignStatusRequest } from './schema.ts';

export const handler = statusOperation(declaration, updateCampaignStatusRequest, professionalCampaignControl, professionalSession);
