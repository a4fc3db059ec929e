import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { requestTime } from '../../local/gateway.ts';
import { clock } from '../../shared/core/clock.ts';
import { stack } from './api.ts';
import { fillDates } from './fixtures.ts';

/** The one fake Lambda context the tests share. */
export function lambdaContext(functionName = 'test-function'): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * A sam-style event of an operation's folder (`create-user.valid`: functions/create-user/events/valid.json),
 * with the test stack's API key in place of the placeholder
 * `{{API_KEY}}`, dates such as `{{DAY+1}}` filled in from today, a fresh request id and the request
 * time of now.
 */
export function loadEvent(name: string): APIGatewayProxyEventV2 {
  const [folder, kind] = [name.slice(0, name.lastIndexOf('.')), name.slice(name.lastIndexOf('.') + 1)];
  const text = fillDates(
    readFileSync(new URL(`../../functions/${folder}/events/${kind}.json`, import.meta.url), 'utf8')
      .replaceAll('{{API_KEY}}', stack().apiKey)
      // an image the social sandbox serves (loopback http is allowed to the local stack)
      .replaceAll('{{SOCIAL_SANDBOX_URL}}', stack().sandboxes.social ?? '')
      .replaceAll('{{PROFESSIONAL_SANDBOX_URL}}', stack().sandboxes.professional ?? ''),
  );
  const event = JSON.parse(text) as APIGatewayProxyEventV2;
  event.requestContext.requestId = randomUUID();
  event.requestContext.timeEpoch = clock.now();
  event.requestContext.time = requestTime(clock.date());
  return event;
}
