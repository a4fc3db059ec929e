import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clock } from '../shared/core/clock.ts';
import { keepIdleConnections } from './keep-alive.ts';

/**
 * The local S3's front door. s3rver stores objects faithfully but does not check version-4
 * signatures, so a presigned URL would accept any body, any time. This checks a presigned request as
 * S3 does before handing it on: the signature recomputed with the SDK's own signer over the request
 * as it arrived (a body of another length or type than the signed one fails, like S3's
 * SignatureDoesNotMatch), and its expiry against the stack's clock (tests move it). The SDK's own
 * header-signed calls are checked too, so nothing unsigned can list, read or overwrite a staged file,
 * and a read's `If-Match` is honoured (s3rver ignores it). Browser preflights for PUT are answered, as
 * the cloud bucket's CORS rule does. Written here because no S3 emulator on npm checks signatures.
 */
const bytesOf = (data: string | ArrayBuffer | ArrayBufferView) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** The signer's SHA-256 (an HMAC when given a key), over node:crypto. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

const AUTH_PARAMS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'];

function s3Error(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/** The problem with a presigned request, or undefined when S3 would take it. */
export async function presignedRequestProblem(
  request: { method: string; path: string; host: string; headers: Record<string, string | string[] | undefined> },
  credentials: { accessKeyId: string; secretAccessKey: string },
  now: number,
): Promise<{ status: number; code: string; message: string } | undefined> {
  const url = new URL(request.path, `http://${request.host}`);
  const params = url.searchParams;
  const missing = AUTH_PARAMS.filter((name) => !params.has(name));
  if (missing.length > 0) return { status: 400, code: 'AuthorizationQueryParametersError', message: `Missing ${missing.join(', ')}` };
  const signedAt = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(params.get('X-Amz-Date') as string);
  const expiresIn = Number(params.get('X-Amz-Expires'));
  if (!signedAt || !Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > 604_800)
    return { status: 400, code: 'AuthorizationQueryParametersError', message: 'Bad X-Amz-Date or X-Amz-Expires' };
  const signingDate = new Date(Date.UTC(+signedAt[1]!, +signedAt[2]! - 1, +signedAt[3]!, +signedAt[4]!, +signedAt[5]!, +signedAt[6]!));
  if (now > signingDate.getTime() + expiresIn * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
  const [accessKeyId, , region, service] = (params.get('X-Amz-Credential') as string).split('/');
  if (accessKeyId !== credentials.accessKeyId || !region || service !== 's3')
    return { status: 403, code: 'InvalidAccessKeyId', message: 'The access key is not known' };

  const signedHeaders = (params.get('X-Amz-SignedHeaders') as string).split(';');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = name === 'host' ? request.host : request.headers[name];
    if (value === undefined) return { status: 403, code: 'SignatureDoesNotMatch', message: `The signed header ${name} is missing` };
    headers[name] = String(value);
  }
  const query: Record<string, string> = {};
  for (const [name, value] of params) if (!AUTH_PARAMS.includes(name)) query[name] = value;
  // the payload's hash was a header the signer hoisted into the query: given back as one, it is the hash signed again
  const payloadHash = query['X-Amz-Content-Sha256'];
  if (payloadHash !== undefined) {
    delete query['X-Amz-Content-Sha256'];
    headers['X-Amz-Content-Sha256'] = payloadHash; // as the presigner names it: the hoisted name is signed as it is spelled
  }
  const [hostname, port] = request.host.split(':');
  const signer = new SignatureV4({ service: 's3', region, credentials, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const expected = await signer.presign(
    { method: request.method, protocol: 'http:', hostname: hostname as string, port: port ? Number(port) : undefined, path: url.pathname, query, headers },
    { signingDate, expiresIn, signableHeaders: new Set(signedHeaders) },
  );
  if (expected.query?.['X-Amz-Signature'] !== params.get('X-Amz-Signature')) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return undefined;
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/**
 * The problem with a header-signed request (the SDK's own calls), or undefined when S3 would take it:
 * the signature recomputed over the signed headers as they arrived. The body is not hashed again (its
 * hash is the signed `x-amz-content-sha256` header); what this keeps out is any request made without
 * the stack's credentials.
 */
export async function signedRequestProblem(
  request: { method: string; path: string; host: string; headers: Record<string, string | string[] | undefined> },
  credentials: { accessKeyId: string; secretAccessKey: string },
): Promise<{ status: number; code: string; message: string } | undefined> {
  const parts = AUTHORIZATION.exec(String(request.headers.authorization ?? ''));
  if (!parts) return { status: 403, code: 'AccessDenied', message: 'Requests must be signed (AWS Signature Version 4)' };
  const [, accessKeyId, , region, signedList, signature] = parts as unknown as [string, string, string, string, string, string];
  if (accessKeyId !== credentials.accessKeyId) return { status: 403, code: 'InvalidAccessKeyId', message: 'The access key is not known' };
  const amzDate = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(String(request.headers['x-amz-date'] ?? ''));
  if (!amzDate) return { status: 403, code: 'AccessDenied', message: 'x-amz-date is missing' };
  const signingDate = new Date(Date.UTC(+amzDate[1]!, +amzDate[2]! - 1, +amzDate[3]!, +amzDate[4]!, +amzDate[5]!, +amzDate[6]!));
  const signedHeaders = signedList.split(';');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = name === 'host' ? request.host : request.headers[name];
    if (value === undefined) return { status: 403, code: 'SignatureDoesNotMatch', message: `The signed header ${name} is missing` };
    headers[name] = String(value);
  }
  const url = new URL(request.path, `http://${request.host}`);
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const [hostname, port] = request.host.split(':');
  const signer = new SignatureV4({ service: 's3', region, credentials, sha256: Sha256, uriEscapePath: false, applyChecksum: true });
  const expected = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: hostname as string, port: port ? Number(port) : undefined, path: url.pathname, query, headers },
    { signingDate, signableHeaders: new Set(signedHeaders) },
  );
  const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization ?? ''))?.[1];
  if (expectedSignature !== signature)
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  return undefined;
}

