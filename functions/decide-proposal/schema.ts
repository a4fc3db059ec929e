import * as z from 'zod';
import { decideProposalFields, proposalSchema } from '../../shared/schemas/proposals.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const decideProposalRequest = z.strictObject(decideProposalFields);

export const decideProposalResultSchema = z.object({ proposal: proposalSchema });
