/**
 * Connect and read timeouts for every AWS SDK client (DynamoDB, S3, SQS, Secrets Manager): the SDK's
 * Node handler waits forever by default, so a stalled socket (a read of a file that stops coming, a
 * store that stops answering) would hold a function, and a job's lease, until Lambda kills it.
 * `requestTimeout` is the socket's idle time: a long stream that keeps moving is never cut.
 */
export const AWS_REQUEST_HANDLER = { connectionTimeout: 3_000, requestTimeout: 20_000 } as const;
