// A CRD version's schema as apiextensions-apiserver publishes it: only when it is structural
// (otherwise the kind is published as a bare object), with x-kubernetes-int-or-string unfolded
// into its anyOf, in the form structural schemas print (ToKubeOpenAPI: the fields a structural
// schema keeps — no example, externalDocs, id, $ref, definitions), and for Swagger 2.0 reduced to
// what v2 can say (ToStructuralOpenAPIV2: no allOf/anyOf/oneOf/not, nullable fields lose their
// type and leave `required`, preserve-unknown-fields subtrees lose their properties).
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import type { SchemaObject } from './definitions.js';

const OPENAPI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const UNSUPPORTED = ['id', '$schema', '$ref', 'patternProperties', 'dependencies', 'additionalItems', 'definitions'] as const;

/** What only the structural part may carry, not allOf/anyOf/oneOf/not (ValidateStructural's strict options). */
const GENERIC_OR_EXTENSION = [
  'type', 'description', 'title', 'default', 'nullable',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations',
  'additionalProperties',
] as const;

function hasUnsupported(s: JSONSchemaProps): boolean {
  return UNSUPPORTED.some((k) => s[k] !== undefined && s[k] !== '') || Array.isArray(s.items) || s['x-kubernetes-preserve-unknown-fields'] === false;
}

/**
 * Whether the schema is structural in the rules that decide publication (NewStructural succeeds,
 * no invalid types, ValidateStructural's core rules: a type on every specified node unless
 * int-or-string or preserve-unknown-fields, items on arrays, an object root, value validations
 * that only restate the structure and carry no types, descriptions, defaults or extensions).
 * A CRD that passed creation's validation is structural; this guards stored oddities.
 */
export function isStructural(root: JSONSchemaProps): boolean {
  if (root.type !== 'object') return false;
  return structuralNode(root, true);
}

function structuralNode(s: JSONSchemaProps, isRoot = false): boolean {
  if (hasUnsupported(s)) return false;
  if (s.type !== undefined && s.type !== '' && !OPENAPI_TYPES.has(s.type)) return false;
  if (!isRoot && !s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) return false;
  if (s.type === 'array' && s.items === undefined) return false;
  if (s.properties && typeof s.additionalProperties === 'object') return false;
  for (const p of Object.values(s.properties ?? {})) if (!structuralNode(p)) return false;
  if (s.items && !Array.isArray(s.items) && !structuralNode(s.items)) return false;
  if (typeof s.additionalProperties === 'object' && !structuralNode(s.additionalProperties)) return false;
  for (const v of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.not ? [s.not] : [])]) {
    if (!nestedValidation(v, s, s['x-kubernetes-int-or-string'] === true)) return false;
  }
  return true;
}

/** A value validation (allOf/anyOf/oneOf/not) checked against the structural node it applies to. */
function nestedValidation(v: JSONSchemaProps, structural: JSONSchemaProps | undefined, intOrString: boolean): boolean {
  if (hasUnsupported(v)) return false;
  for (const k of GENERIC_OR_EXTENSION) {
    // int-or-string's own pattern: anyOf [{type: integer}, {type: string}] is the one exception.
    if (v[k] !== undefined && !(intOrString && k === 'type' && (v.type === 'integer' || v.type === 'string'))) return false;
  }
  // Reasoning about metadata in a value validation is forbidden (it could restrict metadata).
  if (v.properties?.metadata) return false;
  for (const [name, p] of Object.entries(v.properties ?? {})) {
    const sp = structural?.properties?.[name] ?? (typeof structural?.additionalProperties === 'object' ? structural.additionalProperties : undefined);
    if (!sp && !structural?.['x-kubernetes-preserve-unknown-fields']) return false;
    if (!nestedValidation(p, sp, false)) return false;
  }
  if (v.items !== undefined) {
    const si = structural?.items;
    if (Array.isArray(v.items) || (!si && !structural?.['x-kubernetes-preserve-unknown-fields'])) return false;
    if (!nestedValidation(v.items, Array.isArray(si) ? undefined : si, false)) return false;
  }
  for (const n of [...(v.allOf ?? []), ...(v.anyOf ?? []), ...(v.oneOf ?? []), ...(v.not ? [v.not] : [])]) {
    if (!nestedValidation(n, structural, intOrString)) return false;
  }
  return true;
}

const isOnly = (s: JSONSchemaProps, type: string): boolean => Object.keys(s).length === 1 && s.type === type;

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  return anyOf?.length === 2 && isOnly(anyOf[0]!, 'integer') && isOnly(anyOf[1]!, 'string');
}

/** Unfold: int-or-string nodes get the anyOf that says so, unless they already have it. */
function unfold(s: JSONSchemaProps): JSONSchemaProps {
  if (!s['x-kubernetes-int-or-string']) return s;
  const first = s.allOf?.[0];
  if (isIntOrStringAnyOf(s.anyOf) || (first && Object.keys(first).length === 1 && isIntOrStringAnyOf(first.anyOf))) return s;
  const pattern: JSONSchemaProps[] = [{ type: 'integer' }, { type: 'string' }];
  return s.anyOf === undefined ? { ...s, anyOf: pattern } : { ...s, allOf: [{ anyOf: pattern }, ...(s.allOf ?? [])] };
}

