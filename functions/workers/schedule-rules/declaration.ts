import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'schedule_rules',
  entry: handlerBeside(import.meta.url),
  schedule: 'ruleSchedule',
  writes: true, // the lease on each due rule
  sendsTo: ['RuleRuns'],
};
