import { restliError } from './professional-restli.ts';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { clock } from '../../shared/core/clock.ts';
import type { ProfessionalConnectState } from './professional-connect.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';
import type { MediaState } from './professional-media.ts';

import type { ProfessionalLeadsState } from './professional-leads.ts';
import type { ConversionRulesState } from './professional-conversions.ts';

/** The professional network's list-upload flow in the sandbox: upload URLs, files, and the segments they fill (served by professional.ts). */

export const SEGMENT_TYPES = new Set(['USER_LIST_UPLOAD', 'COMPANY_LIST_UPLOAD', 'USER', 'COMPANY']);

export const TEMPLATE_HEADERS: Record<string, string[]> = {
  USER_LIST_UPLOAD: ['email', 'firstname', 'lastname', 'jobtitle', 'employeecompany', 'country', 'googleaid'],
  COMPANY_LIST_UPLOAD: [
    'companyname',
    'companywebsite',
    'companyemaildomain',
    'linkedincompanypageurl',
    'stocksymbol',
    'industry',
    'city',
    'state',
    'companycountry',
    'zipcode',
  ],
};

export const MAX_SEGMENTS_PER_ACCOUNT = 1000;

export const PROCESSING_MS = 3_000;

export interface Segment {
  id: number;
  name: string;
  account: string;
  type: string;
  sourcePlatform: string;
  created: number;
  lastModified: number;
  adSegmentId: number;
  inputFile?: string;
  rows?: number;
  attachedAt?: number;
}

export interface ProfessionalState {
  uploadUrls: Map<string, { owner: string; used: boolean }>;
  files: Map<string, { csv: string; owner: string }>;
  segments: Map<number, Segment>;
  issuedTokens: Set<string>;
  /** LinkedIn sign-in: codes, tokens and their members, revoked tokens */
  connect: ProfessionalConnectState;
  /** images and videos uploaded for organizations */
  media: MediaState;
  /** Lead Sync: notification subscriptions and the leads made */
  leads: ProfessionalLeadsState;
  /** the conversion rules CRM events can go to */
  conversions: ConversionRulesState;
}

export function segmentView(segment: Segment): Record<string, unknown> {
  const ready = segment.attachedAt !== undefined && clock.now() - segment.attachedAt >= PROCESSING_MS;
  const matched = Math.floor((segment.rows ?? 0) * 0.7);
  return {
    id: segment.id,
    name: segment.name,
    account: segment.account,
    type: segment.type,
    sourcePlatform: segment.sourcePlatform,
    created: segment.created,
    lastModified: segment.lastModified,
    ...(ready ? { inputCount: segment.rows } : {}),
    destinations: [
      {
        destination: 'LINKEDIN',
        status: ready ? 'READY' : 'BUILDING',
        destinationSegmentId: `urn:li:adSegment:${segment.adSegmentId}`,
        ...(ready ? { matchedCount: matched, audienceSize: segment.type === 'COMPANY_LIST_UPLOAD' ? matched * 150 : matched } : {}),
        created: segment.created,
        lastModified: segment.lastModified,
      },
    ],
  };
}

export type Handler = (request: SandboxRequest, state: ProfessionalState, params: Record<string, string>, base: string) => SandboxResponse;

export const generateUploadUrl: Handler = (request, state, _params, base) => {
  const owner = request.fields.owner;
  if (typeof owner !== 'string' || !/^urn:li:sponsoredAccount:\d+$/.test(owner)) {
    return restliError(400, { serviceErrorCode: 100, code: 'PARAM_INVALID', message: 'owner must be a sponsored account URN' });
  }
  const endpoint = `AQ${randomBytes(18).toString('base64url')}`;
  state.uploadUrls.set(endpoint, { owner, used: false });
  return { status: 200, body: { value: `${base}/ambry/?x-li-ambry-ep=${endpoint}` }, headers: { 'x-restli-protocol-version': '2.0.0' } };
};

export const uploadFile: Handler = (request, state): SandboxResponse => {
  const endpoint = request.query.get('x-li-ambry-ep') ?? '';
  const upload = state.uploadUrls.get(endpoint);
  if (!upload || upload.used) return { status: 403, raw: 'This upload URL is not valid or was already used.', headers: { 'content-type': 'text/plain' } };
  if (!/^text\/csv/i.test(request.headers['content-type'] ?? ''))
    return { status: 415, raw: 'Content-Type must be text/csv', headers: { 'content-type': 'text/plain' } };
  upload.used = true;
  const path = `/AAYA${randomBytes(24).toString('base64url')}.csv`;
  state.files.set(`urn:li:media:${path}`, { csv: request.body.toString('utf8'), owner: upload.owner });
  return { status: 201, raw: '', headers: { location: path, 'content-length': '0' } };
};

