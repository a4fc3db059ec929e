import { systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { HandBack, queueWorker } from '../../../shared/queue/worker.ts';
import { hideMessage } from '../../../shared/queue/visibility.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { deliverConversion } from '../../use-cases/conversions/deliver-conversion.ts';
import { declaration } from './declaration.ts';

/**
 * The conversions to the platforms, one item a message (docs/conversions.md, "Delivery"). A delivery
 * that must wait (a throttled platform, an earlier stage of its lead still on its way) hides its
 * message until then and hands it back; its item stays due, so a message that dead-letters is queued
 * again by the flows' sweep. Records run side by side.
 */
export const handler = queueWorker(
  'ConversionDeliveries',
  { operation: declaration.operation, parallel: true, before: loadAppCredentials },
  async (ref, record, context) => {
    const { retryAfterSeconds } = await withAuditScope({ actor: systemActor(declaration.operation) }, () => deliverConversion(ref, context));
    if (retryAfterSeconds === undefined) return;
    await hideMessage('ConversionDeliveries', record.receiptHandle, retryAfterSeconds);
    throw new HandBack();
  },
);
