import type { LeadWebhooks } from '../platforms/lead-webhooks.ts';
import { professionalLeadWebhooks } from '../platforms/professional/lead-webhooks.ts';
import { socialLeadWebhooks } from '../platforms/social/lead-webhooks.ts';
import type { InboundPlatform } from '../store/platform-webhooks.ts';

/** Every platform that sends us its leads: how it signs, and what its bodies say. A platform's line here points into its own folder. */
export const LEAD_WEBHOOKS: Record<InboundPlatform, LeadWebhooks> = { social: socialLeadWebhooks, professional: professionalLeadWebhooks };
