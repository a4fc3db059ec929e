import { setPriority } from 'node:os';

// A test worker (and what it spawns: child stacks, tsc) yields the CPU to the shared stack, vitest's main
// process at nice 0, which serves every worker: on two cores a sandbox's answer queued behind four
// workers' own work came after the upstream timeout, and a test saw PLATFORM_TIMEOUT that no client would.
setPriority(10);
