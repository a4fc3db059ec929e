import * as z from 'zod';
import { agentSettingsFields, agentSettingsSchema } from './agents.ts';
import type { Output } from './common.ts';
import { WEBHOOK_EVENT_TYPES } from './tenant-values.ts';

/** docs/decisions.md "Tenant settings" and "Webhooks": what a tenant sets, and what its webhooks carry. */

export const MAX_REDIRECT_URIS = 20;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a connect link's return address, if anything. It is compared as an exact string
 * and sent in a Location header, so it must be printable ASCII as given: a host in another script is
 * written in its punycode (xn--) form, other characters percent-encoded; CR, LF and every other control
 * character are refused, as are credentials, a fragment (RFC 6749 §3.1.2) and any scheme but https:
 * (http: only for localhost or 127.0.0.1).
 */
export function redirectUriProblems(value: string): string[] {
  if (value.length > 2048) return ['must be at most 2048 characters'];
  if (!/^[\x21-\x7e]+$/.test(value))
    return [
      'must be printable ASCII: no spaces, control characters (CR, LF) or other characters; write an international host in its punycode (xn--) form and percent-encode the rest',
    ];
  const url = parsedUrl(value);
  // `https:app.example.com/x` parses (the WHATWG parser supplies the slashes): as stored it is not the URL the browser is sent to
  if (!url || !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]/i.test(value)) return ['must be an absolute URL with an authority: https://host/path'];
  const problems: string[] = [];
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)))
    problems.push('must use https: (http: only for localhost or 127.0.0.1)');
  if (!url.hostname) problems.push('must name a host');
  if (url.hash || value.includes('#')) problems.push('must not have a fragment (RFC 6749 §3.1.2)');
  if (
    url.username ||
    url.password ||
    value
      .slice(url.protocol.length + 2)
      .split(/[/?]/, 1)[0]
      ?.includes('@')
  )
    problems.push('must not carry credentials');
  return problems;
}

/** A connect link's return address: compared as an exact string, so it is kept exactly as given. */
export const redirectUriSchema = z
  .string()
  .max(2048)
  .superRefine((value, context) => {
    for (const message of redirectUriProblems(value)) context.addIssue({ code: 'custom', message });
  });

/** The webhook URL's form; whether its host resolves to an address we may call is checked when it is set and at every delivery. */
export const webhookUrlSchema = z
  .string()
  .max(2048)
  .superRefine((value, context) => {
    const url = parsedUrl(value);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !/^https?:\/\/[^/?#]/i.test(value))
      return context.addIssue({ code: 'custom', message: 'must be an absolute https: URL with an authority: https://host/path' });
    if (url.username || url.password) context.addIssue({ code: 'custom', message: 'must not carry credentials' });
    if (url.hash) context.addIssue({ code: 'custom', message: 'must not have a fragment' });
  });

export const webhookSettingsSchema = z.strictObject({
  url: webhookUrlSchema.describe('Where events are POSTed: https:, public addresses only.'),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1)
    .refine((events) => new Set(events).size === events.length, 'must not repeat an event type')
    .optional()
    .describe('The event types to send; every type when absent. webhook.test is always sent.'),
});

export const updateSettingsFields = {
  redirectUris: z
    .array(redirectUriSchema)
    .max(MAX_REDIRECT_URIS)
    .refine((uris) => new Set(uris).size === uris.length, 'must not repeat a URI')
    .optional()
    .describe('The exact return URLs connect links may send a person back to (at most 20).'),
  webhook: webhookSettingsSchema.nullable().optional().describe('The webhook endpoint, or null to remove it.'),
  rotateWebhookSecret: z.boolean().optional().describe('Issue a new webhook secret (shown once in results.webhookSecret).'),
  agents: z.strictObject(agentSettingsFields).optional().describe('What AI agents may do over /mcp (docs/agents.md); a field left out keeps its value.'),
};
export type UpdateSettingsInput = Output<typeof updateSettingsFields>;

export const settingsSchema = z.object({
  redirectUris: z.array(z.string()),
  webhook: z.object({ url: z.string(), events: z.array(z.enum(WEBHOOK_EVENT_TYPES)), disabled: z.boolean().optional() }).nullable(),
  agents: agentSettingsSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsResultSchema = z.object({
  settings: settingsSchema,
  webhookSecret: z.string().optional().describe('`whsec_` + base64 of 32 random bytes; shown once, when first set or rotated.'),
});

export const webhookEventViewSchema = z.object({
  id: z.string().describe('The webhook-id sent with every attempt.'),
  type: z.string(),
  createdAt: z.string(),
  status: z
    .enum(['pending', 'delivered', 'failed', 'erased'])
    .describe('`erased`: the lead it carried was erased (erase_lead) before it was delivered; no later attempt sends it.'),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable().describe('The receiver’s last HTTP status; null if it never answered.'),
  lastAttemptAt: z.string().nullable(),
});
export type WebhookEventView = z.infer<typeof webhookEventViewSchema>;
