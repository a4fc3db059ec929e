import { createHmac } from 'node:crypto';
import { findCampaign } from './social-campaigns.ts';
import type { Row } from './social-data.ts';
import {
  type NodeType,
  EFFECTIVE_STATUSES,
  LOCATION_TYPES,
  graphError,
  unknownObject,
  requestedFields,
  project,
  parseLimit,
  page,
  usageHeaders,
  withHeaders,
  parseJsonArray,
  fold,
} from './social-graph.ts';
import { reportRunStatus } from './social-insights.ts';
import { childrenOf, filtered, launchObjectRow, type MediaCheck } from './social-launch.ts';
import { uploadedVideoStatus } from './social-videos.ts';

import type { SocialHandler, SocialState } from './social-state.ts';

/** The Graph nodes and edges the social sandbox answers from its state (routed by social.ts). */
export function accountEdge(edge: 'images' | 'videos' | 'campaigns', node: NodeType): SocialHandler {
  return (call, state, { account }) => {
    const rows = state[edge].get(account as string);
    if (!rows) return unknownObject('GET', `act_${account}`);
    const fields = requestedFields(call, node);
    if (!Array.isArray(fields)) return fields;
    let selected = rows;
    if (edge === 'images' && call.params.hashes !== undefined) {
      const hashes = parseJsonArray(call.params.hashes, 'hashes');
      if (!Array.isArray(hashes)) return hashes;
      selected = rows.filter((row) => hashes.includes(String(row.hash)));
    }
    if (edge === 'campaigns') {
      const filter =
        call.params.effective_status === undefined
          ? ['ACTIVE', 'PAUSED', 'IN_PROCESS', 'WITH_ISSUES']
          : parseJsonArray(call.params.effective_status, 'effective_status');
      if (!Array.isArray(filter)) return filter;
      const unknown = filter.find((status) => !EFFECTIVE_STATUSES.includes(status));
      if (unknown) return graphError(100, `(#100) Param effective_status[0] must be one of {${EFFECTIVE_STATUSES.join(', ')}}`);
      selected = rows.filter((row) => filter.includes(String(row.effective_status)));
      const kept = filtered(selected, call.params.filtering);
      if (!Array.isArray(kept)) return kept;
      selected = kept;
    }
    return withHeaders(
      page(call, `act_${account}/${edge === 'images' ? 'adimages' : edge === 'videos' ? 'advideos' : 'campaigns'}`, selected, fields),
      usageHeaders(account),
    );
  };
}

export const getPhotoMedia: SocialHandler = (call, state, { node }) => {
  const rows = state.photoMedia.get(node as string);
  if (!rows) return unknownObject('GET', node as string);
  const fields = requestedFields(call, 'IGMedia');
  if (!Array.isArray(fields)) return fields;
  return page(call, `${node}/media`, rows, fields);
};

export const search: SocialHandler = (call, state) => {
  if (call.params.type !== 'adgeolocation')
    return graphError(100, '(#100) Param type must be one of {adgeolocation, adinterest, adeducationschool, adworkemployer, adlocale}');
  const query = call.params.q;
  if (query === undefined || String(query).trim() === '') return graphError(100, '(#100) The parameter q is required');
  let types = ['country', 'region', 'city', 'zip'];
  if (call.params.location_types !== undefined) {
    const parsed = parseJsonArray(call.params.location_types, 'location_types');
    if (!Array.isArray(parsed)) return parsed;
    const unknown = parsed.find((type) => !LOCATION_TYPES.includes(type));
    if (unknown) return graphError(100, `(#100) Param location_types[0] must be one of {${LOCATION_TYPES.join(', ')}}`);
    // a city search also returns entries reclassified below city level
    types = parsed.includes('city') ? [...parsed, 'subcity', 'neighborhood'] : parsed;
  }
  const limit = parseLimit(call, 25, 1000);
  if (typeof limit !== 'number') return limit;
  const needle = fold(String(query).trim());
  const data = state.locations
    .filter((location) => types.includes(String(location.type)))
    .filter((location) =>
      fold(String(location.name))
        .split(/[\s-]+/)
        .some((word, index, words) => word.startsWith(needle) || words.slice(index).join(' ').startsWith(needle)),
    )
    .filter((location) => call.params.country_code === undefined || location.country_code === call.params.country_code)
    .slice(0, limit);
  return { status: 200, body: { data } };
};

export function pageToken(state: SocialState, pageId: string, userToken: string): string {
  const token = `EAAPage${createHmac('sha256', pageId).update(userToken).digest('hex').slice(0, 32)}`;
  state.pageTokens.set(token, pageId);
  return token;
}

export const NODE_OF = { adset: 'AdSet', creative: 'AdCreative', ad: 'Ad' } as const;

