import { afterEach, beforeAll, inject } from 'vitest';
import { installLocalClock, LocalClock } from '../../local/clock.ts';
import { markRequestsBeforeThisFile, withdrawLeftoverFaults } from '../helpers/sandbox.ts';

// Handlers invoked in-process read the same configuration as the gateway's, and the same kind of clock.
Object.assign(process.env, inject('stack').env);
installLocalClock(new LocalClock({ instantSleeps: true }));
afterEach(withdrawLeftoverFaults);
// a test reads the sandboxes' requests from its file's start on, not every other file's before it
beforeAll(markRequestsBeforeThisFile);
