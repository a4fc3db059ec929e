import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/**
 * Warm overhead: a validated operation invoked in-process through the full middleware stack
 * (tracing, envelope, API-key auth from the warm cache, JSON parsing, zod validation) against a bare
 * handler doing the same work by hand (parse, validate, answer). Needs the local stack's DynamoDB for
 * the first key lookup; the process that runs it has the local stack's environment.
 */
const WARM_UP = 2_000;
const RUNS = 20_000;

const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;

export async function warmOverhead(apiKey: string): Promise<{ fullMedianUs: number; fullP99Us: number; bareMedianUs: number; bareP99Us: number }> {
  const { defineOperation } = await import('../shared/http/operation.ts');
  const { getAdAccountMediaRequest } = await import('../functions/get-ad-account-media/schema.ts');
  const full = defineOperation({
    declaration: { operation: 'bench_operation' },
    request: getAdAccountMediaRequest,
    user: false,
    run: async ({ input }) => ({ media: [], type: input.type }),
  });
  const bare = async (event: APIGatewayProxyEventV2) => {
    let body: unknown;
    try {
      body = JSON.parse(event.body ?? '');
    } catch {
      return { statusCode: 400, headers: { 'content-type': 'application/json' }, body: '{"success":false}' };
    }
    const parsed = getAdAccountMediaRequest.safeParse(body);
    if (!parsed.success) return { statusCode: 400, headers: { 'content-type': 'application/json' }, body: '{"success":false}' };
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ success: true, results: { success: true, media: [], type: parsed.data.type } }),
    };
  };
  const event = (): APIGatewayProxyEventV2 =>
    ({
      version: '2.0',
      routeKey: 'POST /bench',
      rawPath: '/bench',
      rawQueryString: '',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      requestContext: { requestId: randomUUID(), http: { method: 'POST', path: '/bench' } },
      body: JSON.stringify({ userId: 'demo-user', type: 'IMAGE', pagination: '' }),
      isBase64Encoded: false,
    }) as unknown as APIGatewayProxyEventV2;
  const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

  const time = async (invoke: () => Promise<unknown>) => {
    for (let run = 0; run < WARM_UP; run++) await invoke();
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = process.hrtime.bigint();
      await invoke();
      samples.push(Number(process.hrtime.bigint() - started) / 1000);
    }
    return samples.sort((a, b) => a - b);
  };
  const first = (await full(event(), context)) as { statusCode: number };
  if (first.statusCode !== 200) throw new Error(`bench operation answered ${first.statusCode}`);
  const fullSamples = await time(() => full(event(), context));
  const bareSamples = await time(() => bare(event()));
  return {
    fullMedianUs: percentile(fullSamples, 0.5),
    fullP99Us: percentile(fullSamples, 0.99),
    bareMedianUs: percentile(bareSamples, 0.5),
    bareP99Us: percentile(bareSamples, 0.99),
  };
}
