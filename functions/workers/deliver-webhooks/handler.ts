import { systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { HandBack, queueWorker } from '../../../shared/queue/worker.ts';
import { hideMessage } from '../../../shared/queue/visibility.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { attemptDelivery } from '../../../shared/webhooks/deliver.ts';
import { declaration } from './declaration.ts';

/**
 * The webhook delivery worker. A message whose event needs another attempt is hidden until then and
 * handed back; one that throws is handed back after the queue's visibility timeout; a message that
 * keeps failing ends in the dead-letter queue, while its event stays pending in the store for the
 * sweep. Records run side by side: one slow receiver (10 s at most) does not hold up the others.
 */
export const handler = queueWorker(
  'WebhookDeliveries',
  { operation: declaration.operation, parallel: true, before: loadAppCredentials },
  async (ref, record) => {
    const { retryAfterSeconds } = await withAuditScope({ actor: systemActor(declaration.operation) }, () => attemptDelivery(ref));
    if (retryAfterSeconds === undefined) return;
    await hideMessage('WebhookDeliveries', record.receiptHandle, retryAfterSeconds);
    throw new HandBack();
  },
);
