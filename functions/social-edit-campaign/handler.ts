import { socialCampaignControl } from '../../shared/platforms/social/campaign-control.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { budgetOperation } from '../use-cases/control/campaign-control-operations.ts';
import { declaration } from './declaration.ts';
import { editCampaignRequest } from './schema.ts';

export const handler = budgetOperation(declaration, editCampaignRequest, socialCampaignControl, socialSession);
