import type { Context } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { DestinationNotFound, PLATFORMS, type Platform } from '../../../shared/core/errors.ts';
import type { ConversionDestination } from '../../../shared/platforms/conversions.ts';
import type { StageMapping } from '../../../shared/schemas/conversions.ts';
import { putConversionStages } from '../../../shared/store/conversion-stage-writes.ts';
import { type StoredStage, stagesView } from '../../../shared/store/conversion-stages.ts';
import type { User } from '../../../shared/store/users.ts';
import { destinationsOf } from './destinations.ts';

/** The destination id a stage names on one platform, if it maps there. */
export function destinationIdOf(stage: StageMapping, platform: Platform): string | undefined {
  if (platform === 'social') return stage.social?.datasetId;
  if (platform === 'searchads') return stage.searchads?.conversionActionId;
  return stage.professional?.conversionRuleId;
}

/**
 * Replaces the user's funnel (docs/conversions.md): every destination it names must be one the
 * platform lists for the user's connection now (one read per platform named), else 400
 * DESTINATION_NOT_FOUND naming the first that is not, and nothing is stored.
 */
export async function setConversionStages(tenantId: string, user: User, input: { crmName: string; stages: StageMapping[] }, context: Context) {
  const reachable = new Map<Platform, Map<string, ConversionDestination>>();
  for (const platform of PLATFORMS.filter((name) => input.stages.some((stage) => destinationIdOf(stage, name)))) {
    const listed = await destinationsOf(user, platform, context);
    reachable.set(platform, new Map(listed.map((destination) => [destination.destinationId, destination])));
  }
  const stages = input.stages.map((stage): StoredStage => {
    for (const platform of PLATFORMS) {
      const id = destinationIdOf(stage, platform);
      if (id !== undefined && !reachable.get(platform)?.has(id)) throw new DestinationNotFound(platform, id);
    }
    const lookbackDays = stage.searchads ? reachable.get('searchads')?.get(stage.searchads.conversionActionId)?.lookbackDays : undefined;
    return stage.searchads && lookbackDays ? { ...stage, searchads: { ...stage.searchads, lookbackDays } } : stage;
  });
  const stored = { crmName: input.crmName, stages, updatedAt: clock.date().toISOString() };
  await putConversionStages(tenantId, user.userId, stored);
  return stagesView(stored);
}
