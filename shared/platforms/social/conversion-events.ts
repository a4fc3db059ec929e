import { graphRequest, JsonBytes, type SocialSession } from './client.ts';

/**
 * CRM events to a dataset (docs/conversions.md, "Social"): `POST {dataset}/events` with `data`, the
 * events as JSON. Every event is a CRM stage of a lead (Conversion Leads): `action_source`
 * `system_generated`, `custom_data.event_source` `crm` and the CRM's name as `lead_event_source`. The
 * platform deduplicates on `event_id` with `event_name`, so a request whose answer was lost is sent
 * again as it was. It refuses a whole request for one bad event; the caller sends events alone
 * where one could be refused.
 */
/** Who the event is about: the lead id in clear, everything else hashed (shared/conversions/identifiers.ts). */
export interface SocialUserData {
  lead_id?: string;
  em?: string[];
  ph?: string[];
  fn?: string[];
  ln?: string[];
  zp?: string[];
  country?: string[];
  fbc?: string;
  fbp?: string;
}

export interface SocialServerEvent {
  event_name: string;
  /** UNIX seconds */
  event_time: number;
  event_id: string;
  user_data: SocialUserData;
  custom_data: { lead_event_source: string; value?: number; currency?: string };
}

/**
 * Lead ids are up to 16 digits, past what a JavaScript number holds exactly: each is written as a JSON
 * number from its digits. The mark holds a `~`, which no other value of the body can (names, ids and
 * hashes are validated without it).
 */
const LEAD_ID_MARK = '~lead_id~';

export function eventsJson(events: readonly SocialServerEvent[]): string {
  const body = events.map((event) => ({
    event_name: event.event_name,
    event_time: event.event_time,
    event_id: event.event_id,
    action_source: 'system_generated',
    user_data: event.user_data,
    custom_data: { event_source: 'crm', ...event.custom_data },
  }));
  const text = JSON.stringify(body, (name, value: unknown) =>
    name === 'lead_id' && typeof value === 'string' && /^\d+$/.test(value) ? `${LEAD_ID_MARK}${value}` : value,
  );
  return text.replace(new RegExp(`"${LEAD_ID_MARK}(\\d+)"`, 'g'), '$1');
}

/** How many events the platform took (all of them, when it answers at all). */
export async function sendSocialEvents(session: SocialSession, datasetId: string, events: readonly SocialServerEvent[]): Promise<number> {
  const { body } = await graphRequest<{ events_received?: number }>(
    session,
    'POST',
    `${datasetId}/events`,
    { data: new JsonBytes(Buffer.from(eventsJson(events))) },
    { retrySafe: true },
  );
  return Number(body.events_received ?? events.length);
}
