import { defineOperation } from '../../shared/http/operation.ts';
import { findConversionStages, stagesView } from '../../shared/store/conversion-stages.ts';
import { declaration } from './declaration.ts';
import { getStagesRequest } from './schema.ts';

/** POST /conversions/get_stages (docs/conversions.md): the funnel as set, or no stages. */
export const handler = defineOperation({
  declaration,
  request: getStagesRequest,
  run: async ({ tenantId, user }) => stagesView(await findConversionStages(tenantId, user.userId)),
});
