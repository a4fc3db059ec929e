import { queueWorker } from '../../../shared/queue/worker.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { processInbound } from '../../use-cases/leads/process-inbound.ts';
import { sweepSubscription } from '../../use-cases/leads/sweep-leads.ts';
import { declaration } from './declaration.ts';

/**
 * The platforms' stored webhook bodies, one a message (docs/leads.md): each lead read once per
 * subscribed tenant and delivered. A body that fails (throttling, an outage) goes back to the queue; the
 * tenants it delivered to already are skipped the next time. A message of the leads sweep names one
 * subscription, whose missed leads are read and delivered.
 */
export const handler = queueWorker('PlatformEvents', { operation: declaration.operation, before: loadAppCredentials }, async (message, _record, context) => {
  if ('sweep' in message) await sweepSubscription(message.sweep, context);
  else await processInbound(message, context);
});
