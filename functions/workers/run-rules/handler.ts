import { log } from '../../../shared/core/logger.ts';
import { queueWorker } from '../../../shared/queue/worker.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { platformAdapters } from '../../../shared/platforms/registry.ts';
import { finishApproval } from '../../use-cases/rules/proposals.ts';
import { runRuleGroup } from '../../use-cases/rules/rule-runs.ts';
import { declaration } from './declaration.ts';

/**
 * The optimizer's evaluator (one group a message): reads the group's metrics, runs its rules, acts. A
 * run that fails unexpectedly is handed back by the queue; its actions already made are not made
 * again (see the use case). A message of the scheduler's sweep names an approval to finish.
 */
export const handler = queueWorker('RuleRuns', { operation: declaration.operation, before: loadAppCredentials }, async (message, _record, context) => {
  // an approval whose process died, found by the scheduler's sweep
  if ('finishProposal' in message) return finishApproval(message.finishProposal, context);
  const runs = await runRuleGroup(message, platformAdapters[message.platform], context);
  log().info('rules run', { runs: runs.length, platform: message.platform });
});
