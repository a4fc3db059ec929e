/** The professional network's URN of an ad account. */
export const accountUrn = (accountId: string) => `urn:li:sponsoredAccount:${accountId}`;
