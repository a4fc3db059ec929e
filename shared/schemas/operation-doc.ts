import * as z from 'zod';
import { platformSchema } from './common.ts';
import {
  adMediaJobEndSchema,
  audienceJobEndSchema,
  campaignLaunchJobEndSchema,
  conversionsJobEndSchema,
  reportExportJobEndSchema,
  leadsBackfillJobEndSchema,
  ruleUndoJobEndSchema,
} from './jobs.ts';
import { normalizedLeadSchema } from './leads.ts';
import type { InBandRefusal } from './refusals.ts';
import { day } from './example-dates.ts';

/**
 * What the OpenAPI document says of an operation: its request and result schemas (the same zod
 * schemas the handler validates with), a summary and examples. Each operation's own `api.ts` in its
 * folder holds one; only the document's generator reads them, so no function bundle carries another
 * operation's schemas. The webhook events' bodies are described here, once.
 */
/** The document's tags, in its order, with what each groups: an operation names one, and the document lists these. */
export const API_TAGS = {
  Users: 'Users of your tenant and their platform connections.',
  Connect: 'Hosted connect links: the person connects their own ad account; the browser routes need no API key.',
  Optimization: 'Campaign optimization history.',
  Social: 'The social platform: media, locations, campaigns, lead forms.',
  Audiences: 'Contact-list audiences from CSV uploads.',
  'Ad media': 'Images and videos into users’ ad accounts, on the social and professional platforms.',
  'Launching campaigns': 'Whole campaigns made in one call by a job, all or nothing: what it made is undone when it cannot finish.',
  'Campaign control':
    'Pause, resume, delete and re-budget campaigns on every platform; each applied change lands in the optimization history and the audit log.',
  'Search ads': 'Search campaigns and their statistics.',
  Jobs: 'Long-running work started by another operation (a contact list, a video, a launch): its status, progress and outcome.',
  Tenant: 'Your settings: connect-link redirect URIs and the webhook.',
  Leads: 'The leads your users’ lead forms and lead campaigns collect, as they come (the `lead.received` webhook), listed, backfilled and erased.',
  Conversions:
    'What becomes of a lead (a call booked, a deal won) sent back to the platforms, once, so that their campaigns optimize for customers: the user’s CRM stages mapped to each platform’s destinations.',
  Reports: 'Results broken down by level (campaign, ad set, ad) and by one value (age, placement, job function, …), with the cost per qualified lead.',
  Agents:
    'The whole API for AI agents, as a Model Context Protocol server: one tool per operation, and writes that wait for a person’s confirmation (docs/agents.md).',
} as const;
export type ApiTag = keyof typeof API_TAGS;

export interface OperationDoc {
  summary: string;
  description: string;
  tag: ApiTag;
  request: z.core.$ZodType;
  result: z.core.$ZodType;
  /** the file part of a multipart/form-data request */
  fileField?: string;
  /** an upload operation's JSON body instead: the fields and the uploadId of a file sent with create_upload */
  fromUpload?: { request: z.core.$ZodType; requestExample: Record<string, unknown> };
  requestExample: Record<string, unknown>;
  resultExample: Record<string, unknown>;
  /**
   * The refusals this operation answers in band (HTTP 200, `results.success` false) besides the
   * platform's own (PLATFORM_REJECTED, PLATFORM_AUTH_EXPIRED): the document lists exactly these for it,
   * and the stack tests hold every answer to the document.
   */
  refusals?: readonly InBandRefusal[];
  /** an `accepted` (202) operation that can also answer at once (a dry run): that 200 answer */
  answeredNow?: { description: string; result: z.core.$ZodType; resultExample: Record<string, unknown> };
}

export { BUDGET_REFUSALS, DECLARATION_REFUSAL, STATUS_REFUSALS, type InBandRefusal } from './refusals.ts';
export { connectionHealth } from './connection-health.ts';
export { day };