/** ToStructuralOpenAPIV2 on one structural node (its children are converted after it). */
function toV2Node(s: JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = { ...s };
  delete out.allOf;
  delete out.oneOf;
  delete out.anyOf;
  delete out.not;
  if (out.nullable) {
    delete out.type;
    delete out.nullable;
    delete out.items;
    delete out.properties;
  }
  if (out['x-kubernetes-preserve-unknown-fields']) {
    delete out.items;
    delete out.properties;
  }
  if (out.items === undefined && out.type === 'array') delete out.type;
  if (out['x-kubernetes-preserve-unknown-fields'] && out.type === 'object') delete out.type;
  if (out.required && out.properties) {
    const props = out.properties;
    const kept = out.required.filter((f) => !props[f]?.nullable);
    if (kept.length === 0) delete out.required;
    else out.required = kept;
  }
  if (typeof out.additionalProperties === 'object' && out.additionalProperties.nullable) delete out.required;
  return out;
}

export interface PublishOptions {
  /** Swagger 2.0: apply ToStructuralOpenAPIV2. */
  v2: boolean;
}

/** The structural node (Structural.ToKubeOpenAPI), unfolded, converted for v2 when asked. */
export function publishSchema(input: JSONSchemaProps, opts: PublishOptions): SchemaObject {
  let s = unfold(input);
  if (opts.v2) s = toV2Node(s);
  const out: SchemaObject = {};
  if (s.items !== undefined && !Array.isArray(s.items)) out.items = publishSchema(s.items, opts);
  if (s.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, publishSchema(v, opts)]));
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'boolean' ? s.additionalProperties : publishSchema(s.additionalProperties, opts);
  }
  generics(s, out);
  extensions(s, out);
  valueValidation(s, out);
  return out;
}

function generics(s: JSONSchemaProps, out: SchemaObject): void {
  if (s.type) out.type = s.type;
  if (s.nullable) out.nullable = true;
  if (s.description) out.description = s.description;
  if (s.title) out.title = s.title;
  if (s.default !== undefined) out.default = s.default;
}

function extensions(s: JSONSchemaProps, out: SchemaObject): void {
  if (s['x-kubernetes-preserve-unknown-fields']) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (s['x-kubernetes-embedded-resource']) out['x-kubernetes-embedded-resource'] = true;
  if (s['x-kubernetes-int-or-string']) out['x-kubernetes-int-or-string'] = true;
  if (s['x-kubernetes-list-map-keys']?.length) out['x-kubernetes-list-map-keys'] = [...s['x-kubernetes-list-map-keys']];
  if (s['x-kubernetes-list-type'] !== undefined) out['x-kubernetes-list-type'] = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-map-type'] !== undefined) out['x-kubernetes-map-type'] = s['x-kubernetes-map-type'];
}

const VALUE_FIELDS = [
  'format', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties', 'minProperties', 'required',
] as const;

/** ValueValidation and ValidationExtensions: Go's zero values (false, "", empty lists) are not written. */
function valueValidation(s: JSONSchemaProps, out: SchemaObject): void {
  for (const k of VALUE_FIELDS) {
    const v = s[k];
    if (v === undefined || v === false || v === '' || (Array.isArray(v) && v.length === 0 && k === 'required')) continue;
    out[k] = Array.isArray(v) ? [...v] : v;
  }
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (list && list.length > 0) out[k] = list.map(nested);
  }
  if (s.not) out.not = nested(s.not);
  if (s['x-kubernetes-validations']?.length) out['x-kubernetes-validations'] = s['x-kubernetes-validations'].map((r) => ({ ...r }));
}

/** NestedValueValidation.toKubeOpenAPI: validations, items and properties (additionalProperties are not printed). */
function nested(s: JSONSchemaProps): SchemaObject {
  const out: SchemaObject = {};
  valueValidation(s, out);
  if (s.items !== undefined && !Array.isArray(s.items)) out.items = nested(s.items);
  if (s.properties !== undefined) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, nested(v)]));
  generics(s, out);
  extensions(s, out);
  return out;
}

/** PruneDefaults: v2 documents carry no `default` anywhere (kube-openapi's handler prunes them). */
export function pruneDefaults(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(pruneDefaults);
  if (s === null || typeof s !== 'object') return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'default') continue;
    if (k === 'properties' && v !== null && typeof v === 'object') {
      // Property names are not keywords: a property called "default" stays.
      out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, pruneDefaults(p)]));
    } else {
      // enum values and x-kubernetes-* lists are data, not schemas.
      out[k] = k === 'enum' || k.startsWith('x-kubernetes-') ? v : pruneDefaults(v);
    }
  }
  return out;
}
