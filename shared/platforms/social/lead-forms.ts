import { createHash } from 'node:crypto';
import { clock } from '../../core/clock.ts';
import { PlatformAuthExpired, PlatformNotConnected, PlatformRejected } from '../../core/errors.ts';
import type { CreateLeadFormInput } from '../../schemas/lead-form.ts';
import { graphRequest, type SocialSession } from './client.ts';

/**
 * docs/platforms.md, "Social": lead forms are created on the page with a page access token, fetched with the user's
 * token and kept briefly per container (Meta documents an hour of validity for such tokens).
 */
const PAGE_TOKEN_TTL_MS = 10 * 60 * 1000;
const pageTokens = new Map<string, { token: string; expiresAt: number }>();

const cacheKey = (pageId: string, userToken: string) => `${pageId}:${createHash('sha256').update(userToken).digest('hex')}`;

export async function pageAccessToken(session: SocialSession, pageId: string): Promise<{ token: string; cached: boolean }> {
  const key = cacheKey(pageId, session.accessToken);
  const cached = pageTokens.get(key);
  if (cached && cached.expiresAt > clock.now()) return { token: cached.token, cached: true };
  const { body } = await graphRequest<{ access_token?: string }>(session, 'GET', pageId, { fields: 'access_token' });
  if (!body.access_token) {
    throw new PlatformRejected('social', 'The user cannot advertise for this page: the platform gave no page access token.');
  }
  pageTokens.set(key, { token: body.access_token, expiresAt: clock.now() + PAGE_TOKEN_TTL_MS });
  return { token: body.access_token, cached: false };
}

/** The spec's lead form as the platform's `leadgen_forms` body (docs/platforms.md, "Social"). */
export function toLeadgenFormBody(input: CreateLeadFormInput): Record<string, unknown> {
  const page = input.thankYouPage;
  return {
    name: input.leadsFormName,
    locale: input.language,
    is_optimized_for_quality: input.form_type === 'HIGHER_INTENT',
    privacy_policy: { url: input.privacyPolicyUrl, link_text: input.privacyPolicyName },
    ...(input.questionPageCustomHeadline ? { question_page_custom_headline: input.questionPageCustomHeadline } : {}),
    ...(input.intro ? { context_card: { title: input.intro.title, style: input.intro.style, content: input.intro.content } } : {}),
    questions: input.leadFormQuestions.map((question, index) => ({
      type: question.type,
      key: `q${index + 1}`,
      ...(question.label ? { label: question.label } : {}),
      ...(question.options ? { options: question.options.map(({ value, key }) => ({ value, key })) } : {}),
    })),
    thank_you_page: {
      title: page.title,
      body: page.body,
      button_text: page.button_text,
      button_type: page.button_type === 'VISIT_WEBSITE' ? 'VIEW_WEBSITE' : page.button_type,
      ...(page.button_type !== 'CALL_BUSINESS' && page.website_url ? { website_url: page.website_url } : {}),
      ...(page.button_type === 'CALL_BUSINESS' ? { country_code: page.country_code, business_phone_number: page.business_phone_number } : {}),
    },
  };
}

export async function createLeadForm(session: SocialSession, pageId: string | undefined, input: CreateLeadFormInput): Promise<string> {
  if (!pageId) throw new PlatformNotConnected('social', 'The user’s social connection names no pageId; lead forms are created on a page.');
  const body = toLeadgenFormBody(input);
  for (;;) {
    const pageToken = await pageAccessToken(session, pageId);
    try {
      const { body: created } = await graphRequest<{ id?: string }>({ ...session, accessToken: pageToken.token }, 'POST', `${pageId}/leadgen_forms`, body, {
        retrySafe: false,
      });
      if (!created.id) throw new PlatformRejected('social', 'The platform did not return the new lead form’s id.');
      return created.id;
    } catch (error) {
      // a cached page token may have expired since it was fetched: fetch a fresh one, once
      if (!(error instanceof PlatformAuthExpired && pageToken.cached)) throw error;
      pageTokens.delete(cacheKey(pageId, session.accessToken));
    }
  }
}
