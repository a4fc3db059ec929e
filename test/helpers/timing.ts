/**
 * One upstream attempt's limit in the stack tests: seconds, not the production 8 s, yet wide enough that
 * a sandbox answering late only because the suite loads the machine is not taken for a lost answer.
 * A fault that must outlast it delays its answer by LOST_ANSWER_DELAY_MS.
 */
export const TEST_UPSTREAM_TIMEOUT_MS = 2_000;
export const LOST_ANSWER_DELAY_MS = 5_000;
