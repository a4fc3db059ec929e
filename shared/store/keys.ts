import type { Platform } from '../core/errors.ts';

/**
 * Every key layout of the main table, in one place (single-table design; docs/architecture.md, "The
 * main table"). A partition key names what owns the items; a sort key orders them. Numbers in sort
 * keys are zero-padded so that the string order is the numeric order.
 */
type Key = { pk: string; sk: string };

const tenant = (tenantId: string) => `TENANT#${tenantId}`;
const padded = (value: number, digits: number) => String(value).padStart(digits, '0');

export const keys = {
  /** a tenant's name, unique across tenants */
  tenantName: (tenantName: string): Key => ({ pk: `TENANTNAME#${tenantName}`, sk: 'TENANTNAME' }),
  tenantPrefix: 'TENANT#',
  tenantIdOf: (pk: string) => pk.slice('TENANT#'.length),
  /** an API key's listing under its tenant */
  apiKeyListing: (tenantId: string, keyId: string): Key => ({ pk: tenant(tenantId), sk: `KEY#${keyId}` }),
  apiKeyListingPrefix: 'KEY#',
  /** an API key by its hash: the lookup each request makes */
  apiKeyByHash: (keyHash: string): Key => ({ pk: `KEY#${keyHash}`, sk: 'KEY' }),
  settings: (tenantId: string): Key => ({ pk: tenant(tenantId), sk: 'SETTINGS' }),
  user: (tenantId: string, userId: string): Key => ({ pk: `${tenant(tenantId)}#USER#${userId}`, sk: 'USER' }),
  rateWindow: (tenantId: string, rule: string, windowStart: number): Key => ({ pk: `${tenant(tenantId)}#RATE`, sk: `${rule}#${windowStart}` }),

  /** a campaign's optimization history: one partition, an entry per sort key */
  historyPk: (tenantId: string, userId: string, campaignId: string) => `${tenant(tenantId)}#USER#${userId}#CAMPAIGN#${campaignId}`,
  historyEntry: (sequence: number) => `ENTRY#${padded(sequence, 12)}`,
  historyEntryPrefix: 'ENTRY#',
  historySequenceOf: (sk: string) => Number(sk.slice('ENTRY#'.length)),

  /** a conversion event (sk EVENT) and its delivery to each destination (sk TO#<platform>#<destinationId>), one partition an event */
  conversionPk: (tenantId: string, eventId: string) => `${tenant(tenantId)}#CONVERSION#${eventId}`,
  conversionEvent: 'EVENT',
  conversionDelivery: (platform: Platform, destinationId: string) => `TO#${platform}#${destinationId}`,
  conversionDeliveryPrefix: 'TO#',
  /** a user's conversion events, newest first by creation, each with where it stands on each platform (list_events) */
  conversionsPk: (tenantId: string, userId: string) => `${tenant(tenantId)}#USER#${userId}#CONVERSIONS`,
  conversionListing: (createdAt: string, eventId: string) => `${createdAt}#${eventId}`,
  /** the outcomes reported for a user's leads on a platform, counted per (day, campaign, stage): reports read them */
  outcomeCountsPk: (tenantId: string, userId: string, platform: Platform) => `${tenant(tenantId)}#USER#${userId}#OUTCOMES#${platform}`,
  /** a lead's reported outcome at one stage, beside the lead's marker: once per (lead, stage) */
  leadOutcome: (tenantId: string, platform: Platform, leadId: string, stage: string): Key => ({
    pk: `${tenant(tenantId)}#LEAD#${platform}#${leadId}`,
    sk: `OUTCOME#${stage.toLowerCase()}`,
  }),
  /** a user's CRM funnel mapped to each platform's conversion destination */
  conversionStages: (tenantId: string, userId: string): Key => ({ pk: `${tenant(tenantId)}#USER#${userId}`, sk: 'CONVERSION_STAGES' }),

  professionalAudience: (tenantId: string, userId: string, csvFileId: string): Key => ({
    pk: `${tenant(tenantId)}#USER#${userId}#PROFESSIONAL_AUDIENCE`,
    sk: csvFileId,
  }),

  /** a direct upload's record (its object, its claim by a job) */
  searchadsAudience: (tenantId: string, userId: string, audienceId: string): Key => ({
    pk: `${tenant(tenantId)}#USER#${userId}#SEARCHADS_AUDIENCE`,
    sk: audienceId,
  }),
  /** the one job writing to a search-ads list at a time (append, remove, replace run one after the other) */
  searchadsListWriter: (tenantId: string, audienceId: string): Key => ({ pk: `${tenant(tenantId)}#SEARCHADS_LIST#${audienceId}`, sk: 'WRITER' }),
  directUpload: (tenantId: string, uploadId: string): Key => ({ pk: `${tenant(tenantId)}#UPLOAD#${uploadId}`, sk: 'DIRECT' }),
  job: (tenantId: string, jobId: string): Key => ({ pk: `${tenant(tenantId)}#JOB#${jobId}`, sk: 'JOB' }),
  /** a write an AI agent asked for over MCP: its confirmation, and the origin its route's audit reads (docs/agents.md) */
  agentAction: (tenantId: string, actionId: string): Key => ({ pk: `${tenant(tenantId)}#AGENT_ACTION#${actionId}`, sk: 'ACTION' }),

  connectLink: (linkId: string): Key => ({ pk: `CONNECT_LINK#${linkId}`, sk: 'LINK' }),
  connectAttempt: (stateHash: string): Key => ({ pk: `CONNECT_STATE#${stateHash}`, sk: 'ATTEMPT' }),
  connectSelection: (attemptId: string): Key => ({ pk: `CONNECT_SELECT#${attemptId}`, sk: 'SELECTION' }),
  grantHoldersPk: (platform: Platform, grantRef: string) => `GRANT#${platform}#${grantRef}`,
  grantHolder: (platform: Platform, grantRef: string, tenantId: string, userId: string): Key => ({
    pk: `GRANT#${platform}#${grantRef}`,
    sk: `${tenantId}#${userId}`,
  }),

  /** a tenant's webhook events, oldest first by creation time */
  webhookEventsPk: (tenantId: string) => `${tenant(tenantId)}#WEBHOOKS`,
  webhookEvent: (createdAtMs: number, id: string) => `EVENT#${padded(createdAtMs, 13)}#${id}`,
  webhookEventPrefix: 'EVENT#',
  /** when an event was created, as its sort key says */
  webhookEventCreatedAt: (sk: string) => Number(sk.split('#')[1]),
  /** the budget changes we made to one campaign of a platform in the last hour (the platform's own per-object limit) */
  budgetChanges: (platform: Platform, campaignId: string): Key => ({ pk: `BUDGET_CHANGES#${platform}#${campaignId}`, sk: 'LOG' }),
  /** a platform campaign of a tenant, whoever of its users acts on it: its applied changes by time, and its control lease */
  campaignPk: (tenantId: string, platform: Platform, campaignId: string) => `${tenant(tenantId)}#CAMPAIGN#${platform}#${campaignId}`,
  campaignChange: (tenantId: string, platform: Platform, campaignId: string, atMs: number, id: string): Key => ({
    pk: `${tenant(tenantId)}#CAMPAIGN#${platform}#${campaignId}`,
    sk: `CHANGE#${padded(atMs, 13)}#${id}`,
  }),
  campaignChangeFrom: (atMs: number) => `CHANGE#${padded(atMs, 13)}`,
  campaignChangeLast: 'CHANGE#~',
  campaignLease: (tenantId: string, platform: Platform, campaignId: string): Key => ({
    pk: `${tenant(tenantId)}#CAMPAIGN#${platform}#${campaignId}`,
    sk: 'LEASE',
  }),
  /** a tenant's audit log, one partition: a listing is one query whatever other tenants do */
  auditPk: (tenantId: string) => `${tenant(tenantId)}#AUDIT`,
  auditEvent: (occurredAtMs: number, id: string) => `EVENT#${padded(occurredAtMs, 13)}#${id}`,
  auditEventShape: /^EVENT#\d{13}#aud_[0-9a-f]{24}$/,
  /** a user's rules, one item each, and their count (at most 100 a user) */
  rulesPk: (tenantId: string, userId: string) => `${tenant(tenantId)}#USER#${userId}#RULES`,
  rule: (ruleId: string) => `RULE#${ruleId}`,
  rulePrefix: 'RULE#',
  ruleCount: (tenantId: string, userId: string): Key => ({ pk: `${tenant(tenantId)}#USER#${userId}#RULES`, sk: 'COUNT' }),
  /** a (user, platform) group of rules: each rule's run state and the run's claim (rule-groups.ts) */
  ruleGroup: (platform: Platform) => `GROUP#${platform}`,
  ruleGroupPrefix: 'GROUP#',
  /**
   * The groups' index on their earliest next run: one item per group with a due rule in one of a few
   * partitions, sorted by when it is due, so that the scheduler queries what is due and never scans.
   */
  ruleDuePk: (shard: number) => `RULES#DUE#${shard}`,
  ruleDue: (dueAtMs: number, tenantId: string, userId: string, platform: Platform) => `${padded(dueAtMs, 13)}#${tenantId}#${userId}#${platform}`,
  ruleDueBefore: (epochMs: number) => `${padded(epochMs, 13)}#~`,
  /** a user's group runs, in the order they were due: each holds the runs of the group's rules */
  ruleRunsPk: (tenantId: string, userId: string) => `${tenant(tenantId)}#USER#${userId}#RULE_RUNS`,
  ruleGroupRun: (dueAtMs: number, platform: Platform, digest: string, part: number) =>
    `RUN#${padded(dueAtMs, 13)}#${platform}#${digest}#${String(part).padStart(2, '0')}`,
  ruleRunShape: /^RUN#\d{13}#(social|searchads|professional)#[0-9a-f]{16}#\d{2}$/,
  /** one action of a rule's run on one campaign: what it set out to do, then how it ended (a redelivered run acts once) */
  ruleAction: (tenantId: string, ruleId: string, runId: string, campaignId: string): Key => ({
    pk: `${tenant(tenantId)}#RULE_ACTIONS#${ruleId}`,
    sk: `${runId}#${campaignId}`,
  }),
  /** a rule run's actions (and a proposal's or an undo's, under their own run ids) */
  ruleActionsOfRun: (runId: string) => `${runId}#`,
  /** a user's proposals, in the order they were made, and the one pending proposal of a (rule, campaign) */
  proposalsPk: (tenantId: string, userId: string) => `${tenant(tenantId)}#USER#${userId}#PROPOSALS`,
  proposal: (proposalId: string) => `PROPOSAL#${proposalId}`,
  proposalPrefix: 'PROPOSAL#',
  proposalPending: (ruleId: string, campaignId: string) => `PENDING#${ruleId}#${campaignId}`,
  /**
   * An approved proposal until it is applied or failed, in one of a few partitions sorted by when it was
   * approved: the scheduler's sweep finds the approvals whose process died, and never scans.
   */
  approvalsPk: (shard: number) => `PROPOSALS#APPROVED#${shard}`,
  approval: (decidedAtMs: number, tenantId: string, userId: string, proposalId: string) => `${padded(decidedAtMs, 13)}#${tenantId}#${userId}#${proposalId}`,
  approvalsBefore: (epochMs: number) => `${padded(epochMs, 13)}#~`,
  /** the undo of a rule run: its answer, once it is done */
  ruleRunUndo: (tenantId: string, runId: string): Key => ({ pk: `${tenant(tenantId)}#RULE_UNDO#${runId}`, sk: 'UNDO' }),
  /** the search-ads operations a tenant spent in one Google day (Pacific), against its share of the project's */
  searchadsOperations: (tenantId: string, googleDay: string): Key => ({ pk: `${tenant(tenantId)}#SEARCHADS_OPS`, sk: googleDay }),
  /** the upstream calls the optimizer made for a tenant on a platform in a UTC day */
  rulesQuota: (tenantId: string, platform: Platform, day: string): Key => ({ pk: `${tenant(tenantId)}#RULES_QUOTA`, sk: `${platform}#${day}` }),
  /** an object a launch made on a platform, by its platform id: which job holds it (ids are the platform's, so the key is global) */
  launchObject: (platform: Platform, platformId: string): Key => ({ pk: `LAUNCH_OBJECT#${platform}#${platformId}`, sk: 'RECEIPT' }),
  /** the one running launch of a name in an ad account (the name as a digest) */
  launchName: (platform: Platform, adAccountId: string, nameDigest: string): Key => ({
    pk: `LAUNCH_NAME#${platform}#${adAccountId}#${nameDigest}`,
    sk: 'LAUNCH',
  }),
  /** a launch's activation decided: the history entry and audit event of it are recorded once */
  launchActivation: (tenantId: string, jobId: string): Key => ({ pk: `${tenant(tenantId)}#JOB#${jobId}`, sk: 'ACTIVATION' }),
  /** a notice sent at most once a UTC day per subject (a blocked search-ads account's declaration webhook) */
  dailyNotice: (tenantId: string, kind: string, subject: string, day: string): Key => ({ pk: `${tenant(tenantId)}#NOTICES`, sk: `${kind}#${subject}#${day}` }),
  /** a lead of a tenant, by the platform's id: unique per (tenant, platform, lead), and where its row is */
  leadMarker: (tenantId: string, platform: Platform, leadId: string): Key => ({ pk: `${tenant(tenantId)}#LEAD#${platform}#${leadId}`, sk: 'LEAD' }),
  /** a user's leads, newest last by submission time */
  leadsPk: (tenantId: string, userId: string) => `${tenant(tenantId)}#USER#${userId}#LEADS`,
  leadRow: (createdAt: string, platform: Platform, leadId: string) => `${createdAt}#${platform}#${leadId}`,
  /** every lead subscription of every tenant, by (platform, Page or ad account): the webhooks route by it, the sweep walks it */
  leadSubscriptionsPk: 'LEADS#SUBSCRIPTIONS',
  leadSubscription: (platform: Platform, target: string, tenantId: string, userId: string) => `${platform}#${target}#${tenant(tenantId)}#USER#${userId}`,
  leadSubscriptionPrefix: (platform: Platform, target: string) => `${platform}#${target}#`,
  /** a verified platform webhook body, by the SHA-256 of its bytes (a replay is the same item), a partition each */
  platformWebhook: (platform: Platform, bodyHash: string): Key => ({ pk: `PLATFORM_WEBHOOK#${platform}#${bodyHash}`, sk: 'BODY' }),
} as const;
