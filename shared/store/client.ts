import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type DeleteCommand, type PutCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

/** Sends a conditional write; whether its condition held (a failed condition is an answer, not an error). */
export async function writeIfConditionHolds(command: UpdateCommand | PutCommand | DeleteCommand): Promise<boolean> {
  try {
    await documentStore().send(command as UpdateCommand);
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
