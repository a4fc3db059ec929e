import { clock } from '../../../shared/core/clock.ts';
import { withRequestLogger } from '../../../shared/core/logger.ts';
import { FLOW_DEFINITIONS } from '../../../shared/flows/flows.ts';
import { flowOn } from '../../../shared/flows/on-table.ts';
import { declaration } from './declaration.ts';

/**
 * On a schedule: every event flow's items still due after their lease are queued again (their message
 * was lost: a crash between storing and queuing, a message dead-lettered), shard by shard of the due index.
 */
export async function handler(): Promise<{ requeued: number }> {
  return withRequestLogger({ requestId: `sweep-${clock.now()}`, operation: declaration.operation }, async () => {
    let requeued = 0;
    for (const definition of Object.values(FLOW_DEFINITIONS)) requeued += await flowOn(definition).sweep();
    return { requeued };
  });
}
