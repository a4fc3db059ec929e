import * as z from 'zod';
import { clock } from '../core/clock.ts';
import { ERROR_CODES, type ErrorCode } from '../core/errors.ts';
import { errorStatuses } from '../core/error-table.ts';
import type { FunctionDeclaration } from '../core/function-declaration.ts';
import { ERROR_FIELDS } from '../schemas/error-fields.ts';
import { API_TAGS, webhookEventDocs, type BrowserRouteDoc, type OperationDoc, type ApiTag, type ProtocolRouteDoc } from '../schemas/operation-doc.ts';

/**
 * The OpenAPI 3.1 document, generated from the zod schemas of shared/schemas/catalog.ts and the
 * route table: every operation with its request and result, the `x-api-key` scheme, the envelope,
 * every error code with its HTTP status, the multipart bodies, pagination and `Idempotency-Key`.
 */
type JsonSchema = Record<string, unknown>;

const ERROR_STATUSES = errorStatuses();
const PLATFORM_STATUSES = new Set(['429', '502', '504']);
const PLATFORM_REFUSALS: ErrorCode[] = ['PLATFORM_REJECTED', 'PLATFORM_AUTH_EXPIRED', 'PLATFORM_ACCESS_NOT_APPROVED'];

/** JSON Schema of a zod schema; a file (z.custom) becomes a binary string. */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (context) => {
      const definition = (context.zodSchema as { _zod?: { def?: { type?: string; discriminator?: string } } })._zod?.def;
      if (definition?.type === 'custom') Object.assign(context.jsonSchema, { type: 'string', format: 'binary', contentMediaType: 'text/csv' });
      // a discriminated union whose default shape leaves the discriminator out is exclusive by the discriminator's
      // literal, which a linter reading oneOf cannot see: anyOf says as much
      const shapes = context.jsonSchema.oneOf;
      if (definition?.type === 'union' && definition.discriminator && shapes) {
        context.jsonSchema.anyOf = shapes;
        delete context.jsonSchema.oneOf;
      }
    },
  }) as JsonSchema;
  delete converted.$schema;
  return neverAsFalse(converted) as JsonSchema;
}

/** A field that must never be sent (`z.never()`, zod writes `{not: {}}`) as the schema `false`, which generated clients type as `never`. */
function neverAsFalse(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(neverAsFalse);
  if (node === null || typeof node !== 'object') return node;
  const keys = Object.keys(node);
  const not = (node as { not?: unknown }).not;
  if (keys.length === 1 && keys[0] === 'not' && not !== null && typeof not === 'object' && Object.keys(not).length === 0) return false;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, neverAsFalse(value)]));
}

/**
 * What the service answers (and POSTs to webhooks) is the whole truth: every object of it is closed, so
 * a field the document does not declare is a defect a client's validator (and our tests) would see.
 * Requests are left as their schemas say (a non-strict request object drops unknown keys).
 */
function closed(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node as JsonSchema).map(([key, value]) => [key, walk(value)] as const);
    const copy = Object.fromEntries(entries) as JsonSchema;
    if (copy.type === 'object' && copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy;
  };
  return walk(schema) as JsonSchema;
}

/** `{success, results}` */
function envelope(success: boolean, results: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'results'],
    properties: { success: { type: 'boolean', const: success }, results },
  };
}

/** `results` of a success: the result's fields beside `success: true`; a union result, each of its forms so. */
function successResults(result: JsonSchema): JsonSchema {
  const branches = (result.anyOf ?? result.oneOf) as JsonSchema[] | undefined;
  if (branches) return { anyOf: branches.map(successResults) };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['success', ...((result.required as string[] | undefined) ?? [])],
    properties: { success: { type: 'boolean', const: true }, ...((result.properties ?? {}) as Record<string, unknown>) },
  };
}

/** The success envelope around an operation's result. */
const successEnvelope = (result: JsonSchema): JsonSchema => envelope(true, successResults(result));

