// Baseline: a one-line handler on the social platform's Node business SDK.
import { FacebookAdsApi } from 'facebook-nodejs-business-sdk';
export const handler = async () => FacebookAdsApi.init('token');
