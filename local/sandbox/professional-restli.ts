import type { SandboxResponse } from './server.ts';

type Row = Record<string, unknown>;

/** The professional network's Rest.li error bodies, as every professional sandbox route answers them. */

/** A Rest.li error answer, as every professional route gives it. */
export const restliError = (status: number, body: Row, headers: Record<string, string> = {}): SandboxResponse => ({
  status,
  body: { status, ...body },
  headers: { 'x-restli-protocol-version': '2.0.0', ...headers },
});

export const inputError = (code: string, message: string, fieldPath: string, serviceErrorCode = 10007) =>
  restliError(400, {
    serviceErrorCode,
    code,
    message,
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    errorDetails: { inputErrors: [{ description: message, input: { inputPath: { fieldPath } }, code: 'INVALID_VALUE_FOR_FIELD' }] },
  });
