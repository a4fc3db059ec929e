import type { WorkerDeclaration } from '../../shared/function-declaration.ts';
import { declaration as deliverWebhooks } from './deliver-webhooks.declaration.ts';
import { declaration as endAbandonedAudienceJobs } from './end-abandoned-audience-jobs.declaration.ts';
import { declaration as refreshConnections } from './refresh-connections.declaration.ts';
import { declaration as relayWebhookEvents } from './relay-webhook-events.declaration.ts';
import { declaration as runAudienceJobs } from './run-audience-jobs.declaration.ts';
import { declaration as sweepAudienceJobs } from './sweep-audience-jobs.declaration.ts';
import { declaration as sweepWebhookEvents } from './sweep-webhook-events.declaration.ts';

/** The functions that answer a queue, a schedule or the table's stream: the CDK stack and the local stack wire them from here. */
export const workers: readonly WorkerDeclaration[] = [deliverWebhooks, relayWebhookEvents, sweepWebhookEvents, refreshConnections, runAudienceJobs, endAbandonedAudienceJobs, sweepAudienceJobs];
