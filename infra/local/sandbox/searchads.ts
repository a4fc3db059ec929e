import { startSandbox, type Sandbox, type SandboxRoute } from './server.ts';

/** The search-ads REST API sandbox (OAuth token endpoint, mutate, searchStream). */
const routes: SandboxRoute[] = [];

export function startSearchadsSandbox(): Promise<Sandbox> {
  return startSandbox('searchads', routes, (request) => ({
    status: 404,
    body: { error: { code: 404, message: `The requested URL ${request.path} was not found on this server.`, status: 'NOT_FOUND' } },
  }));
}
