import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

/**
 * A child process of the bundle test (test/integration/bundles.test.ts): plain Node, as Lambda runs a
 * function, with no test runner's module loader. It reads from stdin the handlers to run (a bundle, or a
 * source module Node strips the types of) and the event each is given, runs them one by one and writes
 * their answers to stdout as one line of JSON.
 */
interface Case {
  id: string;
  module: string;
  event: unknown;
}
type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string }>;

const context = () => {
  const deadline = Date.now() + 29_000;
  return { awsRequestId: randomUUID(), functionName: 'bundle-test', getRemainingTimeInMillis: () => deadline - Date.now() };
};

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const cases = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Case[];
const answers: Record<string, { statusCode: number; contentType: string; body: string }> = {};
for (const { id, module, event } of cases) {
  const { handler } = (await import(pathToFileURL(module).href)) as { handler: Handler };
  const answer = await handler(event, context());
  answers[id] = { statusCode: answer.statusCode, contentType: answer.headers?.['content-type'] ?? '', body: answer.body };
}
process.stdout.write(`\nANSWERS ${JSON.stringify(answers)}\n`);
