import middy from '@middy/core';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';

/**
 * The floor of a simple read (bench/cold-start.ts): what any function of ours needs at least, with
 * nothing of ours: middy, a zod schema, and one read through the DynamoDB document client.
 */
const request = z.object({ userId: z.string().min(1) });
const store = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = middy(async (event: APIGatewayProxyEventV2) => {
  const { userId } = request.parse(JSON.parse(event.body ?? '{}'));
  const { Item } = await store.send(new GetCommand({ TableName: process.env.TABLE_NAME ?? 'table', Key: { pk: userId, sk: 'PROFILE' } }));
  return { statusCode: 200, body: JSON.stringify({ success: true, results: Item ?? null }) };
});
