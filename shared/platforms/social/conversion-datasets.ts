import type { ConversionDestination, ConversionDestinations } from '../conversions.ts';
import { graphRequest, type SocialSession } from './client.ts';
import type { GraphPaging } from './paging.ts';

/**
 * The datasets (pixels) a user's CRM events can go to (docs/conversions.md): the connected ad account's
 * `adspixels`, or, when it has none, the datasets its business owns. A dataset the platform marks
 * unavailable cannot receive events and is not offered. `ads_management`, which every connection
 * holds, is all sending needs.
 */
type Session = SocialSession & { connection: { adAccountId: string } };
interface Dataset {
  id?: string;
  name?: string;
  is_unavailable?: boolean;
}
const DATASET_FIELDS = 'id,name,is_unavailable';
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

async function datasetsOf(session: Session, edge: string): Promise<Dataset[]> {
  const found: Dataset[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { body } = await graphRequest<{ data?: Dataset[]; paging?: GraphPaging }>(session, 'GET', edge, {
      fields: DATASET_FIELDS,
      limit: PAGE_SIZE,
      ...(after ? { after } : {}),
    });
    found.push(...(body.data ?? []));
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
    if (!after) break;
  }
  return found;
}

async function businessOf(session: Session): Promise<string | undefined> {
  const { body } = await graphRequest<{ business?: { id?: string } }>(session, 'GET', `act_${session.connection.adAccountId}`, { fields: 'business' });
  return body.business?.id;
}

export const socialConversionDestinations: ConversionDestinations<Session> = {
  checkScopes: () => undefined,
  async list(session) {
    let datasets = await datasetsOf(session, `act_${session.connection.adAccountId}/adspixels`);
    if (datasets.length === 0) {
      const business = await businessOf(session);
      if (business) datasets = await datasetsOf(session, `${business}/owned_pixels`);
    }
    return datasets
      .filter((dataset) => dataset.id && dataset.is_unavailable !== true)
      .map((dataset): ConversionDestination => ({ destinationId: String(dataset.id), name: String(dataset.name ?? dataset.id), kind: 'dataset' }));
  },
};
