import { afterEach, inject } from 'vitest';
import { installLocalClock, LocalClock } from '../../local/clock.ts';
import { withdrawLeftoverFaults } from '../helpers/sandbox.ts';

// Handlers invoked in-process read the same configuration as the gateway's, and the same kind of clock.
Object.assign(process.env, inject('stack').env);
installLocalClock(new LocalClock({ instantSleeps: true }));
afterEach(withdrawLeftoverFaults);