export const createSegment: Handler = (request, state) => {
  const { name, account, type, sourcePlatform, destinations, accessPolicy } = request.fields as Record<string, unknown>;
  const inputError = (fieldPath: string, code: string) =>
    restliError(422, {
      errorDetailType: 'com.linkedin.common.error.BadRequest',
      message: 'Multiple errors occurred during the input validation. Please see errorDetails for more information.',
      errorDetails: { inputErrors: [{ description: 'Invalid value for field; wrong type or other syntax error', input: { inputPath: { fieldPath } }, code }] },
    });
  if (accessPolicy !== undefined)
    return restliError(403, {
      serviceErrorCode: 100,
      code: 'ACCESS_DENIED',
      message: 'Unpermitted fields present in REQUEST_BODY: Data Processing Exception while processing fields [/accessPolicy]',
    });
  if (typeof name !== 'string' || !name) return inputError('/name', 'ERROR :: /name :: field is required but not found and has no default value');
  if (typeof account !== 'string' || !/^urn:li:sponsoredAccount:\d+$/.test(account)) return inputError('/account', 'ERROR :: /account :: invalid URN');
  if (!SEGMENT_TYPES.has(String(type))) return inputError('/type', `ERROR :: /type :: "${String(type)}" is not an enum symbol`);
  if (String(type).endsWith('_LIST_UPLOAD') && sourcePlatform !== 'LIST_UPLOAD')
    return inputError('/sourcePlatform', 'ERROR :: /sourcePlatform :: must be LIST_UPLOAD for list uploads');
  if (!Array.isArray(destinations) || (destinations[0] as { destination?: string } | undefined)?.destination !== 'LINKEDIN') {
    return inputError('/destinations', 'ERROR :: /destinations :: must be [{"destination":"LINKEDIN"}]');
  }
  const count = [...state.segments.values()].filter((segment) => segment.account === account).length;
  if (count >= MAX_SEGMENTS_PER_ACCOUNT)
    return restliError(429, { code: 'SEGMENT_LIMIT_EXCEEDED', message: 'The number of DMP segments for this ad account exceeds the allowed limit' });
  const id = 90000001 + state.segments.size;
  const now = clock.now();
  state.segments.set(id, {
    id,
    name,
    account,
    type: String(type),
    sourcePlatform: String(sourcePlatform),
    created: now,
    lastModified: now,
    adSegmentId: 80000001 + state.segments.size,
  });
  return {
    status: 201,
    raw: '',
    headers: { 'x-restli-id': String(id), 'x-linkedin-id': String(id), location: `/dmpSegments/${id}`, 'x-restli-protocol-version': '2.0.0' },
  };
};

export const attachList: Handler = (request, state, { id }) => {
  const segment = state.segments.get(Number(id));
  if (!segment) return restliError(404, { code: 'NOT_FOUND', message: 'Not Found' });
  const inputFile = request.fields.inputFile;
  const file = typeof inputFile === 'string' ? state.files.get(inputFile) : undefined;
  if (!file) return restliError(400, { serviceErrorCode: 100, code: 'PARAM_INVALID', message: 'inputFile does not name an uploaded list' });
  if (file.owner !== segment.account) return restliError(403, { serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'The list belongs to another account' });
  let rows: string[][];
  try {
    rows = parse(file.csv, { skip_empty_lines: true, bom: true }) as string[][];
  } catch {
    return restliError(400, { serviceErrorCode: 100, message: 'The uploaded list is not a valid CSV file' });
  }
  const header = (rows[0] ?? []).map((name) => name.trim().toLowerCase());
  const template = TEMPLATE_HEADERS[segment.type] ?? [];
  if (header.length === 0 || header.some((name) => !template.includes(name))) {
    return restliError(400, { serviceErrorCode: 100, message: `The uploaded list's columns do not match the ${segment.type} template` });
  }
  const dataRows = rows.length - 1;
  if (dataRows < 300) return restliError(400, { serviceErrorCode: 100, message: 'The uploaded list must contain at least 300 records' });
  if (segment.type === 'USER_LIST_UPLOAD' && header.includes('email')) {
    const column = header.indexOf('email');
    const plain = rows.slice(1).find((row) => row[column] && !/^[0-9a-f]{64}$/.test(row[column] as string));
    if (plain) return restliError(400, { serviceErrorCode: 100, message: 'email values must be SHA-256 hashes in this sandbox' });
  }
  Object.assign(segment, { inputFile, rows: dataRows, attachedAt: clock.now(), lastModified: clock.now() });
  return { status: 201, raw: '', headers: { 'x-restli-id': String(70000000 + segment.id - 90000000), 'x-restli-protocol-version': '2.0.0' } };
};

export const getSegment: Handler = (_request, state, { id }) => {
  const segment = state.segments.get(Number(id));
  return segment ? { status: 200, body: segmentView(segment) } : restliError(404, { code: 'NOT_FOUND', message: 'Not Found' });
};

export const findSegments: Handler = (request, state) => {
  if (request.query.get('q') !== 'account') return restliError(400, { code: 'QUERY_PARAM_NOT_ALLOWED', message: 'Unsupported finder' });
  const account = request.query.get('account');
  const source = request.query.get('sourcePlatform');
  const start = Number(request.query.get('start') ?? 0);
  const count = Number(request.query.get('count') ?? 10);
  const all = [...state.segments.values()].filter((segment) => segment.account === account && (!source || segment.sourcePlatform === source));
  return { status: 200, body: { elements: all.slice(start, start + count).map(segmentView), paging: { start, count, links: [], total: all.length } } };
};

export const deleteSegment: Handler = (_request, state, { id }) => {
  if (!state.segments.delete(Number(id))) return restliError(404, { code: 'NOT_FOUND', message: 'Not Found' });
  return { status: 204, raw: '' };
};

export const getAdSegment: Handler = (_request, state, { id }) => {
  const segment = [...state.segments.values()].find((candidate) => candidate.adSegmentId === Number(id));
  if (!segment) return restliError(404, { code: 'NOT_FOUND', message: 'Not Found' });
  const view = segmentView(segment);
  const destination = (view.destinations as Array<Record<string, unknown>>)[0] ?? {};
  return {
    status: 200,
    body: {
      id: segment.adSegmentId,
      name: segment.name,
      account: segment.account,
      status: destination.status,
      approximateMemberCount: destination.audienceSize ?? 0,
    },
  };
};
