import { flushCompileCache } from 'node:module';
import { clock } from '../shared/core/clock.ts';
import { DataDirTaken } from './data-dir.ts';
import { startLocalStack } from './stack.ts';

/** `npm start`: the service with its embedded local stack, until Ctrl-C. */
/** However much is in flight (a job mid-batch, a hanging receiver, the stack still starting), the process is gone within this. */
const STOP_DEADLINE_MS = 4_000;
let stopping = false;
let started: Awaited<ReturnType<typeof startLocalStack>> | undefined;
async function shutdown(signal: string): Promise<void> {
  if (stopping) process.exit(1); // a second Ctrl-C: at once
  stopping = true;
  console.log(`\n${signal} received; stopping.`);
  setTimeout(() => {
    console.log('stopped with work in flight; it resumes from its checkpoint at the next start.');
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
  await started?.stop();
  process.exit(0);
}
// before anything starts: a signal while the stack starts stops it too
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

let stack: Awaited<ReturnType<typeof startLocalStack>>;
try {
  stack = await startLocalStack();
} catch (error) {
  const { code, port } = error as { code?: string; port?: number };
  // a taken port or data folder is the user's to fix: say how, without a stack trace
  if (code === 'EADDRINUSE') console.error(`Port ${port ?? ''} is in use (another \`npm start\`?). Stop it, or start on another port: PORT=3100 npm start`);
  else if (error instanceof DataDirTaken) console.error(`${error.message} (npm run admin works while it runs.)`);
  else throw error;
  process.exit(1);
}
started = stack;
// with NODE_COMPILE_CACHE set (the tests' child stacks), what the start compiled is written now: a process
// killed later (kill -9) would never write it, and the next start would compile everything again
flushCompileCache();
const sandboxes = Object.entries(stack.sandboxes).map(([name, sandbox]) => `  ${name.padEnd(13)} ${sandbox?.url}`);
console.log(`
Ad campaign API (local) listening on ${stack.url}
  data folder   ${stack.dataDir}
  API key       ${stack.apiKey}
  demo user     demo-user
${process.env.LOCAL_CLOCK_OFFSET_DAYS ? `  clock         ${clock.date().toISOString()} (LOCAL_CLOCK_OFFSET_DAYS=${process.env.LOCAL_CLOCK_OFFSET_DAYS})\n` : ''}  webhooks      receiver ${stack.webhookReceiverUrl}/webhooks (what it received: ${stack.webhookReceiverUrl}/received)
  reference     ${stack.url}/docs  (OpenAPI document: ${stack.url}/openapi.json)
sandboxes:
${sandboxes.join('\n') || '  (none: every platform URL is configured)'}

Try:
  curl -s ${stack.url}/users/get_profile -H 'x-api-key: ${stack.apiKey}' -H 'content-type: application/json' -d '{"userId":"demo-user"}'

Ctrl-C stops everything.
`);
