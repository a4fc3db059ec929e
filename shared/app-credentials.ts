import { config, addSecretConfiguration } from './config.ts';

/**
 * In the cloud the app credentials (search-ads OAuth client and developer token, professional OAuth
 * client, social app secret) live in one Secrets Manager secret, read once per cold start by the
 * functions that call a platform; only those are given its ARN and the right to read it.
 */
const CREDENTIAL_KEYS = [
  'SOCIAL_APP_SECRET',
  'SEARCHADS_DEVELOPER_TOKEN',
  'SEARCHADS_CLIENT_ID',
  'SEARCHADS_CLIENT_SECRET',
  'PROFESSIONAL_CLIENT_ID',
  'PROFESSIONAL_CLIENT_SECRET',
] as const;

let loading: Promise<void> | undefined;

export function loadAppCredentials(): Promise<void> {
  const arn = config().APP_CREDENTIALS_SECRET_ARN;
  if (!arn) return Promise.resolve();
  loading ??= (async () => {
    const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets');
    const secret = (await getSecret(arn, { transform: 'json', maxAge: 24 * 60 * 60 })) as Record<string, unknown> | undefined;
    const values: Record<string, string> = {};
    for (const key of CREDENTIAL_KEYS) {
      const value = secret?.[key];
      if (typeof value === 'string' && value !== '') values[key] = value;
    }
    addSecretConfiguration(values);
  })().catch((error: unknown) => {
    loading = undefined; // the next request tries again
    throw error;
  });
  return loading;
}