/** `GET /{campaign}/adsets` and `GET /{adset}/ads`: the children not deleted, with `filtering`. */
export function launchEdge(kind: 'adset' | 'ad'): SocialHandler {
  return (call, state, { node }) => {
    const parent = node as string;
    const owner = kind === 'adset' ? findCampaign(state.world, parent)?.account : state.world.objects.get(parent)?.account;
    if (!owner) return unknownObject('GET', parent);
    const fields = requestedFields(call, NODE_OF[kind]);
    if (!Array.isArray(fields)) return fields;
    const kept = filtered(childrenOf(state.world, parent, kind), call.params.filtering);
    if (!Array.isArray(kept)) return kept;
    return withHeaders(page(call, `${parent}/${kind === 'adset' ? 'adsets' : 'ads'}`, kept, fields), usageHeaders(owner));
  };
}

/** `GET act_{id}/adcreatives`: the account's creatives, newest first, with `filtering` (name). */
export const accountCreatives: SocialHandler = (call, state, { account }) => {
  if (!state.campaigns.has(account as string)) return unknownObject('GET', `act_${account}`);
  const fields = requestedFields(call, 'AdCreative');
  if (!Array.isArray(fields)) return fields;
  const rows = [...state.world.objects.values()]
    .filter((object) => object.kind === 'creative' && object.account === account && object.status !== 'DELETED')
    .sort((a, b) => b.createdAtMs - a.createdAtMs)
    .map((object) => launchObjectRow(state.world, object));
  const kept = filtered(rows, call.params.filtering);
  if (!Array.isArray(kept)) return kept;
  return withHeaders(page(call, `act_${account}/adcreatives`, kept, fields), usageHeaders(account as string));
};

/** What a creative may name: the account's images, its videos once ready, the Pages the sandbox knows. */
export function mediaCheck(state: SocialState): MediaCheck {
  return {
    imageKnown: (account, hash) => (state.images.get(account) ?? []).some((image) => image.hash === hash),
    videoReady: (account, id) => {
      const status = uploadedVideoStatus(state.videoUploads, id);
      if (status) return (status.body as { status?: { video_status?: string } }).status?.video_status === 'ready';
      return (state.videos.get(account) ?? []).some((video) => video.id === id);
    },
    pageAllowed: (pageId) => state.pages.has(pageId),
  };
}

/** `GET /{video}/thumbnails`: two frames of a processed video (none while it processes). */
export const videoThumbnails: SocialHandler = (_call, state, { node }) => {
  const id = node as string;
  const status = uploadedVideoStatus(state.videoUploads, id);
  const known = status !== undefined || [...state.videos.values()].some((videos) => videos.some((video) => video.id === id));
  if (!known) return unknownObject('GET', `${id}/thumbnails`);
  const ready = !status || (status.body as { status?: { video_status?: string } }).status?.video_status === 'ready';
  const frame = (index: number) => ({
    id: `${id.slice(0, 10)}9${String(index).padStart(5, '0')}`,
    uri: `https://scontent.xx.fbcdn.net/v/t15.5256-10/${id}_thumb_${index}.jpg`,
    is_preferred: index === 1,
    width: 1280,
    height: 720,
  });
  return { status: 200, body: { data: ready ? [frame(1), frame(2)] : [] } };
};

export const getNode: SocialHandler = (call, state, { node }) => {
  const id = node as string;
  const video = uploadedVideoStatus(state.videoUploads, id);
  if (video) return video;
  const run = state.reportRuns.get(id);
  if (run) return reportRunStatus(run, id);
  const pageRecord = state.pages.get(id);
  if (pageRecord) {
    const fields = requestedFields(call, 'Page');
    if (!Array.isArray(fields)) return fields;
    const row: Row = {
      id,
      name: pageRecord.name,
      category: 'Clothing (Brand)',
      tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MANAGE'],
      ...(pageRecord.photoAccountId ? { instagram_business_account: { id: pageRecord.photoAccountId } } : {}),
      ...(fields.includes('access_token') ? { access_token: pageToken(state, id, call.token) } : {}),
    };
    return { status: 200, body: project(row, fields) };
  }
  const audience = state.audiences.get(id);
  if (audience) {
    const row: Row = {
      id,
      account_id: audience.accountId,
      name: audience.name,
      subtype: audience.subtype,
      approximate_count_lower_bound: audience.memberCount,
      operation_status: { code: 200, description: 'Normal' },
    };
    return { status: 200, body: project(row, String(call.params.fields ?? 'id').split(',')) };
  }
  const form = state.leadForms.get(id);
  if (form) {
    const fields = requestedFields(call, 'LeadgenForm');
    if (!Array.isArray(fields)) return fields;
    return { status: 200, body: project(form, fields) };
  }
  const launched = state.world.objects.get(id);
  if (launched) {
    const fields = requestedFields(call, NODE_OF[launched.kind]);
    if (!Array.isArray(fields)) return fields;
    return withHeaders({ status: 200, body: project(launchObjectRow(state.world, launched), fields) }, usageHeaders(launched.account));
  }
  const campaign = findCampaign(state.world, id);
  if (campaign) {
    const fields = requestedFields(call, 'Campaign');
    if (!Array.isArray(fields)) return fields;
    return withHeaders({ status: 200, body: project({ ...campaign.row, account_id: campaign.account }, fields) }, usageHeaders(campaign.account));
  }
  return unknownObject('GET', id);
};
