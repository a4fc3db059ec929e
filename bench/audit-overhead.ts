import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/**
 * The audit log's cost per write operation: the same operation through defineOperation, in-process
 * against the local stack's DynamoDB, with its audit event and without, measured pair by pair (a
 * block of A, then a block of B, again and again) so the machine's drift falls on both sides. Two
 * write paths: a store write (create_user: the event joins the write in one transaction) and a
 * platform write (one HTTP call, then the event's own put).
 */
const BLOCK = 40;
const PAIRS = 9;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export interface OverheadFigures {
  withMedianUs: number;
  withoutMedianUs: number;
  /** median of the pairs' (with / without), and the lowest and highest pair */
  ratio: number;
  spread: string;
}

export async function auditOverhead(apiKey: string, platformUrl: string): Promise<{ storeWrite: OverheadFigures; platformWrite: OverheadFigures }> {
  const { defineOperation } = await import('../shared/http/operation.ts');
  const { recordAuditEvent } = await import('../shared/store/audit-event-writes.ts');
  const { createUser } = await import('../shared/store/user-writes.ts');
  const { z } = await import('zod');
  const request = z.object({ name: z.string() });
  const audit = {
    action: 'user.created' as const,
    target: (_input: unknown, result: { userId?: string } | undefined) => ({ type: 'user' as const, id: result?.userId ?? '' }),
  };

  const storeWrite = (audited: boolean) =>
    defineOperation({
      declaration: { operation: `bench_store_${audited}`, ...(audited ? { audit } : {}) },
      ...(audited ? { recorder: recordAuditEvent } : {}),
      request,
      user: false,
      run: async ({ tenantId, audit: unit }) => {
        const userId = `bench-${randomUUID()}`;
        await createUser(tenantId, userId, {}, audited ? unit.event({ userId }) : undefined);
        return { userId };
      },
    });
  const platformWrite = (audited: boolean) =>
    defineOperation({
      declaration: { operation: `bench_platform_${audited}`, ...(audited ? { audit } : {}) },
      ...(audited ? { recorder: recordAuditEvent } : {}),
      request,
      user: false,
      run: async () => {
        await (await fetch(platformUrl)).text();
        return { userId: 'upstream-object' };
      },
    });

  const event = (): APIGatewayProxyEventV2 =>
    ({
      version: '2.0',
      rawPath: '/bench',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      requestContext: { requestId: randomUUID(), http: { method: 'POST', path: '/bench' } },
      body: '{"name":"bench"}',
      isBase64Encoded: false,
    }) as unknown as APIGatewayProxyEventV2;
  const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

  async function block(handler: ReturnType<typeof storeWrite>): Promise<number> {
    const samples: number[] = [];
    for (let run = 0; run < BLOCK; run++) {
      const started = process.hrtime.bigint();
      const answer = (await handler(event(), context)) as { statusCode: number };
      samples.push(Number(process.hrtime.bigint() - started) / 1000);
      if (answer.statusCode !== 200) throw new Error(`bench operation answered ${answer.statusCode}`);
    }
    return median(samples);
  }

  async function compare(make: typeof storeWrite): Promise<OverheadFigures> {
    const audited = make(true);
    const bare = make(false);
    await block(audited);
    await block(bare);
    const withs: number[] = [];
    const withouts: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      withs.push(await block(audited));
      withouts.push(await block(bare));
    }
    const ratios = withs.map((value, index) => value / (withouts[index] as number)).sort((a, b) => a - b);
    return {
      withMedianUs: median(withs),
      withoutMedianUs: median(withouts),
      ratio: median(ratios),
      spread: `${(ratios[0] as number).toFixed(2)}–${(ratios.at(-1) as number).toFixed(2)}`,
    };
  }

  return { storeWrite: await compare(storeWrite), platformWrite: await compare(platformWrite) };
}
