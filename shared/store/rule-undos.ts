import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RuleActionOutcome } from '../schemas/rules.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/**
 * The undo of a rule run, once it is done (docs/rules.md, "Undo"): TENANT#<t>#RULE_UNDO#<runId> / UNDO.
 * The first undo to finish stores its answer; a repeat, or one that raced it, answers that one. Kept 30
 * days (a run may be undone for 7).
 */
export interface RunUndo {
  runId: string;
  status: 'undone';
  undoneAt: string;
  actions: RuleActionOutcome[];
}

export async function findRunUndo(tenantId: string, runId: string): Promise<RunUndo | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.ruleRunUndo(tenantId, runId), ConsistentRead: true }));
  return Item ? { runId: String(Item.runId), status: 'undone', undoneAt: String(Item.undoneAt), actions: Item.actions as RuleActionOutcome[] } : undefined;
}

/** Stores the undo's answer unless another undo of the run stored its own first; the answer that stands. */
export async function storeRunUndo(tenantId: string, undo: RunUndo): Promise<RunUndo> {
  const stored = await writeIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: {
        ...keys.ruleRunUndo(tenantId, undo.runId),
        runId: undo.runId,
        undoneAt: undo.undoneAt,
        actions: undo.actions,
        expiresAt: Math.floor(Date.parse(undo.undoneAt) / 1000) + 30 * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return stored ? undo : ((await findRunUndo(tenantId, undo.runId)) ?? undo);
}
