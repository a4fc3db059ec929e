import type { Context as LambdaContext } from 'aws-lambda';
import { PlatformNotConnected, PlatformRejected, ScopeMissing } from '../../../shared/core/errors.ts';
import type { LeadNotice } from '../../../shared/platforms/lead-webhooks.ts';
import type { NormalizedLead } from '../../../shared/schemas/leads.ts';
import type { User } from '../../../shared/store/users.ts';

/** What a lead read needs of the function: the time it has left. */
type Context = Pick<LambdaContext, 'getRemainingTimeInMillis'>;

export type LeadPlatform = NormalizedLead['platform'];

/**
 * Where a platform's leads come from, through a user's connection (docs/leads.md): what the user's
 * connection reaches (a Page, an ad account), the permissions leads need, the subscription, one lead
 * read (with its form, kept a while) and the leads since a time. One source per platform, in its
 * folder (use-cases/platforms/<name>/lead-source.ts); the rest of the leads feature knows no platform.
 */
export interface LeadSource {
  platform: LeadPlatform;
  /** the permissions a connection needs for leads (a connect link asks for them) */
  scopes: readonly string[];
  /** what the user's connection takes leads of: a Page (social), an ad account (professional) */
  targetOf(user: User): string | undefined;
  subscribe(user: User, context: Context, target: string): Promise<void>;
  unsubscribe(user: User, context: Context, target: string): Promise<void>;
  read(user: User, context: Context, notice: LeadNotice): Promise<NormalizedLead>;
  since(user: User, context: Context, target: string, sinceMs: number, untilMs: number): AsyncGenerator<NormalizedLead>;
  /** the platform's refusal means the lead is gone (deleted, past its 90 days), not that we may not read it */
  unavailable(error: unknown): boolean;
  /** the platform's refusal is the business's leads access (or the member's roles), outside the OAuth grant */
  accessMissing(error: unknown): boolean;
}

/** A refusal's details, as the platform gave them. */
export const refusalOf = (error: unknown) => (error instanceof PlatformRejected ? error.extra : undefined);

/**
 * The user's connection for a source's leads: connected, granted what leads need (a connection given as
 * raw tokens names no scopes and is taken to hold them until the platform refuses), reaching a target.
 */
export function leadTargetThrough(user: User, source: LeadSource): string {
  const { platform } = source;
  const connection = user.connections[platform];
  if (!connection) throw new PlatformNotConnected(platform);
  const granted = connection.scopes?.split(/[ ,]+/);
  const missing = granted ? source.scopes.filter((scope) => !granted.includes(scope)) : [];
  if (missing.length > 0) throw new ScopeMissing(platform, missing.join(', '));
  const target = source.targetOf(user);
  if (!target)
    throw new PlatformNotConnected(
      platform,
      `The user’s ${platform} connection names no ${platform === 'social' ? 'Page' : 'ad account'}; connect one to take its leads.`,
    );
  return target;
}
