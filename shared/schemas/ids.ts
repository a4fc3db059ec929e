import * as z from 'zod/mini';

/**
 * Ids a read's request takes, on zod's mini API (docs/deploying.md): the reads that validate them bundle
 * none of the schemas of what they name (a rule, a campaign's history).
 */
export const ruleIdSchema = z
  .string()
  .check(z.regex(/^rul_[0-9a-f]{24}$/, 'must be a rule id as create_rule answered it'), z.describe('The rule’s id, as create_rule answered it.'));

/** A campaign's id as the optimization history keys it: any platform's, as the caller gives it. */
export const campaignIdSchema = z.string().check(z.minLength(1), z.maxLength(256));
