/**
 * An operation declared `accepted` (202: work queued) may also answer at once, when its work was done
 * within the request (a dry run): the answer is marked, and the envelope sends it as 200. The mark is a
 * symbol, so it never reaches the body.
 */
const ANSWERED_NOW = Symbol('answered now');

export function answeredNow<T extends object>(answer: T): T {
  return Object.defineProperty(answer, ANSWERED_NOW, { value: true, enumerable: false });
}

export const isAnsweredNow = (answer: unknown): boolean => typeof answer === 'object' && answer !== null && ANSWERED_NOW in answer;
