import type { User } from '../store/users.ts';

/**
 * What each platform offers the conversions relay (docs/conversions.md): where a user's CRM outcomes
 * can go. Social: the datasets of the connected ad account; search ads: the account's enabled
 * UPLOAD_CLICKS conversion actions that it owns; professional: the ad account's enabled conversion
 * rules of the Conversions API method.
 */
export type DestinationKind = 'dataset' | 'conversion_action' | 'conversion_rule';

export interface ConversionDestination {
  destinationId: string;
  name: string;
  kind: DestinationKind;
  /** search ads: the action's click-through window in days, when the platform states it (older events are never sent) */
  lookbackDays?: number;
}

export interface ConversionDestinations<Session> {
  /** SCOPE_MISSING when the stored grant lacks what sending conversions needs (a connection given as tokens is assumed to hold it) */
  checkScopes(user: User): void;
  /** `user`: whose grant it is (a refusal of a grant whose scopes are unknown names the missing scope) */
  list(session: Session, user: User): Promise<ConversionDestination[]>;
}
