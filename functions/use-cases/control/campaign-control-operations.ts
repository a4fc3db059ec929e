import type { Context } from 'aws-lambda';
import type { FunctionDeclaration } from '../../../shared/core/function-declaration.ts';
import { idempotent } from '../../../shared/http/idempotency.ts';
import { connectionHealth } from '../../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../../shared/http/operation.ts';
import type { CampaignControl } from '../../../shared/platforms/campaign-control.ts';
import type { z } from 'zod';
import type { EditCampaignInput, UpdateCampaignStatusInput } from '../../../shared/schemas/campaign-control.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../../shared/store/audit-event-writes.ts';
import type { User } from '../../../shared/store/users.ts';
import { editCampaignBudget, updateCampaignStatus } from './campaign-control.ts';

/**
 * The two campaign-control operations of a platform, built the same way on all three: the platform's
 * control and how its session is opened are all that differ (each handler passes its own, so its
 * bundle holds only its platform's code).
 */
type SessionOf<S> = (user: User, context: Context) => S;

const common = { recorder: recordAuditEvent, credentials: loadAppCredentials, connectionHealth, idempotency: idempotent() };

export const statusOperation = <S>(
  declaration: FunctionDeclaration,
  request: z.ZodType<UpdateCampaignStatusInput>,
  control: CampaignControl<S>,
  sessionOf: SessionOf<S>,
) =>
  defineOperation({
    declaration,
    ...common,
    request,
    run: ({ input, tenantId, user, context, audit }) =>
      updateCampaignStatus(control, sessionOf(user, context), { tenantId, userId: user.userId, input, audit }),
  });

export const budgetOperation = <S>(
  declaration: FunctionDeclaration,
  request: z.ZodType<EditCampaignInput>,
  control: CampaignControl<S>,
  sessionOf: SessionOf<S>,
) =>
  defineOperation({
    declaration,
    ...common,
    request,
    run: ({ input, tenantId, user, context, audit }) => editCampaignBudget(control, sessionOf(user, context), { tenantId, userId: user.userId, input, audit }),
  });
