import * as z from 'zod';
import { leadFormFields } from '../../shared/schemas/lead-form.ts';

/** The operation's own request schema (its fields are shared with the use case's types): the handler validates with it, api.ts documents it. */
export const createLeadFormRequest = z.strictObject(leadFormFields);
