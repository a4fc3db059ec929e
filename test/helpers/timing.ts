/**
 * One upstream attempt's limit in the stack tests: seconds, not the production 8 s, yet wide enough that
 * a sandbox answering late only because the suite loads the machine (three test files at a time on two
 * cores) is not taken for a lost answer. A fault that must outlast it delays its answer by
 * LOST_ANSWER_DELAY_MS.
 */
export const TEST_UPSTREAM_TIMEOUT_MS = 3_000;
export const LOST_ANSWER_DELAY_MS = 6_000;
