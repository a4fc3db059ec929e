import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config, addSecretConfiguration } from '../core/config.ts';
import { AWS_REQUEST_HANDLER } from '../core/aws-timeouts.ts';

/**
 * In the cloud the app credentials (search-ads OAuth client and, optionally, a developer token; professional OAuth
 * client, social app secret) live in one Secrets Manager secret, and the key that seals platform
 * tokens in another; each is read once per cold start by the functions given its ARN (and only those
 * may read it). A handler that needs them passes `loadAppCredentials` to defineOperation, so no other
 * function's bundle holds a Secrets Manager client.
 */
/** Every key of the app-credentials secret (docs/going-live.md lists each). */
export const CREDENTIAL_KEYS = [
  'SOCIAL_APP_ID',
  'SOCIAL_APP_SECRET',
  'SOCIAL_WEBHOOK_VERIFY_TOKEN',
  'SEARCHADS_DEVELOPER_TOKEN',
  'SEARCHADS_CLIENT_ID',
  'SEARCHADS_CLIENT_SECRET',
  'PROFESSIONAL_CLIENT_ID',
  'PROFESSIONAL_CLIENT_SECRET',
] as const;

let loading: Promise<void> | undefined;

export function loadAppCredentials(): Promise<void> {
  const { APP_CREDENTIALS_SECRET_ARN: credentialsArn, CONNECTION_KEY_SECRET_ARN: connectionKeyArn } = config();
  if (!credentialsArn && !connectionKeyArn) return Promise.resolve();
  loading ??= (async () => {
    const client = new SecretsManagerClient({ requestHandler: AWS_REQUEST_HANDLER });
    const getSecret = async (SecretId: string) => (await client.send(new GetSecretValueCommand({ SecretId }))).SecretString;
    const values: Record<string, string> = {};
    if (credentialsArn) {
      const secret = JSON.parse((await getSecret(credentialsArn)) ?? '{}') as Record<string, unknown>;
      for (const key of CREDENTIAL_KEYS) {
        const value = secret?.[key];
        if (typeof value === 'string' && value !== '') values[key] = value;
      }
    }
    if (connectionKeyArn) {
      const connectionKey = await getSecret(connectionKeyArn);
      if (typeof connectionKey === 'string') values.CONNECTION_ENCRYPTION_KEY = connectionKey;
    }
    addSecretConfiguration(values);
  })().catch((error: unknown) => {
    loading = undefined; // the next request tries again
    throw error;
  });
  return loading;
}
