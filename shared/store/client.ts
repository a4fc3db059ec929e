import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

let documentClient: DynamoDBDocumentClient | undefined;
let rawClient: DynamoDBClient | undefined;

/** One client per container, created on first use so warm invocations reuse its connections. */
export function dynamoClient(): DynamoDBClient {
  rawClient ??= new DynamoDBClient({});
  return rawClient;
}

export function documentStore(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(dynamoClient(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function mainTableName(): string {
  return config().TABLE_NAME;
}
