import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, inject, it } from 'vitest';
import * as z from 'zod';
import {
  ERROR_CODES,
  IdempotencyConflict,
  InternalError,
  InvalidRequest,
  NotFound,
  PayloadTooLarge,
  PlatformNotConnected,
  PlatformRateLimited,
  PlatformTimeout,
  PlatformUnavailable,
  Unauthorized,
  UnsupportedMediaType,
  UserAlreadyExists,
  UserNotFound,
  type ServiceError,
} from '../../shared/core/errors.ts';
import { buildOpenApiDocument } from '../../shared/docs/openapi.ts';
import { documentedRoutes, routes } from '../../functions/routes.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** The published interface: the OpenAPI document lints clean, matches the route table and the errors. */
type Operation = {
  operationId: string;
  parameters?: Array<{ $ref: string }>;
  requestBody: { content: Record<string, { schema: { properties: Record<string, { format?: string }> } }> };
  responses: Record<string, unknown>;
};
type OpenApi = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; responses: Record<string, { description: string }> };
  security: unknown[];
};

const { url: baseUrl } = inject('stack');
const document = buildOpenApiDocument(documentedRoutes) as unknown as OpenApi;
const workDir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

async function lint(candidate: unknown): Promise<{ totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> }> {
  const file = join(workDir, `openapi-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(candidate));
  const result = await promisify(execFile)(join('node_modules', '.bin', 'redocly'), ['lint', file, '--config', 'redocly.yaml', '--format', 'json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  return JSON.parse(result.stdout);
}

describe('the OpenAPI document', () => {
  it('lints clean with @redocly/cli: no error, no warning', async () => {
    const report = await lint(document);
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('is what the lint would catch if it broke (a dangling $ref is an error)', async () => {
    const broken = structuredClone(document);
    ((broken.paths['/users/get_profile'] as Record<string, Operation>).post as Operation).responses['401'] = { $ref: '#/components/responses/Nope' };
    const report = await lint(broken);
    expect(report.totals.errors).toBeGreaterThan(0);
  }, 60_000);

  it('documents every route of the route table, and only those', () => {
    const operations = routes.filter((route) => !route.public && !route.inbound); // a platform's webhook routes are the platforms', not a client's
    for (const route of operations) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId, route.path).toBe(route.operation);
    }
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operationId: operation.operationId })),
    );
    expect(documented).toHaveLength(operations.length);
    for (const entry of documented) {
      expect(
        routes.find((route) => route.operation === entry.operationId),
        entry.operationId,
      ).toMatchObject({ path: entry.path, method: entry.method.toUpperCase() });
    }
  });

  it('requires the x-api-key scheme, and marks creating operations with Idempotency-Key and uploads as multipart, or JSON with an uploadId', () => {
    expect(document.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    expect(document.security).toEqual([{ apiKey: [] }]);
    for (const route of routes.filter((entry) => !entry.public && !entry.browser && !entry.inbound)) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Operation;
      expect(Boolean(operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/IdempotencyKey')), route.operation).toBe(
        Boolean(route.idempotent),
      );
      const [contentType, body] = Object.entries(operation.requestBody.content)[0] as [string, Operation['requestBody']['content'][string]];
      // the contact-list operations take a file in a multipart form, or JSON naming an upload (send_conversions stages JSON it was given)
      const takesFile = !['create_upload', 'send_conversions'].includes(route.operation) && !route.operation.endsWith('upload_ad_media');
      if (route.usesUploadBucket && takesFile) {
        expect(contentType).toBe('multipart/form-data');
        // a request of one shape per mode (a contact list's) holds its fields in each of its shapes
        type Shape = { properties?: Record<string, { format?: string }>; anyOf?: Shape[] };
        const propertiesOf = (schema: Shape): Record<string, { format?: string }> =>
          schema.properties ?? Object.assign({}, ...(schema.anyOf ?? []).map((shape) => shape.properties));
        expect(
          Object.values(propertiesOf(body.schema as Shape)).some((property) => property.format === 'binary'),
          route.operation,
        ).toBe(true);
        for (const shape of (body.schema as Shape).anyOf ?? [body.schema as Shape]) expect(propertiesOf(shape), route.operation).toHaveProperty('userId');
        expect(propertiesOf((operation.requestBody.content['application/json']?.schema ?? {}) as Shape), route.operation).toHaveProperty('uploadId');
      } else {
        expect(contentType).toBe('application/json');
      }
    }
  });

  it('documents the connect routes a browser follows as needing no API key, with their path parameters and HTML or redirect answers', () => {
    const browserRoutes = routes.filter((route) => route.browser);
    expect(browserRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'GET /auth/callback/{platform}',
      'GET /auth/connect/{linkId}',
      'GET /auth/select/{attemptId}',
      'POST /auth/select/{attemptId}',
    ]);
    for (const route of browserRoutes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as unknown as {
        security: unknown[];
        parameters: Array<{ name: string; in: string }>;
        responses: Record<string, unknown>;
      };
      expect(operation.security, route.operation).toEqual([]);
      expect(operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name)).toEqual(
        [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name),
      );
      expect(Object.keys(operation.responses)).toContain('302');
    }
  });

  it('gives each error code the HTTP status the service answers it with', () => {
    const errors: ServiceError[] = [
      new InvalidRequest('x'),
      new Unauthorized(),
      new UserNotFound(),
      new NotFound('x'),
      new UserAlreadyExists(),
      new PlatformNotConnected('social'),
      new IdempotencyConflict('x'),
      new PayloadTooLarge('x'),
      new UnsupportedMediaType('x'),
      new InternalError(),
      new PlatformRateLimited('social', 1),
      new PlatformUnavailable('social'),
      new PlatformTimeout('social'),
    ];
    for (const error of errors) {
      expect(document.components.responses[`Error${error.status}`]?.description, error.code).toContain(error.code);
    }
    const described = JSON.stringify(document);
    for (const code of ERROR_CODES) expect(described, code).toContain(code);
  });

  it('keeps a union result’s every form in the success envelope (the professional CSV: the audience, or the job)', () => {
    const success = (document.paths['/professional/create_csv_audience'] as any).post.responses['200'].content['application/json'].schema;
    const envelope = success.anyOf.find((schema: any) => !schema.$ref);
    const forms = envelope.properties.results.anyOf as Array<{ properties: Record<string, unknown> }>;
    expect(forms.map((form) => Object.keys(form.properties).sort())).toEqual([
      ['audience', 'success', 'warnings'],
      ['jobId', 'status', 'success'],
    ]);
  });

  it('lists in each route’s 200 answer exactly the refusals it can answer in band', () => {
    const codesOf = (path: string) => {
      const answer = (document.paths[path] as any).post.responses['200'].content['application/json'].schema;
      const refusal = answer.anyOf?.find((schema: any) => schema.$ref || schema.properties?.results?.properties?.code);
      if (!refusal) return [];
      const resolved = refusal.$ref ? (document as any).components.schemas[refusal.$ref.split('/').at(-1)] : refusal;
      return resolved.properties.results.properties.code.enum as string[];
    };
    expect(codesOf('/social/edit_campaign')).toEqual([
      'PLATFORM_REJECTED',
      'PLATFORM_AUTH_EXPIRED',
      'PLATFORM_ACCESS_NOT_APPROVED',
      'CAMPAIGN_NOT_FOUND',
      'CAMPAIGN_REMOVED',
      'BUDGET_NOT_ON_CAMPAIGN',
      'SHARED_BUDGET',
      'BUDGET_TOO_LOW',
    ]);
    expect(codesOf('/searchads/update_campaign_status')).toEqual([
      'PLATFORM_REJECTED',
      'PLATFORM_AUTH_EXPIRED',
      'PLATFORM_ACCESS_NOT_APPROVED',
      'CAMPAIGN_NOT_FOUND',
      'CAMPAIGN_REMOVED',
      'INVALID_TRANSITION',
      'EU_POLITICAL_DECLARATION_REQUIRED',
    ]);
    expect(codesOf('/searchads/create_search_campaign')).toEqual([
      'PLATFORM_REJECTED',
      'PLATFORM_AUTH_EXPIRED',
      'PLATFORM_ACCESS_NOT_APPROVED',
      'EU_POLITICAL_DECLARATION_REQUIRED',
    ]);
    expect(codesOf('/professional/get_campaign_analytics')).toEqual([
      'PLATFORM_REJECTED',
      'PLATFORM_AUTH_EXPIRED',
      'PLATFORM_ACCESS_NOT_APPROVED',
      'CAMPAIGN_NOT_FOUND',
      'SCOPE_MISSING',
    ]);
    expect(codesOf('/optimize_me/create_rule')).toEqual(['PLATFORM_REJECTED', 'PLATFORM_AUTH_EXPIRED', 'PLATFORM_ACCESS_NOT_APPROVED', 'CAMPAIGN_NOT_FOUND']);
    expect(codesOf('/users/get_profile')).toEqual([]);
    // a campaign-level change names no ad: the document allows the empty adId the entry carries
    const history = JSON.stringify((document.paths['/optimize_me/get_campaign_optimization_history'] as any).post.responses['200']);
    expect(history).toContain('empty (\\"\\") on a campaign-level change');
  });

  it('has examples that the operations’ own schemas accept', () => {
    // the browser routes answer pages; /mcp answers JSON-RPC (its examples: test/integration/mcp.test.ts)
    for (const { route, api } of documentedRoutes.filter((entry) => entry.api && !('responses' in entry.api) && !entry.route.protocol)) {
      const [operation, doc] = [route.operation, api as OperationDoc];
      const example = doc.fileField
        ? {
            ...doc.requestExample,
            [doc.fileField]: { filename: 'contacts.csv', mimetype: 'text/csv', content: Buffer.from(String(doc.requestExample[doc.fileField])) },
          }
        : doc.requestExample;
      const request = z.safeParse(doc.request, example);
      expect(request.success ? [] : request.error.issues, `${operation} request`).toEqual([]);
      const result = z.safeParse(doc.result, doc.resultExample);
      expect(result.success ? [] : result.error.issues, `${operation} result`).toEqual([]);
    }
  });
});

describe('the published routes of the local stack', () => {
  it('GET /openapi.json answers the document, without an API key, naming this server', async () => {
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await response.json()) as OpenApi;
    expect(served.openapi).toBe('3.1.0');
    expect(served.servers[0]?.url).toBe(baseUrl);
    expect(Object.keys(served.paths)).toEqual(Object.keys(document.paths));
  });

  it('GET /docs answers the reference page that loads its renderer from this service only', async () => {
    const response = await fetch(`${baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).toContain('src="/docs/scalar-api-reference.js"');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('GET /docs/scalar-api-reference.js answers the renderer, gzip when asked', async () => {
    const { request } = await import('node:http');
    const gzipped = await new Promise<{ status: number; encoding?: string; body: Buffer }>((resolve, reject) => {
      request(`${baseUrl}/docs/scalar-api-reference.js`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(gzipped.status).toBe(200);
    expect(gzipped.encoding).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString('utf8')).toContain('@scalar/api-reference');
  });

  it('POST /openapi.json is 405 and the operations still need a key', async () => {
    const wrongMethod = await fetch(`${baseUrl}/openapi.json`, { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    const noKey = await fetch(`${baseUrl}/users/get_profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"userId":"demo-user"}',
    });
    expect(noKey.status).toBe(401);
  });
});
