import { config } from '../core/config.ts';
import { professionalChallengeAnswer } from '../platforms/professional/lead-webhooks.ts';
import { socialChallengeAnswer } from '../platforms/social/lead-webhooks.ts';

/**
 * The platforms' checks of our webhook URLs (docs/leads.md, "Platform webhooks"), apart from the
 * receiving routes so that their functions hold no store or queue: the social verification echoes its
 * challenge for our verify token; the professional validation answers the challenge code's HMAC.
 */
export interface InboundAnswer {
  statusCode: number;
  contentType: 'text/plain' | 'application/json';
  body: string;
}

export const answer = (statusCode: number, body: string, contentType: InboundAnswer['contentType'] = 'text/plain'): InboundAnswer => ({
  statusCode,
  contentType,
  body,
});

/** The social platform's verification GET: the challenge when the verify token is ours, else 403. */
export function answerSocialVerification(query: Record<string, string | undefined>): InboundAnswer {
  if (query['hub.mode'] !== 'subscribe' || !query['hub.challenge']) return answer(400, 'not a verification');
  const token = config().SOCIAL_WEBHOOK_VERIFY_TOKEN;
  const challenge = token ? socialChallengeAnswer(query, token) : undefined;
  return challenge ? answer(200, challenge) : answer(403, 'verify token refused');
}

/** The professional network's validation GET: the challenge code with its HMAC, within its 3 seconds. */
export function answerProfessionalValidation(query: Record<string, string | undefined>): InboundAnswer {
  const code = query.challengeCode;
  const secret = config().PROFESSIONAL_CLIENT_SECRET;
  if (!code || !secret || code.length > 200) return answer(400, 'no challenge');
  return answer(200, JSON.stringify(professionalChallengeAnswer(code, secret)), 'application/json');
}
