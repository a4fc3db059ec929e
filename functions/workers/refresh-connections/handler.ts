import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { runConnectionLifecycle, type LifecycleSummary } from '../../use-cases/connect/connection-lifecycle.ts';
import { declaration } from './declaration.ts';

/** On a schedule (hourly): the connection lifecycle over every user. */
export async function handler(): Promise<LifecycleSummary> {
  return withRequestLogger({ requestId: `lifecycle-${clock.now()}`, operation: declaration.operation }, async () => {
    await loadAppCredentials();
    const summary = await withAuditScope({ actor: systemActor(declaration.operation) }, () => runConnectionLifecycle());
    log().info('connection lifecycle run', { ...summary });
    return summary;
  });
}
