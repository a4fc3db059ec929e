/**
 * The gateway's limits on the routes a browser follows while connecting (requests per second, and
 * the burst above it): a person makes a handful of requests per connection, so these leave room for
 * many at once while keeping an unauthenticated route from being hammered.
 */
export const CONNECT_ROUTE_THROTTLE = { burstLimit: 50, rateLimit: 20 } as const;
