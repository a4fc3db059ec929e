import { setPriority } from 'node:os';
import { afterEach, inject } from 'vitest';
import { installLocalClock, LocalClock } from '../../local/clock.ts';
import { withdrawLeftoverFaults } from '../helpers/sandbox.ts';

// Handlers invoked in-process read the same configuration as the gateway's, and the same kind of clock.
Object.assign(process.env, inject('stack').env);
installLocalClock(new LocalClock({ instantSleeps: true }));
afterEach(withdrawLeftoverFaults);
// The test workers yield the CPU to the shared stack (vitest's main process, nice 0), which serves all of
// them: on two cores a sandbox's answer queued behind four workers' own work came after the upstream
// timeout, and a test then saw PLATFORM_TIMEOUT that no client would.
setPriority(10);
