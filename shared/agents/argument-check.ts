import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Tool } from './tool-catalog.ts';

/**
 * Whether a tool's arguments fit its input schema, checked before anything is sent or held for a
 * confirmation, so that an agent gets every problem at once as a tool error and can correct itself
 * (docs/agents.md). The route validates again with its own zod schema, which the input schema was made
 * from. Formats are left to the route (zod writes each as a pattern too); zod's patterns are JavaScript
 * regular expressions, compiled as such.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
const validators = new Map<string, ValidateFunction>();
const MAX_PROBLEMS = 20;

export interface ArgumentProblem {
  path: string;
  message: string;
}

export function argumentProblems(tool: Tool, args: unknown): ArgumentProblem[] {
  let validate = validators.get(tool.name);
  if (!validate) {
    validate = ajv.compile(tool.inputSchema);
    validators.set(tool.name, validate);
  }
  if (validate(args)) return [];
  return (validate.errors ?? []).slice(0, MAX_PROBLEMS).map((error) => {
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    const at = error.instancePath.slice(1).replaceAll('/', '.');
    const field = [at, missing ?? extra].filter(Boolean).join('.');
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
    const message = extra ? 'is not a field of this tool' : `${error.message ?? 'does not fit'}${allowed ? `: ${allowed.join(', ')}` : ''}`;
    return { path: field || '(arguments)', message };
  });
}
