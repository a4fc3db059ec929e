import type { Context } from 'aws-lambda';
import type { User } from '../store/users.ts';

/** What the middlewares learn about a request, carried on the Lambda context. */
export interface OperationContext extends Context {
  tenantId: string;
  /** the id of the API key that called (the audit log's actor), never the key */
  apiKeyId: string;
  input: unknown;
  user?: User;
  /** digest of the body for idempotency (JSON: the parsed body; multipart: fields and file digest) */
  payloadFingerprint?: unknown;
  /** an upload operation's body came as JSON (an uploadId), not as a multipart form */
  jsonBody?: boolean;
}
