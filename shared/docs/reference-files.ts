/** Where the reference page's renderer is served, and where the CDK stack puts it beside its function. */
export const REFERENCE_SCRIPT_PATH = '/docs/scalar-api-reference.js';
export const REFERENCE_SCRIPT_FILE = 'scalar-api-reference.js';
export const REFERENCE_SCRIPT_MODULE = '@scalar/api-reference/browser/standalone.js';
