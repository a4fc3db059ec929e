import { socialCampaignControl } from '../../shared/platforms/social/campaign-control.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { statusOperation } from '../use-cases/control/campaign-control-operations.ts';
import { declaration } from './declaration.ts';
import { updateCampaignStatusRequest } from './schema.ts';

export const handler = statusOperation(declaration, updateCampaignStatusRequest, socialCampaignControl, socialSession);
