import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentStore, mainTableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, newTenant, stack } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { createRule, runGroup, runMessage, runsOf, socialAccountUser, tenantOf, trippingRule } from '../helpers/rules.ts';
import { upstreamRequestsWith } from '../helpers/sandbox.ts';

/**
 * Rules that ask first and rules that only tell (docs/rules.md): a run in mode approve proposes and
 * changes nothing, one proposal at a time for a (rule, campaign); an approval applies once however many
 * race, and only while the proposal holds; rejected, expired and stale proposals change nothing; a run
 * in mode notify tells once.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${stack().webhookReceiverUrl}/webhooks` } }, { apiKey });
});

const writesOf = async (token: string) => (await upstreamRequestsWith('social', token)).filter((request) => request.method !== 'GET');
const proposalsOf = async (userId: string, filter: Record<string, unknown> = {}) =>
  (await call('/optimize_me/list_proposals', { userId, ...filter }, { apiKey })).body.results.proposals as Array<Record<string, any>>;
const decide = (userId: string, proposalId: string, decision: 'approve' | 'reject') =>
  call('/optimize_me/decide_proposal', { userId, proposalId, decision }, { apiKey });
/** The signed deliveries of a type the receiver took for a rule, once there are `count` of them. */
const delivered = (type: string, ruleId: string, count: number) =>
  eventually(
    async () => {
      const received = (await (await fetch(`${stack().webhookReceiverUrl}/received`)).json()) as Array<{ type: string; verified: boolean; body: any }>;
      const ours = received.filter((entry) => entry.type === type && entry.body.data?.ruleId === ruleId);
      return ours.length >= count && ours.every((entry) => entry.verified) ? ours.map((entry) => entry.body) : undefined;
    },
    15_000,
    `${count} ${type} deliveries`,
  );

/** A user with `count` campaigns, an approve-mode rule on them, and the proposals of its first run. */
async function proposed(count: number, action: Record<string, unknown> = { type: 'PAUSE', mode: 'approve' }) {
  const user = await socialAccountUser(apiKey, count);
  const rule = await createRule(apiKey, trippingRule(user.userId, 'social', user.campaignIds, { action }));
  await runGroup(await runMessage(apiKey, user.userId, [rule.ruleId]));
  const proposals = await proposalsOf(user.userId, { ruleId: rule.ruleId });
  return { ...user, rule, proposals };
}