/** S3's `If-Match` on a read, which s3rver ignores: the object's current ETag, asked of s3rver first. */
function currentEtag(s3Port: number, path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const head = forward({ host: '127.0.0.1', port: s3Port, method: 'HEAD', path: path.split('?')[0] }, (answer) => {
      answer.resume();
      resolve(answer.statusCode === 200 ? String(answer.headers.etag ?? '') : undefined);
    });
    head.on('error', () => resolve(undefined));
    head.end();
  });
}

export async function startPresignedGuard(
  s3Port: number,
  credentials: { accessKeyId: string; secretAccessKey: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      if (incoming.method === 'OPTIONS') {
        response.writeHead(200, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'PUT',
          'access-control-allow-headers': 'content-type',
          'access-control-max-age': '3000',
        });
        return response.end();
      }
      const path = incoming.url ?? '/';
      const request = { method: incoming.method ?? 'GET', path, host: incoming.headers.host ?? '', headers: incoming.headers };
      const problem = path.includes('X-Amz-Algorithm=')
        ? await presignedRequestProblem(request, credentials, clock.now())
        : await signedRequestProblem(request, credentials);
      if (problem) {
        incoming.resume();
        return s3Error(response, problem.status, problem.code, problem.message);
      }
      const ifMatch = incoming.headers['if-match'];
      if (
        (incoming.method === 'GET' || incoming.method === 'HEAD') &&
        typeof ifMatch === 'string' &&
        ifMatch !== '*' &&
        (await currentEtag(s3Port, path)) !== ifMatch
      ) {
        incoming.resume();
        return s3Error(response, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      }
      const upstream = forward({ host: '127.0.0.1', port: s3Port, method: incoming.method, path, headers: incoming.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          ...(path.includes('X-Amz-Algorithm=') ? { 'access-control-allow-origin': '*' } : {}),
        });
        answer.pipe(response);
      });
      // a client that goes before the whole answer came (it read the first bytes it wanted) ends the
      // request to S3 too, or S3 would wait forever to write the rest (and never close)
      response.on('close', () => {
        if (!response.writableFinished) upstream.destroy();
      });
      upstream.on('error', () => {
        if (!response.headersSent) s3Error(response, 502, 'InternalError', 'The local S3 did not answer');
      });
      incoming.pipe(upstream);
    })().catch(() => s3Error(response, 500, 'InternalError', 'The local S3 front failed'));
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
