import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentStore, mainTableName } from '../../shared/store/client.ts';

/**
 * The local stack's TransactWriteItems (local/dynamo-transactions.ts), as the service's code
 * sends it: all items written, or none, and the cancellation reasons DynamoDB gives.
 */
const key = (name: string) => ({ pk: `TX-TEST#${name}`, sk: 'ITEM' });
const read = async (name: string) => (await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key(name), ConsistentRead: true }))).Item;

describe('transactions in the local stack', () => {
  it('writes every item when every condition holds', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await documentStore().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: mainTableName(), Item: { ...key(a), value: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: mainTableName(), Item: { ...key(b), value: 2 } } },
        ],
      }),
    );
    expect(await read(a)).toMatchObject({ value: 1 });
    expect(await read(b)).toMatchObject({ value: 2 });
  });

  it('a failing condition on a later item puts back what the earlier ones wrote, and names the item', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...key(a), value: 'before' } }));
    await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...key(c), version: 7 } }));
    const failure = await documentStore()
      .send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: mainTableName(),
                Key: key(a),
                UpdateExpression: 'SET #v = :v',
                ExpressionAttributeNames: { '#v': 'value' },
                ExpressionAttributeValues: { ':v': 'after' },
              },
            },
            { Put: { TableName: mainTableName(), Item: { ...key(b), value: 'new' } } },
            {
              ConditionCheck: { TableName: mainTableName(), Key: key(c), ConditionExpression: 'version = :seven', ExpressionAttributeValues: { ':seven': 8 } },
            },
          ],
        }),
      )
      .catch((error: unknown) => error as Error & { CancellationReasons?: Array<{ Code: string }> });
    expect(failure).toMatchObject({ name: 'TransactionCanceledException' });
    expect((failure as { CancellationReasons: Array<{ Code: string }> }).CancellationReasons.map((reason) => reason.Code)).toEqual([
      'None',
      'None',
      'ConditionalCheckFailed',
    ]);
    expect(await read(a)).toMatchObject({ value: 'before' });
    expect(await read(b)).toBeUndefined();
    expect(await read(c)).toMatchObject({ version: 7 });
  });
});