describe('rules in mode approve', () => {
  it('a run proposes each change, writes nothing, and announces it; a later run proposes nothing more while one waits', async () => {
    const { userId, token, campaignIds, rule, proposals } = await proposed(2, { type: 'PAUSE', mode: 'approve', approvalHours: 2 });
    expect(await writesOf(token)).toEqual([]);
    expect(proposals.map((proposal) => proposal.campaignId).sort()).toEqual([...campaignIds].sort());
    for (const proposal of proposals) {
      expect(proposal).toMatchObject({
        ruleId: rule.ruleId,
        userId,
        platform: 'social',
        status: 'pending',
        action: { type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED' },
      });
      expect(proposal.proposalId).toMatch(/^prp_\d{13}_[0-9a-f]{12}$/);
      expect(Date.parse(proposal.expiresAt) - Date.parse(proposal.createdAt)).toBe(2 * 3_600_000);
      expect(Number(proposal.metrics['impressions.LAST_7_DAYS'])).toBeGreaterThan(0);
    }
    const [run] = await runsOf(apiKey, userId, rule.ruleId);
    expect(run?.actions.map((action: Record<string, any>) => action.outcome)).toEqual(['proposed', 'proposed']);
    const announced = await delivered('optimization.proposed', rule.ruleId, 2);
    expect(announced.map((event) => event.data.proposalId).sort()).toEqual(proposals.map((proposal) => proposal.proposalId).sort());

    // the next run (an hour on) finds both waiting: no second proposal, nothing read for them
    await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
    expect(await proposalsOf(userId, { ruleId: rule.ruleId })).toHaveLength(2);
    const [second] = await runsOf(apiKey, userId, rule.ruleId);
    for (const action of second?.actions ?? []) expect(action).toMatchObject({ outcome: 'skipped', reason: expect.stringContaining('waits for a decision') });
    expect(await writesOf(token)).toEqual([]);
  });

  it('approvals racing apply the change once, as the person’s, with the proposal in the history', async () => {
    const { userId, token, rule, proposals } = await proposed(1);
    const [proposal] = proposals as [Record<string, any>];
    const answers = await Promise.all(Array.from({ length: 5 }, () => decide(userId, proposal.proposalId, 'approve')));
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.results.proposal).toMatchObject({ proposalId: proposal.proposalId, status: 'applied' });
    }
    const writes = await writesOf(token);
    expect(writes.map((request) => `${request.method} ${request.path} ${JSON.parse(request.body).status}`)).toEqual([
      `POST /v26.0/${proposal.campaignId} PAUSED`,
    ]);
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: proposal.campaignId }, { apiKey });
    expect(history.body.results.campaign.history.filter((entry: Record<string, any>) => entry.change)).toEqual([
      expect.objectContaining({
        change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' },
        source: { type: 'rule', ruleId: rule.ruleId, proposalId: proposal.proposalId },
      }),
    ]);
    const audit = (await call('/tenant/list_audit_events', { userId }, { apiKey })).body.results.events as Array<Record<string, any>>;
    expect(audit.filter((event) => event.action === 'campaign.status_changed')).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ type: 'api_key' }) }),
    ]);
    expect(audit.filter((event) => event.action === 'proposal.approved')).toEqual([
      expect.objectContaining({ target: { type: 'proposal', id: proposal.proposalId }, outcome: 'succeeded' }),
    ]);
    const applied = await delivered('optimization.applied', rule.ruleId, 1);
    expect(applied.map((event) => event.data)).toEqual([
      {
        userId,
        platform: 'social',
        campaignId: proposal.campaignId,
        ruleId: rule.ruleId,
        proposalId: proposal.proposalId,
        change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' },
      },
    ]);
    // a rejection after it, or a repeat of the approval, changes nothing
    const late = await decide(userId, proposal.proposalId, 'reject');
    expect(late.body.results).toMatchObject({ success: false, code: 'PROPOSAL_DECIDED', proposal: { status: 'applied' } });
    expect((await decide(userId, proposal.proposalId, 'approve')).body.results.proposal.status).toBe('applied');
    expect(await writesOf(token)).toHaveLength(1);
    // once applied, the rule may propose again for the campaign (the cooldown holds it back this time)
    expect(await proposalsOf(userId, { status: 'applied' })).toHaveLength(1);
  });

  it('a rejected proposal changes nothing and cannot be approved after', async () => {
    const { userId, token, proposals } = await proposed(1);
    const [proposal] = proposals as [Record<string, any>];
    const rejected = await decide(userId, proposal.proposalId, 'reject');
    expect(rejected.body.results.proposal).toMatchObject({ status: 'rejected', decidedAt: expect.any(String) });
    const approve = await decide(userId, proposal.proposalId, 'approve');
    expect(approve.status).toBe(200);
    expect(approve.body.results).toMatchObject({ success: false, code: 'PROPOSAL_DECIDED', proposal: { status: 'rejected' } });
    expect(await writesOf(token)).toEqual([]);
  });

  it('an expired proposal is PROPOSAL_EXPIRED and changes nothing; the next run may propose again', async () => {
    const { userId, token, rule, proposals } = await proposed(1);
    const [proposal] = proposals as [Record<string, any>];
    // its time passes: the store says it expired a minute ago
    const tenantId = await tenantOf(apiKey);
    for (const sk of [keys.proposal(proposal.proposalId), keys.proposalPending(rule.ruleId, proposal.campaignId)])
      await documentStore().send(
        new UpdateCommand({
          TableName: mainTableName(),
          Key: { pk: keys.proposalsPk(tenantId, userId), sk },
          UpdateExpression: 'SET expiresAtMs = :past',
          ExpressionAttributeValues: { ':past': Date.now() - 60_000 },
        }),
      );
    expect((await proposalsOf(userId, { status: 'expired' })).map((shown) => shown.proposalId)).toEqual([proposal.proposalId]);
    expect(await proposalsOf(userId, { status: 'pending' })).toEqual([]);
    const approve = await decide(userId, proposal.proposalId, 'approve');
    expect(approve.body.results).toMatchObject({ success: false, code: 'PROPOSAL_EXPIRED', proposal: { status: 'expired' } });
    expect(await writesOf(token)).toEqual([]);

    await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
    const after = await proposalsOf(userId, { ruleId: rule.ruleId });
    expect(after.map((shown) => shown.status)).toEqual(['pending', 'expired']);
  });

  it('a stale proposal (the campaign changed since) fails STALE_PROPOSAL and writes nothing', async () => {
    const { userId, token, proposals } = await proposed(1);
    const [proposal] = proposals as [Record<string, any>];
    const paused = await call('/social/update_campaign_status', { userId, campaignId: proposal.campaignId, status: 'PAUSED' }, { apiKey });
    expect(paused.body.results.changed).toBe(true);
    const writesBefore = (await writesOf(token)).length;
    const approve = await decide(userId, proposal.proposalId, 'approve');
    expect(approve.status).toBe(200);
    expect(approve.body.results).toMatchObject({
      success: false,
      code: 'STALE_PROPOSAL',
      proposal: { status: 'failed', error: { code: 'STALE_PROPOSAL', message: expect.stringContaining('already PAUSED') } },
    });
    expect(await writesOf(token)).toHaveLength(writesBefore);
    // its repeat answers the same
    expect((await decide(userId, proposal.proposalId, 'approve')).body.results.code).toBe('STALE_PROPOSAL');
  });

  it('refuses a malformed decision or filter, and another user’s proposal is not found', async () => {
    const { userId, proposals } = await proposed(1);
    const [proposal] = proposals as [Record<string, any>];
    const bad = await call('/optimize_me/decide_proposal', { userId, proposalId: 'prp_1', decision: 'maybe' }, { apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['decision', 'proposalId']);
    const modeWithoutApprove = await call(
      '/optimize_me/create_rule',
      trippingRule(userId, 'social', [proposal.campaignId], { action: { type: 'PAUSE', approvalHours: 3 } }),
      { apiKey },
    );
    expect(modeWithoutApprove.body.results.details).toEqual([{ path: 'action.approvalHours', message: 'is for mode approve only' }]);
    const other = await socialAccountUser(apiKey, 1);
    expect((await decide(other.userId, proposal.proposalId, 'approve')).status).toBe(404);
    expect((await proposalsOf(userId))[0]?.status).toBe('pending');
  });
});

describe('rules in mode notify', () => {
  it('tells each match once and changes nothing', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 2);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds, { action: { type: 'PAUSE', mode: 'notify' } }));
    const message = await runMessage(apiKey, userId, [rule.ruleId]);
    await Promise.all([runGroup(message), runGroup(message)]);
    expect(await writesOf(token)).toEqual([]);
    const told = await delivered('optimization.matched', rule.ruleId, 2);
    expect(told.map((event) => event.data.campaignId).sort()).toEqual([...campaignIds].sort());
    for (const event of told) expect(Number(event.data.metrics['impressions.LAST_7_DAYS'])).toBeGreaterThan(0);
    const [run] = await runsOf(apiKey, userId, rule.ruleId);
    expect(run?.actions.map((action: Record<string, any>) => action.outcome)).toEqual(['notified', 'notified']);
  });
});
