// Baseline: a one-line handler on the search-ads platform's Node client library.
import { GoogleAdsApi } from 'google-ads-api';
export const handler = async () => new GoogleAdsApi({ client_id: 'id', client_secret: 'secret', developer_token: 'token' });
