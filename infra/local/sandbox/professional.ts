import { startSandbox, type Sandbox, type SandboxRoute } from './server.ts';

/** The professional-network (Rest.li marketing API) sandbox. */
const routes: SandboxRoute[] = [];

export function startProfessionalSandbox(): Promise<Sandbox> {
  return startSandbox('professional', routes, (request) => ({
    status: 404,
    body: { status: 404, code: 'NOT_FOUND', message: `No resource found for ${request.method} ${request.path}` },
  }));
}
