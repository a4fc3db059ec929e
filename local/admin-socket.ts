import { existsSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { AdminRefusal, type AdminRequest, executeAdminCommand } from '../infra/admin-commands.ts';

/**
 * The running local stack takes `npm run admin` commands on a Unix socket in its data folder (only this
 * machine's user can reach it): the CLI cannot open the folder's LevelDB while the stack holds it, so
 * the stack runs the command on its own store and streams the printed lines back, one JSON object a
 * line: `{"line": …}` for each, then `{"exit": 0|2, "error"?: …}`.
 */
export const ADMIN_SOCKET = 'admin.sock';

export async function serveAdminSocket(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, ADMIN_SOCKET);
  if (existsSync(path)) rmSync(path, { force: true }); // a killed stack's
  const server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      const send = (message: object) => socket.write(`${JSON.stringify(message)}\n`);
      let request: AdminRequest;
      try {
        request = JSON.parse(buffered.slice(0, end)) as AdminRequest;
      } catch {
        socket.end(`${JSON.stringify({ exit: 2, error: 'not a command' })}\n`);
        return;
      }
      executeAdminCommand(request, (line) => send({ line }))
        .then(() => socket.end(`${JSON.stringify({ exit: 0 })}\n`))
        .catch((error: Error) => socket.end(`${JSON.stringify({ exit: error instanceof AdminRefusal ? 2 : 1, error: error.message })}\n`));
    });
    socket.on('error', () => undefined);
  });
  try {
    await new Promise<void>((ready, failed) => server.once('error', failed).listen(path, ready));
  } catch (error) {
    // a Unix socket's path has at most 107 bytes: a data folder deep enough runs without it
    console.warn(`npm run admin cannot reach this stack (${(error as Error).message}); stop it to run admin commands.`);
    return async () => undefined;
  }
  return () =>
    new Promise<void>((closed) => {
      server.close(() => closed());
      rmSync(path, { force: true });
    });
}

/** Hands the command to the stack holding `dataDir`; undefined when none answers on its socket. */
export function askRunningStack(dataDir: string, request: AdminRequest, print: (line: string) => void): Promise<{ exit: number; error?: string } | undefined> {
  return new Promise((answered) => {
    const socket = createConnection(join(dataDir, ADMIN_SOCKET));
    let buffered = '';
    let outcome: { exit: number; error?: string } | undefined;
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf('\n');
      while (end >= 0) {
        const message = JSON.parse(buffered.slice(0, end)) as { line?: string; exit?: number; error?: string };
        buffered = buffered.slice(end + 1);
        if (message.line !== undefined) print(message.line);
        if (message.exit !== undefined) outcome = { exit: message.exit, ...(message.error ? { error: message.error } : {}) };
        end = buffered.indexOf('\n');
      }
    });
    socket.on('error', () => answered(undefined));
    socket.on('close', () => answered(outcome));
  });
}
