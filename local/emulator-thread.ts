import { Worker } from 'node:worker_threads';
import { threadModule } from '../shared/core/import-module.ts';

/**
 * An emulator (dynalite, fauxqs) on a thread of its own, off the functions' event loop. The thread's
 * module posts `{port}` once it listens (or `{error}`), and answers `close` with `closed` once it has
 * closed its server and its files. The thread ends with the process however that ends.
 */
export async function startEmulatorThread(module: URL, workerData: unknown): Promise<{ port: number; thread: Worker; close(): Promise<void> }> {
  const thread = new Worker(threadModule(module), { workerData });
  // the process may end without closing it (a signal's exit): the thread does not hold it open
  thread.unref();
  const port = await new Promise<number>((resolve, reject) => {
    thread.once('error', reject);
    thread.once('message', (message: { port?: number; error?: string }) =>
      message.port ? resolve(message.port) : reject(new Error(`${module.pathname} did not start: ${message.error}`)),
    );
  });
  const close = async () => {
    // its answer keeps the process alive: a stop awaited with nothing else left to run would end the process mid-await
    thread.ref();
    const closed = new Promise((resolve) => thread.once('message', resolve));
    thread.postMessage('close');
    await closed;
    await thread.terminate();
  };
  return { port, thread, close };
}
