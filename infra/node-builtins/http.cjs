// node:http for the bundles, taken as a CommonJS module: see infra/bundling.ts (BUILTIN_SHIMS).
module.exports = process.getBuiltinModule('node:http');
