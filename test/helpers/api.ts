import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createApiKey } from '../../shared/store/api-keys.ts';
import { assertDocumented } from './openapi-validator.ts';

/** HTTP helpers against the test run's local gateway. */
export const stack = () => inject('stack');

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  path: string,
  body: unknown,
  options: { apiKey?: string | null; headers?: Record<string, string>; method?: string; raw?: string | Buffer } = {},
): Promise<ApiResponse> {
  const apiKey = options.apiKey === undefined ? stack().apiKey : options.apiKey;
  const response = await fetch(`${stack().url}${path}`, {
    method: options.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      ...(apiKey === null ? {} : { 'x-api-key': apiKey }),
      ...options.headers,
    },
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return answerOf(path, options.method ?? 'POST', response);
}

/** The answer as a test reads it, once held to the OpenAPI document (openapi-validator.ts). */
async function answerOf(path: string, method: string, response: Response): Promise<ApiResponse> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  assertDocumented(path, method, response.status, parsed, response.headers.get('content-type'));
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** A fresh tenant with its own key, so tests do not see each other's users. */
export async function newTenant(): Promise<string> {
  const { apiKey } = await createApiKey(`test-${randomUUID()}`);
  return apiKey;
}

export async function newUser(apiKey: string, connections: Record<string, unknown> = {}): Promise<string> {
  const created = await call('/users/create_user', { connections }, { apiKey });
  if (created.status !== 200) throw new Error(`create_user failed: ${created.text}`);
  return created.body.results.userId as string;
}

/** A multipart upload, as a client's form would send it. */
export async function upload(
  path: string,
  fields: Record<string, string>,
  file: { field: string; name?: string; content: string | Buffer } | undefined,
  options: { apiKey?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field, new Blob([file.content], { type: 'text/csv' }), file.name ?? 'contacts.csv');
  const response = await fetch(`${stack().url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': options.apiKey ?? stack().apiKey, ...options.headers },
    body: form,
  });
  return answerOf(path, 'POST', response);
}
