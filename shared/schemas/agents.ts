import * as z from 'zod';
import { AGENT_WRITE_MODES, MAX_ALLOWED_ORIGINS } from './tenant-values.ts';

/**
 * What a tenant decides for AI agents that use the API over MCP (docs/agents.md): whether their
 * writes wait for a confirmation, go through, or are not offered (the modes: tenant-values.ts); and
 * which browser origins may call.
 */

/** A web origin as a browser sends it: scheme, host and port, nothing more (`https://app.example.com`). */
export const webOriginSchema = z
  .string()
  .max(256)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin as a browser sends it: https://host or https://host:port, lower case, no path or trailing slash');

export const agentSettingsFields = {
  writes: z
    .enum(AGENT_WRITE_MODES)
    .optional()
    .describe(
      '`confirm` (the default): a write tool changes nothing and answers a preview with a confirmation token, applied by `confirm_action`; `apply`: writes go through at once; `off`: write tools are not offered.',
    ),
  allowedOrigins: z
    .array(webOriginSchema)
    .max(MAX_ALLOWED_ORIGINS)
    .refine((origins) => new Set(origins).size === origins.length, 'must not repeat an origin')
    .optional()
    .describe('Browser origins allowed to call /mcp (a request with any other Origin header is 403); clients that send no Origin are not affected.'),
};

export const agentSettingsSchema = z.object({ writes: z.enum(AGENT_WRITE_MODES), allowedOrigins: z.array(z.string()) });
export type AgentSettings = z.infer<typeof agentSettingsSchema>;
