import { inject } from 'vitest';
import { installLocalClock, LocalClock } from '../../local/clock.ts';

// Handlers invoked in-process read the same configuration as the gateway's, and the same kind of clock.
Object.assign(process.env, inject('stack').env);
installLocalClock(new LocalClock({ instantSleeps: true }));
