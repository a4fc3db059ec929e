import * as z from 'zod';
import { editCampaignFields } from '../../shared/schemas/campaign-control.ts';

/** The operation's own request schema (its fields are shared with the use case's types): the handler validates with it, api.ts documents it. */
export const editCampaignRequest = z.strictObject(editCampaignFields);
