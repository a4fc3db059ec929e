import { loadAppCredentials } from '../../secrets/app-credentials.ts';
import { connectionHealth } from '../middleware/connection-health.ts';

/**
 * The wiring of an operation that reads from a platform for a user (docs/architecture.md, "The way of a request"):
 * our apps' credentials, and the user's connection health kept as the platform answers. Spread into
 * `defineOperation`; defineOperation checks it against the declaration.
 */
export const PLATFORM_READ = { credentials: loadAppCredentials, connectionHealth } as const;
