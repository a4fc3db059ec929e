import type { FunctionDeclaration } from '../shared/function-declaration.ts';
import { declaration as createUser } from './create-user.declaration.ts';
import { declaration as getProfile } from './get-profile.declaration.ts';
import { declaration as getCampaignOptimizationHistory } from './get-campaign-optimization-history.declaration.ts';
import { declaration as recordCampaignOptimization } from './record-campaign-optimization.declaration.ts';
import { declaration as getAdAccountMedia } from './get-ad-account-media.declaration.ts';
import { declaration as getPhotoPageMedia } from './get-photo-page-media.declaration.ts';
import { declaration as searchTargetingLocations } from './search-targeting-locations.declaration.ts';
import { declaration as getCampaignsList } from './get-campaigns-list.declaration.ts';
import { declaration as createLeadForm } from './create-lead-form.declaration.ts';
import { declaration as createSocialCsvAudience } from './create-social-csv-audience.declaration.ts';
import { declaration as getSearchAdsResult } from './get-search-ads-result.declaration.ts';
import { declaration as createSearchCampaign } from './create-search-campaign.declaration.ts';
import { declaration as createProfessionalCsvAudience } from './create-professional-csv-audience.declaration.ts';
import { declaration as openapiDocument } from './openapi-document.declaration.ts';
import { declaration as apiReferencePage } from './api-reference-page.declaration.ts';
import { declaration as apiReferenceScript } from './api-reference-script.declaration.ts';
import { declaration as disconnectUser } from './disconnect-user.declaration.ts';
import { declaration as getTenantSettings } from './get-tenant-settings.declaration.ts';
import { declaration as updateTenantSettings } from './update-tenant-settings.declaration.ts';
import { declaration as listWebhookEvents } from './list-webhook-events.declaration.ts';
import { declaration as sendTestWebhook } from './send-test-webhook.declaration.ts';
import { declaration as createLink } from './create-link.declaration.ts';
import { declaration as connectStart } from './connect-start.declaration.ts';
import { declaration as connectCallback } from './connect-callback.declaration.ts';
import { declaration as showAccountPicker } from './show-account-picker.declaration.ts';
import { declaration as chooseAccount } from './choose-account.declaration.ts';
import { declaration as createUpload } from './create-upload.declaration.ts';
import { declaration as getJob } from './get-job.declaration.ts';
export { declaration as fallbackRoute } from './route-not-found.declaration.ts';

/**
 * The route table, gathered from the declarations beside the handlers: the local gateway serves it,
 * the CDK stack deploys it and the OpenAPI document describes it, so none of them can drift.
 */
export type Route = FunctionDeclaration;

export const routes: readonly Route[] = [
  createUser, getProfile, disconnectUser, getCampaignOptimizationHistory, recordCampaignOptimization, getAdAccountMedia, getPhotoPageMedia, searchTargetingLocations, getCampaignsList, createLeadForm, createSocialCsvAudience, getSearchAdsResult, createSearchCampaign, createProfessionalCsvAudience, createUpload, getJob, getTenantSettings, updateTenantSettings, listWebhookEvents, sendTestWebhook, createLink, connectStart, connectCallback, showAccountPicker, chooseAccount, openapiDocument, apiReferencePage, apiReferenceScript,
];

/** A route path as a pattern: `{name}` matches one non-empty path segment. */
function pathPattern(path: string): RegExp {
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
  return new RegExp(`^${source}$`);
}
/** A path segment as API Gateway hands it over: percent-decoded, or as it came when it does not decode. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
const patterns = new Map(routes.map((route) => [route, pathPattern(route.path)]));

/** The route for a request, its path parameters, and the methods its path allows (for 405). */
export function findRoute(method: string, path: string): { route?: Route; allowed: string[]; pathParameters?: Record<string, string> } {
  const samePath = routes
    .map((route) => ({ route, match: (patterns.get(route) as RegExp).exec(path) }))
    .filter((candidate): candidate is { route: Route; match: RegExpExecArray } => candidate.match !== null);
  const chosen = samePath.find(({ route }) => route.method === method);
  const pathParameters = chosen?.match.groups ? Object.fromEntries(Object.entries(chosen.match.groups).map(([name, value]) => [name, decodedSegment(value)])) : undefined;
  return { route: chosen?.route, allowed: samePath.map(({ route }) => route.method), ...(pathParameters ? { pathParameters } : {}) };
}
