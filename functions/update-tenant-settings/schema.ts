import * as z from 'zod';
import { updateSettingsFields } from '../../shared/schemas/tenant.ts';

/** The operation's own request schema (its fields are shared with the use case's types): the handler validates with it, api.ts documents it. */
export const updateSettingsRequest = z.strictObject(updateSettingsFields);
