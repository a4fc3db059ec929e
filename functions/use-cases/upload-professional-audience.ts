import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { clock } from '../../shared/core/clock.ts';
import type { UploadedFile } from '../../shared/schemas/uploaded-file.ts';
import { uploadContactList } from '../../shared/platforms/professional/list-upload.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import { recordProfessionalAudience } from '../../shared/store/professional-audiences.ts';
import type { User } from '../../shared/store/users.ts';
import { deleteStagedUpload, readStagedUpload, stageUpload, stagedUploadKey } from '../../shared/storage/staging.ts';
import { prepareProfessionalList, type ListType } from '../../shared/audiences/professional-list.ts';

/**
 * Operation 8 end to end: stage the CSV, check and rewrite it against its type's template (nothing
 * goes upstream for a bad file), then the platform's list-upload flow. `csvFileId` is the uploaded
 * file's media URN; the segment it fed is kept with the user's audiences.
 */
export interface ProfessionalAudienceRequest {
  tenantId: string;
  user: User;
  context: Context;
  type: ListType;
  audienceName?: string;
  csv: UploadedFile;
}

const TYPE_LABELS: Record<ListType, string> = { USER_LIST_UPLOAD: 'Contact list', COMPANY_LIST_UPLOAD: 'Company list' };

/** Without a name: "Contact list upload YYYY-MM-DDTHH:MMZ", the upload time in UTC. */
export const defaultAudienceName = (type: ListType, now = clock.date()) => `${TYPE_LABELS[type]} upload ${now.toISOString().slice(0, 16)}Z`;

export async function uploadProfessionalAudience(request: ProfessionalAudienceRequest): Promise<{ audience: { csvFileId: string }; warnings?: string[] }> {
  const { tenantId, user, type } = request;
  const session = professionalSession(user, request.context);
  const stagedKey = stagedUploadKey(tenantId, user.userId, randomUUID());
  await stageUpload(stagedKey, request.csv.content);
  let prepared: Awaited<ReturnType<typeof prepareProfessionalList>>;
  try {
    prepared = await prepareProfessionalList(type, await readStagedUpload(stagedKey));
  } catch (error) {
    await deleteStagedUpload(stagedKey);
    throw error;
  }
  const name = request.audienceName ?? defaultAudienceName(type);
  // the contacts are not kept after a failure either: the staged copy is this request's alone
  const uploaded = await uploadContactList(session, session.adAccountId, type, name, prepared.csv).catch(async (error: unknown) => {
    await deleteStagedUpload(stagedKey);
    throw error;
  });
  await recordProfessionalAudience(tenantId, user.userId, {
    csvFileId: uploaded.inputFile,
    segmentId: uploaded.segmentId,
    account: `urn:li:sponsoredAccount:${session.adAccountId}`,
    type,
    name,
    rows: prepared.rows,
    createdAt: clock.date().toISOString(),
  });
  await deleteStagedUpload(stagedKey);
  return { audience: { csvFileId: uploaded.inputFile }, ...(prepared.warnings.length > 0 ? { warnings: prepared.warnings } : {}) };
}
