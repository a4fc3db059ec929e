import type { Platform } from '../core/errors.ts';
import type { PlatformAdapter } from './adapter.ts';
import { professionalPlatform } from './professional/index.ts';
import { searchadsPlatform } from './searchads/index.ts';
import { socialPlatform } from './social/index.ts';

/**
 * Every platform's adapter, by name: the one place that lists them for the features that work on all
 * three (connect links, disconnects, rules). A function for one platform imports that platform's
 * modules alone, so its bundle carries no other platform's code.
 */
export const platformAdapters: Record<Platform, PlatformAdapter> = {
  social: socialPlatform as PlatformAdapter,
  searchads: searchadsPlatform as PlatformAdapter,
  professional: professionalPlatform as PlatformAdapter,
};
