import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { documentedRoutes } from '../../functions/routes.ts';
import { buildOpenApiDocument } from '../../shared/docs/openapi.ts';

/**
 * Every answer a stack test receives is held to the published OpenAPI document: its status must be
 * one the operation documents, and its body must match that response's schema. One validator, in the
 * helpers every test calls through, so the document cannot drift from what the service answers.
 */
type Operation = { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> };
const document = buildOpenApiDocument(documentedRoutes) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, unknown> };
};
const ajv = new Ajv2020({ strict: false, validateFormats: false, validateSchema: false, allErrors: true });
ajv.addSchema(document as object, 'openapi');
const compiled = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function validatorFor(path: string, method: string, status: number): ValidateFunction | 'undocumented-status' | undefined {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) return undefined; // not a documented JSON operation (the browser routes, the document itself)
  const response = operation.responses[String(status)];
  if (!response) return 'undocumented-status';
  const where = response.$ref
    ? `openapi#/${pointer('components', 'responses', response.$ref.split('/').at(-1) as string, 'content', 'application/json', 'schema')}`
    : `openapi#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
  let validate = compiled.get(where);
  if (!validate) {
    validate = ajv.compile({ $ref: where });
    compiled.set(where, validate);
  }
  return validate;
}

/** Throws, naming what broke, when an answer is not what the document says the route answers. */
export function assertDocumented(path: string, method: string, status: number, body: unknown, contentType: string | null): void {
  if (status === 404 && !document.paths[path]) return; // an unknown path: the gateway's own answer
  const validate = validatorFor(path, method, status);
  if (validate === undefined) return;
  if (validate === 'undocumented-status')
    throw new Error(`The OpenAPI document gives ${method} ${path} no ${status} answer, which the service sent: ${JSON.stringify(body)}`);
  if (!/json/.test(contentType ?? '')) throw new Error(`${method} ${path} answered ${status} with ${contentType}, not the JSON the document describes`);
  if (!validate(body))
    throw new Error(
      `${method} ${path} answered ${status} with a body the OpenAPI document does not describe: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
}
