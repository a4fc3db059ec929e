/** Upstream hosts and API versions, in one place (docs/platforms.md). */
export const SOCIAL_API_VERSION = 'v26.0';
export const SEARCHADS_API_VERSION = 'v26';
export const PROFESSIONAL_API_VERSION = '202608';
/** Google's Data Manager API: one path version, features added as dated v1.x releases */
export const DATA_MANAGER_VERSION = 'v1';

/** The version a base URL's path carries (`…/v26.0`), which is the one actually called; else `fallback`. */
export function versionInUrl(url: string, fallback: string): string {
  return /\/(v\d+(?:\.\d+)?)\/?$/.exec(new URL(url).pathname)?.[1] ?? fallback;
}

export const UPSTREAM_DEFAULTS = {
  socialApiUrl: `https://graph.facebook.com/${SOCIAL_API_VERSION}`,
  /** the resumable video upload's host (docs/platforms.md, "Social: videos") */
  socialVideoApiUrl: `https://graph-video.facebook.com/${SOCIAL_API_VERSION}`,
  searchadsApiUrl: `https://googleads.googleapis.com/${SEARCHADS_API_VERSION}`,
  searchadsOauthUrl: 'https://oauth2.googleapis.com/token',
  /** without the version: the client adds DATA_MANAGER_VERSION */
  searchadsDataManagerUrl: 'https://datamanager.googleapis.com',
  professionalApiUrl: 'https://api.linkedin.com/rest',
  professionalOauthUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
  professionalApiVersion: PROFESSIONAL_API_VERSION,
  socialAuthorizeUrl: `https://www.facebook.com/${SOCIAL_API_VERSION}/dialog/oauth`,
  searchadsAuthorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  searchadsRevokeUrl: 'https://oauth2.googleapis.com/revoke',
  professionalAuthorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
  professionalIntrospectUrl: 'https://www.linkedin.com/oauth/v2/introspectToken',
  professionalRevokeUrl: 'https://www.linkedin.com/oauth/v2/revoke',
} as const;
