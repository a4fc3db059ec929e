import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { FunctionDeclaration } from '../core/function-declaration.ts';
import { log, withRequestLogger } from '../core/logger.ts';
import type { InboundAnswer } from '../leads/handshakes.ts';
import { guardEscapes } from './escape-guard.ts';
import { requestIdOf } from './middleware/tracing.ts';
import type { HttpResponse } from './response.ts';

/**
 * A route a platform calls (its webhooks): no API key, the body exactly as its bytes came (the
 * signature is over them, so nothing parses it first), and the platform's own answer, not our
 * envelope. Credentials (the app secrets that sign) are loaded before the run.
 */
export interface InboundRequest {
  raw: Uint8Array;
  /** header names lower-cased */
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
}

export function defineInboundRoute(definition: {
  declaration: Pick<FunctionDeclaration, 'operation'>;
  credentials: () => Promise<void>;
  run: (request: InboundRequest) => Promise<InboundAnswer> | InboundAnswer;
}) {
  const { operation } = definition.declaration;
  return (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> => {
    const requestId = requestIdOf(event, context);
    return withRequestLogger({ requestId, operation }, async () => {
      const answer = await guardEscapes(async () => {
        await definition.credentials();
        const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
        const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
        const query = Object.fromEntries(new URLSearchParams(event.rawQueryString ?? ''));
        return definition.run({ raw, headers, query });
      }).catch((error: unknown): InboundAnswer => {
        log().error('platform webhook failed', { error: (error as Error).name });
        // anything but 2xx makes the platform send it again later: nothing is lost
        return { statusCode: 500, contentType: 'text/plain', body: 'try again' };
      });
      log().info('request completed', { status: answer.statusCode });
      return { statusCode: answer.statusCode, headers: { 'content-type': answer.contentType, 'x-request-id': requestId }, body: answer.body };
    });
  };
}
