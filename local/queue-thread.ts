import { Server } from 'node:net';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { startFauxqs } from 'fauxqs';

/**
 * fauxqs on a thread of its own (local/queues.ts starts it), on the stack's clock: a message's visibility
 * and delay run out when the stack's time says so. The thread's `Date.now` (its own: a thread has its own
 * globals) is the system's moved by the stack clock's offset, which the stack sends whenever its clock
 * moves (a test moving it forward, a restart on another day). So a message held by a run that a kill
 * ended comes back when the restarted stack's clock is past its visibility, with the queue's real
 * timeout, as in the cloud after that much time. Told `close`, it stops and says `closed`.
 */
const { dataDir, region, offsetMs } = workerData as { dataDir: string; region: string; offsetMs: number };
const systemNow = Date.now.bind(Date);
let offset = offsetMs;
Date.now = () => systemNow() + offset;

/**
 * fauxqs listens on every interface whatever it is told (its start hard-codes host 0.0.0.0), which would
 * let anyone on the network read and send our queues' messages: a listen on the wildcard address is
 * turned into one on loopback (this thread listens for nothing else).
 */
const listen = Server.prototype.listen;
Server.prototype.listen = function (this: Server, ...args: unknown[]) {
  const [first] = args;
  if (first && typeof first === 'object' && ['0.0.0.0', '::', undefined].includes((first as { host?: string }).host)) args[0] = { ...first, host: '127.0.0.1' };
  return (listen as (...a: unknown[]) => Server).apply(this, args);
} as typeof listen;

const server = await startFauxqs({ port: 0, logger: false, dataDir: join(dataDir, 'sqs'), defaultRegion: region });
parentPort?.postMessage({ port: server.port });
parentPort?.on('message', (message: { offsetMs: number } | 'close') => {
  if (message === 'close') void server.stop().then(() => parentPort?.postMessage('closed'));
  else offset = message.offsetMs;
});
