import { clock } from '../core/clock.ts';

/** Examples' dates are relative to the day the document is built, so they stay valid on any day. */
export const day = (offset: number) => clock.today(offset);
