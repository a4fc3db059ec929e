import { Webhook } from 'standardwebhooks';
import type { DeliveryStatus } from '../store/webhook-events.ts';

/**
 * The pure parts of one delivery attempt (Standard Webhooks 1.0): the signed headers, and what the
 * receiver's answer makes of the event.
 */

/** The three headers of an attempt: the event's id, this attempt's time, and the signature of `id.timestamp.body`. */
export function signedHeaders(
  secret: string,
  eventId: string,
  at: Date,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}

export interface AttemptVerdict {
  status: DeliveryStatus;
  /** when to try again (seconds), while attempts remain */
  retryAfterSeconds?: number;
  /** the receiver answered 410 Gone: the tenant's webhook is to be disabled */
  gone: boolean;
}

/**
 * A 2xx is delivered; 410 fails the event and disables the webhook; anything else, or no answer
 * (`null`), is tried again after the next delay of the schedule, and fails once the schedule is spent.
 * `attempt` counts from 1.
 */
export function attemptVerdict(answeredStatus: number | null, attempt: number, retryDelays: readonly number[]): AttemptVerdict {
  if (answeredStatus !== null && answeredStatus >= 200 && answeredStatus < 300) return { status: 'delivered', gone: false };
  if (answeredStatus === 410) return { status: 'failed', gone: true };
  const retryAfterSeconds = retryDelays[attempt - 1];
  return retryAfterSeconds === undefined ? { status: 'failed', gone: false } : { status: 'pending', retryAfterSeconds, gone: false };
}
