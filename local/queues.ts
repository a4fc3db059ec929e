import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { clock } from '../shared/core/clock.ts';
import { importModule } from '../shared/core/import-module.ts';
import { asFunctionRun, installedLocalClock, type LocalClock } from './clock.ts';
import { startEmulatorThread } from './emulator-thread.ts';
import type { WorkerDeclaration } from '../shared/core/function-declaration.ts';
import { queueDefinitions, schedules, type QueueId } from '../shared/core/queues.ts';

/**
 * The local stack's queues: fauxqs, an SQS emulator the AWS SDK talks to (visibility timeouts,
 * redelivery, dead letters after maxReceiveCount, state kept in the data folder), on a thread of its own
 * that keeps the stack's clock (local/queue-thread.ts), with the queues of
 * shared/queues.ts; a consumer per queue that does what Lambda's event source does (receive, invoke
 * the worker with an SQS event, delete what it did not report failed); and timers for the schedules.
 */
const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const REGION = 'us-east-1';
/** the emulator takes any credentials; these keep the shell's AWS account out of it */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface LocalQueues {
  endpoint: string;
  urls: Record<QueueId, string>;
  deadLetterUrls: Record<QueueId, string>;
  close(): Promise<void>;
}

/** The queues, kept in `dataDir`, on `localClock`'s time (the stack's, installed by local/stack.ts). */
export async function startLocalQueues(dataDir: string, localClock: LocalClock | undefined = installedLocalClock()): Promise<LocalQueues> {
  const fauxqs = await startEmulatorThread(new URL('./queue-thread.ts', import.meta.url), { dataDir, region: REGION, offsetMs: localClock?.offset() ?? 0 });
  const stopFollowing = localClock?.onMoved((offsetMs) => fauxqs.thread.postMessage({ offsetMs })) ?? (() => undefined);
  const endpoint = `http://127.0.0.1:${fauxqs.port}`;
  const client = new SQSClient({ endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
  const urls = {} as Record<QueueId, string>;
  const deadLetterUrls = {} as Record<QueueId, string>;
  // an existing queue (a restart on the same data folder) keeps its messages and takes the attributes again
  const ensureQueue = async (name: string, attributes: Record<string, string>) => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: name }));
    // the emulator names queues sqs.<region>.localhost, which need not resolve: the same path on its own address
    const url = `${endpoint}${new URL(QueueUrl as string).pathname}`;
    await client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: attributes }));
    return url;
  };
  for (const queue of queueDefinitions) {
    const dlqUrl = await ensureQueue(`${queue.id}-dlq`, { MessageRetentionPeriod: String(14 * 86_400) });
    deadLetterUrls[queue.id] = dlqUrl;
    const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
    urls[queue.id] = await ensureQueue(queue.id, {
      VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: String(queue.maxReceiveCount) }),
    });
  }
  const close = async () => {
    stopFollowing();
    await fauxqs.close();
  };
  return { endpoint, urls, deadLetterUrls, close };
}

const loadWorker = async <T>(entry: string) => (await importModule<{ handler: T }>(pathToFileURL(join(projectRoot, entry)).href)).handler;

function toSqsEvent(messages: Message[], queueArn: string): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.MessageId as string,
      receiptHandle: message.ReceiptHandle as string,
      body: message.Body ?? '',
      attributes: {
        ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
        SentTimestamp: message.Attributes?.SentTimestamp ?? '0',
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? '0',
      },
      messageAttributes: {},
      md5OfBody: message.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn,
      awsRegion: REGION,
    })),
  };
}

/**
 * What Lambda hands a worker as its context: the time left before its timeout (LOCAL_WORKER_TIMEOUT_SECONDS
 * shortens it, so a test sees a job hand over to its continuation), on the stack's clock.
 */
function invocationContext(worker: WorkerDeclaration, requestId: string): Context {
  const timeoutMs = Number(process.env.LOCAL_WORKER_TIMEOUT_SECONDS || worker.timeoutSeconds || 3) * 1000;
  const deadline = clock.now() + timeoutMs;
  return { awsRequestId: requestId, functionName: worker.operation, getRemainingTimeInMillis: () => Math.max(0, deadline - clock.now()) } as Context;
}

/**
 * The line a delivery its worker reported failed prints once the run has returned: the message stays
 * hidden until the queue's visibility passes on the stack's clock, then comes back (or goes to the
 * dead-letter queue after its last receive). A developer sees a job retrying; a test moves the clock
 * only after it, so a redelivery never overlaps the run it retries.
 */
export const failedDelivery = (queueName: string, message: Message): string =>
  `${queueName}: delivery ${message.Attributes?.ApproximateReceiveCount ?? '?'} of message ${message.MessageId} failed; it comes back after the queue's visibility`;

