import { professionalCampaignControl } from '../../shared/platforms/professional/campaign-control.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import { budgetOperation } from '../use-cases/control/campaign-control-operations.ts';
import { declaration } from './declaration.ts';
import { editCampaignRequest } from './schema.ts';

export const handler = budgetOperation(declaration, editCampaignRequest, professionalCampaignControl, professionalSession);
