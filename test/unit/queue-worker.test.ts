import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { queueMessages } from '../../shared/queue/messages.ts';
import { HandBack, queueWorker } from '../../shared/queue/worker.ts';

/** The worker kit on plain events (no queue): parsing by the queue's schema, partial batch failures, order. */
const context = { getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const record = (messageId: string, body: string): SQSRecord =>
  ({ messageId, receiptHandle: `rh-${messageId}`, body, attributes: {}, messageAttributes: {}, eventSource: 'aws:sqs' }) as unknown as SQSRecord;
const eventOf = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const job = (jobId: string) => JSON.stringify({ tenantId: 'tn_1', jobId });

describe('queueWorker', () => {
  it('hands each parsed message to the handler and reports only the failed ones', async () => {
    const seen: string[] = [];
    const handler = queueWorker('Jobs', { operation: 'test' }, async (message) => {
      seen.push(message.jobId);
      if (message.jobId === 'boom') throw new Error('it broke');
      if (message.jobId === 'later') throw new HandBack();
    });
    const answer = await handler(eventOf(record('1', job('a')), record('2', job('boom')), record('3', job('later')), record('4', job('b'))), context);
    expect(seen).toEqual(['a', 'boom', 'later', 'b']); // one after another, in order
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }, { itemIdentifier: '3' }] });
  });

  it('drops a message its queue’s schema does not describe, without calling the handler or failing the batch', async () => {
    const seen: unknown[] = [];
    const handler = queueWorker('RuleRuns', { operation: 'test' }, async (message) => {
      seen.push(message);
    });
    const good = { tenantId: 't', userId: 'u', platform: 'social', rules: [{ ruleId: 'r', scheduledAt: 'now' }] };
    const answer = await handler(
      eventOf(
        record('1', 'not json'),
        record('2', JSON.stringify({ ...good, platform: 'other' })),
        record('3', JSON.stringify({ ...good, rules: [] })),
        record('4', JSON.stringify(good)),
      ),
      context,
    );
    expect(seen).toEqual([good]);
    expect(answer.batchItemFailures).toEqual([]);
  });

  it('a whole batch failing is a partial answer naming every record, not a thrown error', async () => {
    const handler = queueWorker('Jobs', { operation: 'test' }, async () => {
      throw new Error('down');
    });
    expect(await handler(eventOf(record('1', job('a')), record('2', job('b'))), context)).toEqual({
      batchItemFailures: [{ itemIdentifier: '1' }, { itemIdentifier: '2' }],
    });
  });

  it('runs records side by side when asked, and its setup once before them', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = queueWorker(
      'WebhookDeliveries',
      {
        operation: 'test',
        parallel: true,
        before: async () => {
          order.push('before');
        },
      },
      async (message) => {
        order.push(`start ${message.sk}`);
        if (message.sk === 'slow') await gate;
        else release();
        order.push(`end ${message.sk}`);
      },
    );
    const body = (sk: string) => JSON.stringify({ tenantId: 't', sk });
    await handler(eventOf(record('1', body('slow')), record('2', body('fast'))), context);
    expect(order).toEqual(['before', 'start slow', 'start fast', 'end fast', 'end slow']);
  });

  it('one schema per queue, the one senders are held to', () => {
    expect(Object.keys(queueMessages).sort()).toEqual(['ConversionDeliveries', 'Jobs', 'PlatformEvents', 'RuleRuns', 'WebhookDeliveries']);
    expect(queueMessages.WebhookDeliveries.safeParse({ tenantId: 't' }).success).toBe(false);
  });
});
