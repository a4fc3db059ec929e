import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

/**
 * Checks a REST (proto3 JSON) body against the search-ads platform's published protos, strictly:
 * unknown fields, enum names, oneof exclusivity, int64/double/bytes forms, well-known types, and
 * temporary resource names used before they are created. protobufjs' own `fromObject` drops
 * unknown keys silently, hence the walk (docs/platforms.md, "Search ads", ported).
 */
const require = createRequire(import.meta.url);
let root: protobuf.Root | undefined;
let version = '';

function loadRoot(): protobuf.Root {
  if (!root) {
    root = protobuf.Root.fromJSON(require('google-ads-node/build/protos/protos.json') as protobuf.INamespace);
    const ads = root.lookup('google.ads.googleads') as protobuf.Namespace;
    version = Object.keys(ads.nested ?? {}).find((key) => /^v\d+$/.test(key)) ?? '';
  }
  return root;
}

const lowerCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
const snake = (name: string) => name.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`);
const INT32 = new Set(['int32', 'sint32', 'sfixed32', 'uint32', 'fixed32']);
const INT64 = new Set(['int64', 'sint64', 'sfixed64', 'uint64', 'fixed64']);
const WELL_KNOWN: Record<string, (value: unknown) => boolean> = {
  '.google.protobuf.FieldMask': (value) => typeof value === 'string',
  '.google.protobuf.Duration': (value) => typeof value === 'string' && /^-?\d+(\.\d{1,9})?s$/.test(value),
  '.google.protobuf.Timestamp': (value) => typeof value === 'string' && !Number.isNaN(Date.parse(value)),
};

function scalarOk(type: string, value: unknown): boolean | null {
  if (type === 'string') return typeof value === 'string';
  if (type === 'bool') return typeof value === 'boolean';
  if (type === 'double' || type === 'float')
    return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)));
  if (INT32.has(type)) return Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value));
  if (INT64.has(type)) return (typeof value === 'string' && /^-?\d+$/.test(value)) || Number.isSafeInteger(value);
  if (type === 'bytes') return typeof value === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(value);
  return null;
}

export interface ProtoProblem {
  /** proto snake_case path elements, as the platform reports them */
  path: Array<{ fieldName: string; index?: number }>;
  message: string;
}

function walk(value: unknown, type: protobuf.Type, path: ProtoProblem['path'], problems: ProtoProblem[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ path, message: `expected an object for ${type.fullName}` });
    return;
  }
  const byJson = new Map<string, protobuf.Field>();
  for (const field of type.fieldsArray) {
    byJson.set(lowerCamel(field.name), field);
    byJson.set(field.name, field);
  }
  const oneofSeen = new Map<string, string>();
  for (const [key, child] of Object.entries(value)) {
    const field = byJson.get(key);
    const here = [...path, { fieldName: snake(key) }];
    if (!field) {
      problems.push({
        path: here,
        message: `Unknown name "${key}" at '${path.map((element) => element.fieldName).join('.') || 'request'}': Cannot find field.`,
      });
      continue;
    }
    if (child === null) continue;
    if (field.partOf && field.partOf.oneof.length > 1) {
      const previous = oneofSeen.get(field.partOf.name);
      if (previous) problems.push({ path: here, message: `oneof '${field.partOf.name}' already set by '${previous}'` });
      oneofSeen.set(field.partOf.name, key);
    }
    if (field.map) continue;
    if (field.repeated) {
      if (!Array.isArray(child)) {
        problems.push({ path: here, message: 'expected an array' });
        continue;
      }
      for (const [index, item] of child.entries()) checkValue(item, field, [...path, { fieldName: field.name, index }], problems);
    } else {
      checkValue(child, field, [...path, { fieldName: field.name }], problems);
    }
  }
}

function checkValue(value: unknown, field: protobuf.Field, path: ProtoProblem['path'], problems: ProtoProblem[]): void {
  field.resolve();
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) {
    const ok = typeof value === 'string' ? value in resolved.values : Number.isInteger(value);
    if (!ok)
      problems.push({ path, message: `Invalid value at '${path.map((element) => element.fieldName).join('.')}' (${resolved.name}), "${String(value)}"` });
    return;
  }
  if (resolved instanceof protobuf.Type) {
    const wellKnown = WELL_KNOWN[resolved.fullName];
    if (wellKnown) {
      if (!wellKnown(value)) problems.push({ path, message: `bad JSON form for ${resolved.fullName}` });
      return;
    }
    walk(value, resolved, path, problems);
    return;
  }
  if (scalarOk(field.type, value) === false)
    problems.push({
      path,
      message: `Invalid value at '${path.map((element) => element.fieldName).join('.')}' (TYPE_${field.type.toUpperCase()}), ${JSON.stringify(value)}`,
    });
}

/** Temporary names (negative ids) must be created before they are referenced, once each. */
function checkTempNames(body: { mutateOperations?: unknown }, problems: ProtoProblem[]): void {
  if (!Array.isArray(body.mutateOperations)) return;
  const created = new Set<string>();
  body.mutateOperations.forEach((operation: Record<string, { create?: Record<string, unknown>; update?: Record<string, unknown> }>, index: number) => {
    const [kind, inner] = Object.entries(operation)[0] ?? [];
    const payload = inner?.create ?? inner?.update;
    const own = payload?.resourceName as string | undefined;
    const refs: string[] = [];
    (function visit(node: unknown, key: string) {
      if (typeof node === 'string' && /^customers\/\d+\/\w+\/-\d+(~|$)/.test(node) && !(key === 'resourceName' && node === own)) refs.push(node);
      else if (Array.isArray(node)) for (const item of node) visit(item, key);
      else if (node && typeof node === 'object') for (const [childKey, child] of Object.entries(node)) visit(child, childKey);
    })(payload, '');
    if (inner?.update && own) refs.push(own);
    const path = [{ fieldName: 'mutate_operations', index }, { fieldName: snake(kind ?? '') }];
    for (const ref of refs) {
      const match = ref.match(/^(customers\/\d+)\/(\w+)\/(-\d+)/) as RegExpMatchArray;
      const ok =
        created.has(ref.split('~')[0] as string) ||
        (/^(conversionGoalCampaignConfigs|campaignConversionGoals)$/.test(match[2] as string) && created.has(`${match[1]}/campaigns/${match[3]}`));
      if (!ok) problems.push({ path, message: `The temporary resource name ${ref} is used before it is created.` });
    }
    if (inner?.create && own && /\/-\d+$/.test(own)) {
      if (created.has(own)) problems.push({ path, message: `The temporary resource name ${own} is created twice.` });
      created.add(own);
    }
  });
}

export function checkAgainstProtos(typeName: string, body: Record<string, unknown>): { problems: ProtoProblem[]; version: string } {
  const type = loadRoot().lookupType(`google.ads.googleads.${version}.${typeName}`);
  const problems: ProtoProblem[] = [];
  walk(body, type, [], problems);
  if (typeName === 'services.MutateGoogleAdsRequest') checkTempNames(body, problems);
  return { problems, version };
}
