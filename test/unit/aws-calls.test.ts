import { describe, expect, it } from 'vitest';
import { commandsImportedBy } from '../helpers/aws-calls.ts';

/** The IAM test's reading of a module's AWS SDK imports: what can be sent, and what cannot. */
describe('commandsImportedBy', () => {
  it('reads static and dynamic imports of commands, and skips type-only ones', () => {
    const source = [
      "import { GetCommand, PutCommand as Put, type DeleteCommand } from '@aws-sdk/lib-dynamodb';",
      "import type { ScanCommand } from '@aws-sdk/lib-dynamodb';",
      "import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';",
      "const { GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');",
    ].join('\n');
    expect(commandsImportedBy(source)).toEqual([
      { module: '@aws-sdk/lib-dynamodb', command: 'Get' },
      { module: '@aws-sdk/lib-dynamodb', command: 'Put' },
      { module: '@aws-sdk/client-sqs', command: 'SendMessage' },
      { module: '@aws-sdk/client-secrets-manager', command: 'GetSecretValue' },
    ]);
  });
});
