import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { FunctionDeclaration } from '../core/function-declaration.ts';
import { CONNECT_PAGE_CSP, messagePage } from '../connect/pages.ts';
import { budgetFrom, type CallBudget } from '../platforms/upstream.ts';
import { guardEscapes } from './escape-guard.ts';
import { log, withRequestLogger } from '../core/logger.ts';
import { requestIdOf } from './middleware/tracing.ts';
import type { HttpResponse } from './response.ts';

/**
 * The routes a person's browser follows while connecting an account (no API key): the connect link,
 * the platforms' callbacks and the account picker. They answer redirects and small HTML pages, never
 * the JSON envelope, and never anything a browser may keep: every answer is `no-store`,
 * `no-referrer` (the callback's URL holds a code and a state), framed by no one. The access line
 * names the route, never the query string.
 */
export interface BrowserRequest {
  pathParameters: Record<string, string | undefined>;
  query: URLSearchParams;
  cookies: Map<string, string>;
  /** the form fields of a POST (application/x-www-form-urlencoded) */
  form: URLSearchParams;
  budget: CallBudget;
}

export type BrowserAnswer = { redirect: string; setCookie?: string } | { status: number; html: string };

const MAX_FORM_BYTES = 16 * 1024;

function cookiesOf(event: APIGatewayProxyEventV2): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const cookie of event.cookies ?? []) {
    const separator = cookie.indexOf('=');
    if (separator > 0) cookies.set(cookie.slice(0, separator).trim(), cookie.slice(separator + 1).trim());
  }
  return cookies;
}

function formOf(event: APIGatewayProxyEventV2): URLSearchParams | undefined {
  if (!event.body) return new URLSearchParams();
  const type = (event.headers?.['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text) > MAX_FORM_BYTES) return undefined;
  return new URLSearchParams(text);
}

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

function toResponse(answer: BrowserAnswer, requestId: string): HttpResponse {
  if ('redirect' in answer) {
    return {
      statusCode: 302,
      headers: { ...PAGE_HEADERS, location: answer.redirect, 'x-request-id': requestId },
      ...(answer.setCookie ? { cookies: [answer.setCookie] } : {}),
      body: '',
    };
  }
  return {
    statusCode: answer.status,
    headers: { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CONNECT_PAGE_CSP, 'x-request-id': requestId },
    body: answer.html,
  };
}

export const problemPage = (status: number, title: string, message: string): BrowserAnswer => ({ status, html: messagePage(title, message) });

export function defineBrowserRoute(definition: {
  declaration: Pick<FunctionDeclaration, 'operation'>;
  /** `loadAppCredentials` when the route needs our apps' client ids or secrets, or the connection key */
  credentials?: () => Promise<void>;
  run: (request: BrowserRequest) => Promise<BrowserAnswer>;
}) {
  const { operation } = definition.declaration;
  return (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> => {
    const requestId = requestIdOf(event, context);
    return withRequestLogger({ requestId, operation }, async () => {
      const started = performance.now();
      const answer = await guardEscapes(async () => {
        const form = event.requestContext?.http?.method === 'POST' ? formOf(event) : new URLSearchParams();
        if (!form) return problemPage(400, 'Not understood', 'This form could not be read.');
        await definition.credentials?.();
        return definition.run({
          pathParameters: event.pathParameters ?? {},
          query: new URLSearchParams(event.rawQueryString ?? ''),
          cookies: cookiesOf(event),
          form,
          budget: budgetFrom(context),
        });
      }).catch((error: unknown) => {
        log().error('connect route failed', { error: (error as Error).name });
        return problemPage(500, 'Something went wrong', 'The connection could not be completed. Please go back and try again.');
      });
      const response = toResponse(answer, requestId);
      log().info('request completed', { status: response.statusCode, durationMs: Math.round(performance.now() - started) });
      return response;
    });
  };
}