/** Messages running at once, per queue: Lambda's concurrency, locally. No group (tenant) has a cap of its own, as in the cloud. */
const TOTAL_IN_FLIGHT = 40;

/**
 * Lambda's SQS event source, locally: long-polls the queue (or its dead-letter queue) and runs the
 * worker once per message, each as its own invocation, many at once, as Lambda scales out: one
 * tenant's slow receiver or long job holds up only its own messages.
 */
export function startConsumers(queues: LocalQueues, workers: readonly WorkerDeclaration[]): () => Promise<void> {
  const client = new SQSClient({ endpoint: queues.endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
  let running = true;
  // a stop ends the receives waiting on their long poll at once
  const stopping = new AbortController();
  const loops = workers
    .filter((worker) => worker.consumes || worker.consumesDeadLettersOf)
    .map(async (worker) => {
      const queueUrl = worker.consumes ? queues.urls[worker.consumes] : queues.deadLetterUrls[worker.consumesDeadLettersOf as QueueId];
      const handler = await loadWorker<(event: SQSEvent, context: Context) => Promise<SQSBatchResponse>>(worker.entry);
      const queueName = worker.consumes ?? `${worker.consumesDeadLettersOf}-dlq`;
      let inFlight = 0;
      const run = async (message: Message): Promise<void> => {
        try {
          const result = await asFunctionRun(() => handler(toSqsEvent([message], queueUrl), invocationContext(worker, message.MessageId ?? 'local')));
          if (result.batchItemFailures.length === 0) await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
          else console.error(failedDelivery(queueName, message));
        } catch (error) {
          if (running) console.error(`local consumer of ${queueName}: ${(error as Error).message}`);
        }
        inFlight--;
      };
      const dispatch = (message: Message) => {
        inFlight++;
        void run(message);
      };
      while (running) {
        try {
          if (inFlight >= TOTAL_IN_FLIGHT) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            continue;
          }
          // Lambda's event source long-polls for 20 s; the emulator answers as soon as a message is sent, or
          // comes back visible on the stack's clock. (A 1-s poll on each of the ten queues cost an idle stack
          // about 4 % of a core.)
          const { Messages = [] } = await client.send(
            new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 20, MessageSystemAttributeNames: ['All'] }),
            { abortSignal: stopping.signal },
          );
          Messages.forEach(dispatch);
        } catch (error) {
          if (running) console.error(`local consumer of ${worker.consumes}: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    });
  return async () => {
    running = false;
    stopping.abort();
    // a run in flight is not waited for: like a Lambda stopped mid-run, its message comes back and its job resumes from its checkpoint
    await Promise.race([Promise.allSettled(loops), new Promise((resolve) => setTimeout(resolve, 1_500).unref())]);
  };
}

/** `npm start`'s own interval for a schedule, where docs/decisions.md names one (seconds) */
const LOCAL_INTERVALS: Partial<Record<keyof typeof schedules, string>> = {
  connectionLifecycle: 'LIFECYCLE_INTERVAL_SECONDS',
  ruleSchedule: 'RULES_INTERVAL_SECONDS',
  leadsSweep: 'LEADS_SWEEP_SECONDS',
};

/**
 * The schedules as timers; a schedule that says so also runs once at start (a sweep finds what a stop left
 * behind). A stop waits a moment for the runs in flight, as the consumers' does: a sweep begun at start is
 * not cut off by the emulators closing under it.
 */
export function startSchedules(workers: readonly WorkerDeclaration[]): () => Promise<void> {
  const inFlight = new Set<Promise<unknown>>();
  const timers = workers
    .filter((worker) => worker.schedule)
    .map((worker) => {
      const schedule = schedules[worker.schedule as keyof typeof schedules];
      const run = () => {
        const running = loadWorker<() => Promise<unknown>>(worker.entry)
          .then((handler) => asFunctionRun(handler))
          .catch((error: Error) => console.error(`${worker.operation}: ${error.message}`))
          .finally(() => inFlight.delete(running));
        inFlight.add(running);
      };
      if (schedule.runAtStart) run();
      const localSeconds = Number(process.env[LOCAL_INTERVALS[worker.schedule as keyof typeof schedules] ?? ''] ?? '');
      return setInterval(run, localSeconds > 0 ? localSeconds * 1000 : schedule.everyMinutes * 60_000);
    });
  return async () => {
    timers.forEach(clearInterval);
    await Promise.race([Promise.allSettled(inFlight), new Promise((resolve) => setTimeout(resolve, 1_500).unref())]);
  };
}
