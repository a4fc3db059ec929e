import { inject } from 'vitest';

// Handlers invoked in-process read the same configuration as the gateway's.
Object.assign(process.env, inject('stack').env);
