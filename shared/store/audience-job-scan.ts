import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import { JOB_SORT_KEY, UNFINISHED, type AudienceJob } from './audience-jobs.ts';

/** The sweep's read of the whole table, kept apart so that no request's bundle can scan. */
/** Every unfinished job, a page of the table at a time (the sweep's read; no request scans). */
export async function* unfinishedJobs(): AsyncGenerator<AudienceJob> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentStore().send(
      new ScanCommand({
        TableName: mainTableName(),
        FilterExpression: 'sk = :job AND #status IN (:queued, :running)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':job': JOB_SORT_KEY, ...UNFINISHED },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) yield item as AudienceJob;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
