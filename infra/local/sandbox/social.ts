import { startSandbox, type Sandbox, type SandboxRoute } from './server.ts';

/** The social platform (Graph-style Marketing API) sandbox; its endpoints are in the routes below. */
const routes: SandboxRoute[] = [];

export function startSocialSandbox(): Promise<Sandbox> {
  return startSandbox('social', routes, (request) => ({
    status: 400,
    body: {
      error: {
        message: `Unsupported ${request.method.toLowerCase()} request. Object with ID '${request.path.split('/').pop()}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        fbtrace_id: 'SandboxTrace',
      },
    },
  }));
}
