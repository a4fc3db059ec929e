import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Professional-network audiences made for a user: the csvFileId the client got back, with the
 * segment it fed, so that status, deletion and targeting can find it later.
 *   TENANT#<t>#USER#<u>#PROFESSIONAL_AUDIENCE / <csvFileId>
 */
export interface ProfessionalAudience {
  csvFileId: string;
  segmentId: string;
  adSegmentUrn?: string;
  account: string;
  type: string;
  name: string;
  rows: number;
  createdAt: string;
}

export async function recordProfessionalAudience(tenantId: string, userId: string, audience: ProfessionalAudience): Promise<void> {
  await documentStore().send(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.professionalAudience(tenantId, userId, audience.csvFileId), ...audience },
    }),
  );
}