const platformName = platformSchema;
const conversionEventData = z.object({
  eventId: z.string(),
  userId: z.string(),
  platform: platformSchema,
  destinationId: z.string(),
  stage: z.string(),
  status: z.enum(['delivered', 'rejected', 'unknown']),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
const connectionData = z.object({ userId: z.string(), platform: platformName, status: z.string() });
export { launchOrphanSchema, launchPlatformDetailSchema } from './jobs.ts';

/** The body's `data` of each webhook event type (docs/decisions.md "Webhooks"), for the document's `webhooks`. */
/** The routes a person's browser follows while connecting (no API key; redirects and HTML pages). */
/** A route that answers another protocol than the envelope (`/mcp`: JSON-RPC, as the Model Context Protocol defines it). */
export interface ProtocolRouteDoc {
  summary: string;
  description: string;
  tag: ApiTag;
  requestExample: Record<string, unknown>;
  responseExample: Record<string, unknown>;
}

export interface BrowserRouteDoc {
  summary: string;
  description: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  responses: Record<string, string>;
}

export const webhookEventDocs: Record<string, { summary: string; data: z.core.$ZodType; example: Record<string, unknown> }> = {
  'connection.connected': {
    summary: 'A user connected a platform through a connect link.',
    data: connectionData,
    example: { userId: 'alice', platform: 'social', status: 'active' },
  },
  'connection.reconnect_required': {
    summary: 'A connection’s grant expired or was revoked: send the user a new connect link.',
    data: connectionData,
    example: { userId: 'alice', platform: 'searchads', status: 'reconnect_required' },
  },
  'connection.disconnected': {
    summary: 'A connection was removed.',
    data: connectionData,
    example: { userId: 'alice', platform: 'professional', status: 'disconnected' },
  },
  'audience_job.succeeded': {
    summary: 'An audience job ended with the audience built.',
    data: audienceJobEndSchema,
    example: {
      jobId: 'job_1',
      userId: 'alice',
      type: 'social_audience',
      status: 'succeeded',
      result: {
        audienceId: '23851234567890123',
        audienceName: 'Newsletter subscribers',
        invalid_entry_samples: {},
        num_invalid_entries: 0,
        num_received: 200000,
        session_id: '7184021',
      },
    },
  },
  'audience_job.failed': {
    summary: 'An audience job ended without the audience.',
    data: audienceJobEndSchema,
    example: {
      jobId: 'job_1',
      userId: 'alice',
      type: 'social_audience',
      status: 'failed',
      error: { code: 'PLATFORM_REJECTED', message: 'The platform refused the list.' },
    },
  },
  'ad_media.ready': {
    summary: 'A video job ended with the video in the ad account, processed: `result.media.id` is what a creative names.',
    data: adMediaJobEndSchema,
    example: {
      jobId: 'job_2',
      userId: 'alice',
      type: 'ad_media',
      status: 'succeeded',
      result: { media: { type: 'VIDEO', id: '1209876543210001', status: 'ready' } },
    },
  },
  'ad_media.failed': {
    summary: 'A video job ended without the video: the platform refused it or could not process it.',
    data: adMediaJobEndSchema,
    example: {
      jobId: 'job_2',
      userId: 'alice',
      type: 'ad_media',
      status: 'failed',
      error: { code: 'MEDIA_PROCESSING_FAILED', message: 'The platform could not process the video: the file is in a format it does not support.' },
    },
  },
  'campaign_launch.succeeded': {
    summary: 'A launch made every object: `result` has the campaign, its ad set and each ad with its creative, and the campaign’s status.',
    data: campaignLaunchJobEndSchema,
    example: {
      jobId: 'job_3',
      userId: 'alice',
      type: 'campaign_launch',
      status: 'succeeded',
      result: {
        campaignId: '120210987000300101',
        adSetId: '120210987000300201',
        ads: [{ adId: '120210987000300401', creativeId: '120210987000300301' }],
        status: 'PAUSED',
      },
    },
  },
  'campaign_launch.failed': {
    summary:
      'A launch ended without its campaign: `error` says why (the platform’s code, subcode, title and message in `error.platform`), `rolledBack` whether everything it made is gone, `orphans` what could not be deleted (paused, spending nothing) and what a create whose answer was lost may have made (`id: null`, `possible: true`).',
    data: campaignLaunchJobEndSchema,
    example: {
      jobId: 'job_3',
      userId: 'alice',
      type: 'campaign_launch',
      status: 'failed',
      error: {
        code: 'ACCOUNT_NOT_ELIGIBLE',
        message: 'The platform refused the ad of ad 1: No Payment Method',
        platform: { code: 100, subcode: 1359188, userTitle: 'No Payment Method', userMessage: 'Add a payment method to the ad account.' },
      },
      rolledBack: true,
      orphans: [],
    },
  },
  'optimization.applied': {
    summary: 'A rule changed a campaign (its status or its daily budget); the change is in the campaign’s history and the audit log.',
    data: z.object({
      userId: z.string(),
      platform: z.enum(['social', 'searchads', 'professional']),
      campaignId: z.string(),
      ruleId: z.string(),
      proposalId: z.string().optional().describe('The proposal a person approved, when the rule asked first.'),
      change: z.object({ field: z.enum(['status', 'dailyBudget']), from: z.unknown(), to: z.unknown() }),
    }),
    example: {
      userId: 'alice',
      platform: 'social',
      campaignId: '120210987000000107',
      ruleId: 'rule_5b1c',
      change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' },
    },
  },
  'optimization.proposed': {
    summary: 'A rule in mode approve matched and proposes a change: approve or reject it with decide_proposal before `expiresAt` (list_proposals shows it).',
    data: z.object({
      userId: z.string(),
      platform: z.enum(['social', 'searchads', 'professional']),
      ruleId: z.string(),
      campaignId: z.string(),
      proposalId: z.string(),
      action: z.object({ type: z.string(), from: z.string(), to: z.string() }),
      expiresAt: z.string(),
    }),
    example: {
      userId: 'alice',
      platform: 'social',
      ruleId: 'rul_5f0c1b2a3d4e5f60718293a4',
      campaignId: '120210987000000107',
      proposalId: 'prp_1790000000000_3c9a1f0b7d2e',
      action: { type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED' },
      expiresAt: `${day(1)}T09:00:02.000Z`,
    },
  },
  'optimization.matched': {
    summary: 'A rule in mode notify matched a campaign: nothing was changed; the metrics it matched on are in `metrics`.',
    data: z.object({
      userId: z.string(),
      platform: z.enum(['social', 'searchads', 'professional']),
      ruleId: z.string(),
      campaignId: z.string(),
      runId: z.string(),
      metrics: z.record(z.string(), z.string().nullable()),
    }),
    example: {
      userId: 'alice',
      platform: 'social',
      ruleId: 'rul_5f0c1b2a3d4e5f60718293a4',
      campaignId: '120210987000000107',
      runId: 'run_1790000000000_5f0c1b2a3d4e5f60718293a4',
      metrics: { 'cpc.LAST_3_DAYS': '1.52', 'cpc.LAST_14_DAYS': '1.20', 'cpc.LAST_3_DAYS.vs.LAST_14_DAYS': '26.6667' },
    },
  },
  'optimization.rule_disabled': {
    summary: 'A rule whose actions failed in 3 runs in a row was disabled: fix the cause and enable it again.',
    data: z.object({ userId: z.string(), ruleId: z.string(), reason: z.string().optional() }),
    example: { userId: 'alice', ruleId: 'rule_5b1c', reason: 'its actions failed in 3 runs in a row (the last: PLATFORM_REJECTED)' },
  },
  'searchads.declaration_required': {
    summary:
      'A search-ads account refused a campaign write because some of its campaigns lack the EU political-advertising declaration (at most once a day per account): declare them with /searchads/declare_eu_political_advertising.',
    data: z.object({ userId: z.string(), customerId: z.string(), campaignIds: z.array(z.string()) }),
    example: { userId: 'alice', customerId: '1234567890', campaignIds: ['21234567890'] },
  },
  'conversion.delivered': {
    summary: 'A conversion reached its destination: the platform took the event (per event and destination; no person’s data).',
    data: conversionEventData,
    example: { eventId: 'lead_3f2a…', userId: 'alice', platform: 'social', destinationId: '771122334455667', stage: 'Qualified', status: 'delivered' },
  },
  'conversion.rejected': {
    summary: 'The platform refused a conversion (its code and a message that quotes no value of the person), or it could not be sent there.',
    data: conversionEventData,
    example: {
      eventId: 'lead_3f2a…',
      userId: 'alice',
      platform: 'professional',
      destinationId: '700000101',
      stage: 'Qualified',
      status: 'rejected',
      error: { code: 'DESTINATION_NOT_FOUND', message: 'The platform no longer takes conversions for this rule.' },
    },
  },
  'conversion.unknown': {
    summary: 'A conversion’s request went out and its answer was lost, on a platform that does not deduplicate (professional): it is not sent again.',
    data: conversionEventData,
    example: { eventId: 'lead_3f2a…', userId: 'alice', platform: 'professional', destinationId: '700000101', stage: 'Won', status: 'unknown' },
  },
  'conversions_job.succeeded': {
    summary:
      'A /conversions/send job ended: every event of the call reached its end on each platform (`result` counts them per status; each event’s own end came as a conversion.* webhook).',
    data: conversionsJobEndSchema,
    example: {
      jobId: 'job_6',
      userId: 'alice',
      type: 'conversions',
      status: 'succeeded',
      result: { events: 3, alreadySent: 0, platforms: { social: { delivered: 2, skipped_consent: 1 }, searchads: { delivered: 2, skipped_no_identifier: 1 } } },
    },
  },
  'conversions_job.failed': {
    summary: 'A /conversions/send job stopped before every event ended: `error` says why; each event ended so far came as a conversion.* webhook.',
    data: conversionsJobEndSchema,
    example: {
      jobId: 'job_6',
      userId: 'alice',
      type: 'conversions',
      status: 'failed',
      error: { code: 'PLATFORM_AUTH_EXPIRED', message: 'The user’s social grant expired; connect again.' },
    },
  },
  'report.ready': {
    summary:
      'A report export is written: `result.url` downloads the gzipped file for 24 hours (`result.expiresAt`); the file is deleted 7 days after it was made.',
    data: reportExportJobEndSchema,
    example: {
      jobId: 'job_7',
      userId: 'alice',
      type: 'report_export',
      status: 'succeeded',
      result: { url: 'https://bucket.s3.amazonaws.com/exports/…', format: 'csv', rows: 1200, bytes: 48213, expiresAt: `${day(1)}T08:00:00.000Z`, notes: [] },
    },
  },
  'report_export.failed': {
    summary: 'A report export ended without its file: `error` says why.',
    data: reportExportJobEndSchema,
    example: {
      jobId: 'job_7',
      userId: 'alice',
      type: 'report_export',
      status: 'failed',
      error: { code: 'PLATFORM_AUTH_EXPIRED', message: 'The user’s social grant expired; connect again.' },
    },
  },
  'lead.received': {
    summary:
      'A person submitted a lead form of a subscribed Page (social) or ad account (professional): the lead, once per lead, whether a platform webhook, the sweep or a backfill found it.',
    data: z.object({ userId: z.string(), platform: z.enum(['social', 'professional']), lead: normalizedLeadSchema }),
    example: {
      userId: 'alice',
      platform: 'social',
      lead: {
        leadId: '1357924680135791',
        platform: 'social',
        formId: '998877665544332',
        campaignId: '120210987000300101',
        adSetId: '120210987000300201',
        adId: '120210987000300401',
        createdAt: `${day(-1)}T09:14:05.000Z`,
        isTest: false,
        fields: { fullName: 'Jordan Example', email: 'jordan@example.com', phone: '+15555550123' },
        answers: [
          { key: 'q1', question: 'Full name', value: 'Jordan Example' },
          { key: 'q2', question: 'Email', value: 'jordan@example.com' },
          { key: 'q3', question: 'Phone number', value: '+15555550123' },
        ],
        consents: [],
      },
    },
  },
  'leads.access_missing': {
    summary:
      'A subscribed Page’s or account’s leads cannot be read with the user’s connection: the business’s own leads-access settings (or the member’s roles) leave it out. Its leads arrive once access is given (the sweep reads them).',
    data: z.object({ userId: z.string(), platform: z.enum(['social', 'professional']), target: z.string() }),
    example: { userId: 'alice', platform: 'social', target: '109876543210987' },
  },
  'leads_backfill.succeeded': {
    summary: 'A backfill read the platform’s leads since its `since`: `result` says how many it found and how many were new.',
    data: leadsBackfillJobEndSchema,
    example: { jobId: 'job_4', userId: 'alice', type: 'leads_backfill', status: 'succeeded', result: { leadsFound: 12, leadsDelivered: 3 } },
  },
  'leads_backfill.failed': {
    summary: 'A backfill ended before it read every lead: `error` says why.',
    data: leadsBackfillJobEndSchema,
    example: {
      jobId: 'job_4',
      userId: 'alice',
      type: 'leads_backfill',
      status: 'failed',
      error: { code: 'PLATFORM_AUTH_EXPIRED', message: 'The user’s social grant expired; connect again.' },
    },
  },
  'rule_undo.succeeded': {
    summary:
      'An undo that went on as a job (it did not end within its request) set back every change of its run: `result` is what undo_rule_run answers for the run from then on.',
    data: ruleUndoJobEndSchema,
    example: {
      jobId: 'job_5',
      userId: 'alice',
      type: 'rule_undo',
      status: 'succeeded',
      result: {
        runId: 'run_1795858800000_0123456789abcdef01234567',
        status: 'undone',
        undoneAt: `${day(1)}T08:00:00.000Z`,
        actions: [{ campaignId: '120210987000000100', type: 'PAUSE', from: 'PAUSED', to: 'ACTIVE', outcome: 'applied' }],
      },
    },
  },
  'rule_undo.failed': {
    summary: 'An undo that went on as a job ended before it set back every change: `error` says why; undo_rule_run again takes it up where it stopped.',
    data: ruleUndoJobEndSchema,
    example: {
      jobId: 'job_5',
      userId: 'alice',
      type: 'rule_undo',
      status: 'failed',
      error: { code: 'PLATFORM_AUTH_EXPIRED', message: 'The user’s social grant expired; connect again.' },
    },
  },
  'webhook.test': {
    summary: 'Sent by send_test_webhook.',
    data: z.object({ message: z.string() }),
    example: { message: 'A test event: your webhook endpoint is reachable and verifies our signature.' },
  },
};
