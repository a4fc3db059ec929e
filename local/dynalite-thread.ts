import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';

/**
 * dynalite on a thread of its own (local/dynamo.ts starts it): its LevelDB reads and writes, a good share
 * of a busy stack's work, run beside the functions instead of on their event loop. Told `close`, it
 * closes its database and says `closed`; the thread ends with the process however that ends.
 */
const { directory } = workerData as { directory: string };
const server = dynalite({ path: directory, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once('error', (error: Error) => parentPort?.postMessage({ error: error.message }));
server.listen(0, '127.0.0.1', () => parentPort?.postMessage({ port: (server.address() as AddressInfo).port }));
parentPort?.on('message', (message: string) => {
  if (message === 'close') server.close(() => parentPort?.postMessage('closed'));
});
