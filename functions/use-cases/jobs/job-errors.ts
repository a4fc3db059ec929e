import { redactDeep } from '../../../shared/core/redaction.ts';
import { ServiceError } from '../../../shared/core/errors.ts';
import type { JobError } from '../../../shared/store/jobs.ts';

/** A client's or a platform's refusal: the same request would fail the same way. */
export function isFinal(error: unknown): boolean {
  return (
    error instanceof ServiceError &&
    (error.status < 500 || error.code === 'PLATFORM_REJECTED' || error.code === 'PLATFORM_AUTH_EXPIRED') &&
    error.status !== 429
  );
}

/** A failure as the job shows it; a platform's words in it never carry a credential into get_job or a webhook. */
export function jobErrorOf(error: unknown): JobError {
  if (error instanceof ServiceError) {
    const platform = error.extra.platformDetail as JobError['platform'];
    const minimum = error.extra.minimum as JobError['minimum'];
    return redactDeep({ code: error.code, message: error.message, ...(platform ? { platform } : {}), ...(minimum ? { minimum } : {}) });
  }
  return { code: 'INTERNAL', message: 'The job failed unexpectedly.' };
}
