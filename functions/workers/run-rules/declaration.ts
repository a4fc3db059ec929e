import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { ruleRunQueue } from '../../../shared/core/queues.ts';

export const declaration: WorkerDeclaration = {
  operation: 'run_rules',
  entry: handlerBeside(import.meta.url),
  consumes: 'RuleRuns',
  callsPlatforms: true, // the group's platform, whichever it is
  sendsTo: ['WebhookDeliveries'], // optimization.applied, optimization.rule_disabled
  writes: true,
  timeoutSeconds: ruleRunQueue.consumerTimeoutSeconds,
};