/** `{success, results: {success: false, error, code, details?}}` */
function failureEnvelope(description: string, success: boolean, codes: readonly ErrorCode[], error: string): JsonSchema {
  return {
    description,
    ...envelope(success, {
      type: 'object',
      required: ['success', 'error', 'code'],
      additionalProperties: false,
      properties: {
        success: { type: 'boolean', const: false },
        error: { type: 'string', description: error },
        code: { type: 'string', enum: codes },
        ...Object.fromEntries(Object.entries(ERROR_FIELDS).map(([field, schema]) => [field, jsonSchema(schema, 'output')])),
      },
    }),
  };
}

/**
 * What the service POSTs to a tenant's webhook (Standard Webhooks 1.0): one entry per event type,
 * with the signature headers and the body's `data` per type.
 */
function webhookDocs(): Record<string, unknown> {
  const headers = [
    { name: 'webhook-id', description: 'The event’s id: the same on every attempt (use it to drop duplicates).' },
    { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed.' },
    { name: 'webhook-signature', description: '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the secret’s decoded bytes.' },
  ].map((header) => ({ ...header, in: 'header', required: true, schema: { type: 'string' } }));
  return Object.fromEntries(
    Object.entries(webhookEventDocs).map(([type, entry]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replaceAll('.', '_')}`,
          summary: entry.summary,
          tags: ['Tenant' satisfies ApiTag],
          parameters: headers,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: closed(jsonSchema(z.object({ type: z.literal(type), timestamp: z.string(), data: entry.data }), 'output')),
                example: { type, timestamp: `${clock.today()}T09:00:00.000Z`, data: entry.example },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx: delivered. 410: the webhook is disabled. Anything else, or no answer within 10 s: tried again later.' },
          },
        },
      },
    ]),
  );
}

/** A route a browser follows: no API key, path parameters, redirects and HTML answers. */
function browserOperation(route: FunctionDeclaration, doc: BrowserRouteDoc): Record<string, unknown> {
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const queryParameters = Object.entries(doc.query ?? {}).map(([name, description]) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'string' },
  }));
  const html = { 'text/html': { schema: { type: 'string' } } };
  return {
    operationId: route.operation,
    summary: doc.summary,
    description: doc.description,
    tags: ['Connect' satisfies ApiTag],
    security: [],
    parameters: [...pathParameters, ...queryParameters],
    ...(doc.form
      ? {
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['accountId'],
                  properties: Object.fromEntries(Object.entries(doc.form).map(([name, description]) => [name, { type: 'string', description }])),
                },
              },
            },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries({ ...doc.responses, default: 'An HTML page saying what went wrong (500 when the service itself failed).' }).map(
        ([status, description]) => [
          status,
          status === '302'
            ? { description, headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } } } }
            : { description, content: html },
        ],
      ),
    ),
  };
}

/** The extension on each operation that the MCP tools take their annotations from (docs/agents.md). */
export const AGENT_HINTS = 'x-mcp-annotations';

/**
 * What an agent is told of an operation before it calls it: a read (no audit event) changes nothing; a
 * write is destructive or not, unchanged by a repeat or not, as its declaration says; it reaches a
 * platform (the open world) or only the service's own records.
 */
function agentHints(route: FunctionDeclaration): Record<string, boolean> {
  const readOnlyHint = !route.audit;
  return {
    readOnlyHint,
    ...(readOnlyHint ? {} : { destructiveHint: Boolean(route.destructive), idempotentHint: Boolean(route.unchangedByRepeat) }),
    openWorldHint: Boolean(route.platform || route.callsPlatforms),
  };
}

/** A JSON-RPC 2.0 message and answer, as the Model Context Protocol sends them (the protocol's own schema defines each method's params). */
const JSON_RPC_MESSAGE = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    id: { type: ['string', 'integer'], description: 'Absent on a notification (answered 202, no body).' },
    method: { type: 'string', description: '`initialize`, `ping`, `tools/list`, `tools/call`, or a notification' },
    params: { type: 'object' },
  },
};
const JSON_RPC_ANSWER = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
  },
};

/** `/mcp`: the Model Context Protocol's JSON-RPC over Streamable HTTP, not the envelope. */
function protocolOperation(route: FunctionDeclaration, doc: ProtocolRouteDoc): Record<string, unknown> {
  const answer = (description: string) => ({ description, content: { 'application/json': { schema: JSON_RPC_ANSWER } } });
  return {
    operationId: route.operation,
    summary: doc.summary,
    description: doc.description,
    tags: [doc.tag],
    security: [{ apiKey: [] }, { bearerKey: [] }],
    parameters: [
      { name: 'Mcp-Session-Id', in: 'header', required: false, description: 'What the answer to `initialize` carried.', schema: { type: 'string' } },
      { name: 'MCP-Protocol-Version', in: 'header', required: false, description: 'The version `initialize` agreed.', schema: { type: 'string' } },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: JSON_RPC_MESSAGE, example: doc.requestExample } } },
    responses: {
      '200': {
        description: 'The JSON-RPC answer. A tool’s refusal is a result with `isError: true`.',
        headers: {
          'Mcp-Session-Id': { description: 'On the answer to `initialize`: send it back on later requests.', schema: { type: 'string' } },
          'x-request-id': { $ref: '#/components/headers/RequestId' },
        },
        content: { 'application/json': { schema: JSON_RPC_ANSWER, example: doc.responseExample } },
      },
      '202': { description: 'A notification, accepted: no body.' },
      '400': answer('Not one JSON-RPC message (a batch is refused), or an unsupported protocol version.'),
      '401': answer('No valid API key (`WWW-Authenticate: Bearer`).'),
      '403': answer('A browser Origin the tenant has not allowed.'),
      '406': answer('The Accept header does not take both application/json and text/event-stream.'),
    },
  };
}

/** A route with what its folder's `api.ts` says of it (the document's own routes say nothing). */
export interface DocumentedRoute {
  route: FunctionDeclaration;
  api?: OperationDoc | BrowserRouteDoc | ProtocolRouteDoc;
}

const isBrowserDoc = (api: OperationDoc | BrowserRouteDoc | ProtocolRouteDoc): api is BrowserRouteDoc => 'responses' in api;

export function buildOpenApiDocument(documented: readonly DocumentedRoute[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { route, api } of documented) {
    if (!api) continue; // the document's own routes
    if (route.protocol) {
      paths[route.path] = { [route.method.toLowerCase()]: protocolOperation(route, api as ProtocolRouteDoc) };
      continue;
    }
    if (isBrowserDoc(api)) {
      paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: browserOperation(route, api) };
      continue;
    }
    const doc = api as OperationDoc;
    const requestSchema = jsonSchema(doc.request, 'input');
    const resultSchema = closed(jsonSchema(doc.result, 'output'));
    const content = doc.fileField
      ? {
          'multipart/form-data': { schema: requestSchema, encoding: { [doc.fileField]: { contentType: 'text/csv' } }, example: doc.requestExample },
          ...(doc.fromUpload ? { 'application/json': { schema: jsonSchema(doc.fromUpload.request, 'input'), example: doc.fromUpload.requestExample } } : {}),
        }
      : { 'application/json': { schema: requestSchema, example: doc.requestExample } };
    // what the operation refuses in band: the platform's own refusals where it calls one, and its declared ones
    const refusals: ErrorCode[] = [...(route.platform || route.callsPlatforms ? PLATFORM_REFUSALS : []), ...(doc.refusals ?? [])];
    const refusalSchema = doc.refusals?.length
      ? failureEnvelope(
          'The operation was refused: HTTP 200, `success` true, `results.success` false.',
          true,
          refusals,
          'What was refused and why, as a person can act on it.',
        )
      : { $ref: '#/components/schemas/PlatformRefusal' };
    const responses: Record<string, unknown> = {
      [route.accepted ? '202' : '200']: {
        description: route.accepted
          ? 'Accepted: the work is queued; `results` says how to follow it.'
          : refusals.length
            ? `The operation ran. When it was refused (${refusals.map((code) => `\`${code}\``).join(', ')}), \`success\` is true and \`results.success\` false.`
            : 'The operation ran.',
        headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
        content: {
          'application/json': {
            schema: refusals.length ? { anyOf: [successEnvelope(resultSchema), refusalSchema] } : successEnvelope(resultSchema),
            example: { success: true, results: { success: true, ...doc.resultExample } },
          },
        },
      },
    };
    if (route.accepted && doc.answeredNow)
      responses['200'] = {
        description: doc.answeredNow.description,
        headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
        content: {
          'application/json': {
            schema: successEnvelope(closed(jsonSchema(doc.answeredNow.result, 'output'))),
            example: { success: true, results: { success: true, ...doc.answeredNow.resultExample } },
          },
        },
      };
    for (const entry of ERROR_STATUSES) {
      if (PLATFORM_STATUSES.has(entry.status) && !route.platform && !route.callsPlatforms && !(entry.status === '429' && route.limited)) continue;
      responses[entry.status] = { $ref: `#/components/responses/Error${entry.status}` };
    }
    paths[route.path] = {
      [route.method.toLowerCase()]: {
        operationId: route.operation,
        summary: doc.summary,
        description: doc.description,
        tags: [doc.tag],
        ...(route.idempotent ? { parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }] } : {}),
        requestBody: { required: true, content },
        responses,
        [AGENT_HINTS]: agentHints(route),
      },
    };
  }

  const errorResponses = Object.fromEntries(
    ERROR_STATUSES.map((entry) => [
      `Error${entry.status}`,
      {
        description: `${entry.description} Codes: ${entry.codes.join(', ')}.`,
        headers: {
          'x-request-id': { $ref: '#/components/headers/RequestId' },
          ...(entry.status === '429' ? { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } : {}),
        },
        content: {
          'application/json': {
            // the envelope, with only the codes the error table gives this status
            schema: { $ref: `#/components/schemas/ErrorEnvelope${entry.status}` },
            example: { success: false, results: { success: false, code: entry.codes[0], error: entry.description } },
          },
        },
      },
    ]),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Ad campaign management API',
      version: '1.0.0',
      summary: 'One API over the social, search-ads and professional-network ad platforms.',
      description: [
        'Every operation is a POST with a JSON body (the two CSV uploads: multipart/form-data, or JSON with the `uploadId` of a file sent with /uploads/create_upload) and the `x-api-key` header, and answers with the envelope `{success, results: {success, error?, code?, details?, …}}`.',
        '',
        '**Pagination**: list operations return `results.paging.next` and/or `.previous` when there is such a page; send one back as `pagination`. They are opaque cursors.',
        '',
        '**Idempotency-Key**: creating operations accept the header; a retry with the same key and body returns the stored result without doing the work again (24 hours), the same key with another body is 409 IDEMPOTENCY_CONFLICT.',
        '',
        `**Errors**: a request that fails validation never reaches a platform. \`results.code\` is one of: ${ERROR_CODES.join(', ')}.`,
      ].join('\n'),
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: serverUrl ?? 'http://localhost:3000', description: serverUrl ? 'This server' : 'The local stack (`npm start`)' }],
    security: [{ apiKey: [] }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhookDocs(),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your API key (`npm run admin -- create-api-key`).' },
        bearerKey: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token: `/mcp` only, as MCP clients send it.' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retry safe: the same key and body return the stored result; another body is 409.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      headers: { RequestId: { description: 'Identifies the request in the service’s logs.', schema: { type: 'string' } } },
      schemas: {
        PlatformRefusal: failureEnvelope(
          'The platform refused the operation: HTTP 200, `success` true, `results.success` false.',
          true,
          PLATFORM_REFUSALS,
          'The platform’s own message, as a person can act on it.',
        ),
        ...Object.fromEntries(
          ERROR_STATUSES.map((entry) => [
            `ErrorEnvelope${entry.status}`,
            failureEnvelope(
              `An HTTP ${entry.status} failure: \`success\` false, one of this status's codes.`,
              false,
              entry.codes,
              'A sentence a person can act on.',
            ),
          ]),
        ),
      },
      responses: errorResponses,
    },
  };
}
