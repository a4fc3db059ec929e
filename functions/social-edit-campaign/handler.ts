import { socialCampaignControl } from '../../shared/platforms/social/campaign-control.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { budgetOperation } from '../use-cases/control/campaign-control-operations.ts';
import { declaration } from './declaration.ts';

export const handler = budgetOperation(declaration, socialCampaignControl, socialSession);
