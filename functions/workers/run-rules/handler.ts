import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { RULE_PLATFORMS } from '../../../shared/schemas/rules.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { rulePlatforms } from '../../use-cases/rule-platforms.ts';
import { runRuleGroup } from '../../use-cases/rule-runs.ts';
import { declaration } from './declaration.ts';

const messageSchema = z.object({
  tenantId: z.string().min(1),
  userId: z.string().min(1),
  platform: z.enum(RULE_PLATFORMS),
  rules: z.array(z.object({ ruleId: z.string(), scheduledAt: z.string() })).min(1),
});

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

/**
 * The optimizer's evaluator (SQS, one group a message): reads the group's metrics, runs its rules,
 * acts. A run that fails unexpectedly is handed back by the queue; its actions already made are not
 * made again (see the use case).
 */
export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  await loadAppCredentials();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    await withRequestLogger({ requestId: record.messageId, operation: declaration.operation }, async () => {
      const parsed = messageSchema.safeParse(parseJson(record.body));
      if (!parsed.success) return log().error('a rule-run message that names no group was dropped', { messageId: record.messageId });
      try {
        const runs = await runRuleGroup(parsed.data, rulePlatforms[parsed.data.platform], context);
        log().info('rules run', { runs: runs.length, platform: parsed.data.platform });
      } catch (error) {
        log().error('rule run failed; the queue will hand it back', { error: (error as Error).name });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    });
  }
  return { batchItemFailures };
}
