import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * The AWS SDK clients' default credentials, as a deployed function finds them: Lambda hands the
 * execution role's credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN), so the default chain's other sources (shared config files, SSO, web identity,
 * container and instance metadata, with the STS and SSO clients they carry) are never reached. The
 * bundles take this module in place of @aws-sdk/credential-provider-node (infra/bundling.ts), which
 * exports nothing else a client imports. Written here because the SDK has no package with that chain
 * alone; the provider itself is the SDK's own.
 */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
