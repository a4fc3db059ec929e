import * as z from 'zod';
import { listProposalsFields, proposalSchema } from '../../shared/schemas/proposals.ts';
import { pagingSchema } from '../../shared/schemas/social.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const listProposalsRequest = z.strictObject(listProposalsFields);

export const listProposalsResultSchema = z.object({ proposals: z.array(proposalSchema).describe('Newest first.'), paging: pagingSchema });
