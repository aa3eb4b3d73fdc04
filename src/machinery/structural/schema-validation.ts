// Validation of a CRD version's openAPIV3Schema: the JSONSchemaProps rules of apiextensions/v1
// (pkg/apis/apiextensions/validation: ValidateCustomResourceDefinitionOpenAPISchema and the
// specStandardValidatorV3) and the structural-schema rules (pkg/apiserver/schema: structural
// invariants, value validations that must stay free of generic fields, completeness). CEL rules are
// checked by the CEL part. Messages and paths are Kubernetes'.
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { fieldError, formatFieldError, type FieldError } from '../validation/field-errors.js';
import { validateDefaults } from './default-validation.js';
import { compileGoRegexp } from './go-regexp.js';

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['apiVersion', 'kind', 'metadata']);
const prop = (path: string, k: string): string => `${path}.properties[${k}]`;

interface Context {
  /** Why defaults are forbidden here (undefined: allowed). */
  forbidDefaults?: string;
  insideResourceMeta: boolean;
}

/** ValidateCustomResourceDefinitionOpenAPISchema with the v1 options. */
function validateOpenAPI(s: JSONSchemaProps | undefined, path: string, ctx: Context, isRoot: boolean, out: FieldError[]): void {
  if (s === undefined) return;
  standard(s, path, ctx, out);
  if (s.uniqueItems) out.push(fieldError.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined) {
    const props = s.properties ?? {};
    if (Object.keys(props).length !== 0 && (s.additionalProperties === false || typeof s.additionalProperties === 'object')) {
      out.push(fieldError.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    }
    if (typeof s.additionalProperties === 'object') {
      const sub = ctx.insideResourceMeta ? { ...ctx, forbidDefaults: 'inside additionalProperties applying to object metadata' } : ctx;
      validateOpenAPI(s.additionalProperties, `${path}.additionalProperties`, sub, false, out);
    }
  }
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource']) && metaFields.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub.forbidDefaults = `in top-level ${k}`;
    }
    validateOpenAPI(p, prop(path, k), sub, false, out);
  }
  validateOpenAPI(s.not, `${path}.not`, ctx, false, out);
  (s.allOf ?? []).forEach((x, i) => validateOpenAPI(x, `${path}.allOf[${i}]`, ctx, false, out));
  (s.oneOf ?? []).forEach((x, i) => validateOpenAPI(x, `${path}.oneOf[${i}]`, ctx, false, out));
  (s.anyOf ?? []).forEach((x, i) => validateOpenAPI(x, `${path}.anyOf[${i}]`, ctx, false, out));
  for (const [k, d] of Object.entries(s.definitions ?? {})) validateOpenAPI(d, `${path}.definitions[${k}]`, ctx, false, out);
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) s.items.forEach((x, i) => validateOpenAPI(x, `${path}.items[${i}]`, ctx, false, out));
    else validateOpenAPI(s.items, `${path}.items`, ctx, false, out);
  }
  for (const [k, d] of Object.entries(s.dependencies ?? {})) if (!Array.isArray(d)) validateOpenAPI(d, `${path}.dependencies[${k}]`, ctx, false, out);
  extensions(s, path, out);
}

function standard(s: JSONSchemaProps, path: string, ctx: Context, out: FieldError[]): void {
  if (s.type && !openapiV3Types.includes(s.type)) out.push(fieldError.notSupported(`${path}.type`, s.type, openapiV3Types));
  if (s.default !== undefined && ctx.forbidDefaults !== undefined) out.push(fieldError.forbidden(`${path}.default`, `must not be set ${ctx.forbidDefaults}`));
  if (s.id) out.push(fieldError.forbidden(`${path}.id`, 'id is not supported'));
  if (s.additionalItems !== undefined) out.push(fieldError.forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (s.patternProperties && Object.keys(s.patternProperties).length !== 0) out.push(fieldError.forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (s.definitions && Object.keys(s.definitions).length !== 0) out.push(fieldError.forbidden(`${path}.definitions`, 'definitions is not supported'));
  if (s.dependencies !== undefined) out.push(fieldError.forbidden(`${path}.dependencies`, 'dependencies is not supported'));
  if (s.$ref !== undefined) out.push(fieldError.forbidden(`${path}.$ref`, '$ref is not supported'));
  if (s.type === 'null') out.push(fieldError.forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length !== 0) out.push(fieldError.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource']) out.push(fieldError.forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
}

function extensions(s: JSONSchemaProps, path: string, out: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  if (s['x-kubernetes-preserve-unknown-fields'] === false) out.push(fieldError.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (mapType !== undefined && s.type !== 'object') {
    if (!s.type) out.push(fieldError.required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
    else out.push(fieldError.invalid(`${path}.type`, s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') out.push(fieldError.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (listType !== undefined && s.type !== 'array') {
    if (!s.type) out.push(fieldError.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
    else out.push(fieldError.invalid(`${path}.type`, s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items !== undefined) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      out.push(fieldError.invalid(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      out.push(fieldError.invalid(`${path}.items.x-kubernetes-map-type`, items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') out.push(fieldError.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  if (keys.length > 0) {
    if (listType === undefined) out.push(fieldError.required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') out.push(fieldError.invalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (keys.length === 0) out.push(fieldError.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) out.push(fieldError.required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    if (items !== undefined && items.type !== 'object') out.push(fieldError.invalid(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (items !== undefined && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of keys) {
        const ks = items.properties?.[k];
        if (ks === undefined) out.push(fieldError.invalid(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
        else if (ks.type === 'array' || ks.type === 'object') out.push(fieldError.invalid(`${prop(`${path}.items`, k)}.type`, items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        if (seen.has(k)) out.push(fieldError.invalid(`${path}.x-kubernetes-list-map-keys`, keys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  mapListKeysMapSet(s, path, out);
}

/** validateMapListKeysMapSet: items of sets and maps are never null, and map keys always have a value. */
function mapListKeysMapSet(s: JSONSchemaProps, path: string, out: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (items === undefined || (listType !== 'set' && listType !== 'map')) return;
  if (items.nullable) out.push(fieldError.forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return;
  const required = new Set(items.required ?? []);
  for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
    const p = items.properties?.[k];
    if (p === undefined) continue;
    if (!required.has(k) && p.default === undefined) {
      out.push(fieldError.required(`${prop(`${path}.items`, k)}.default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (p.nullable) out.push(fieldError.forbidden(`${prop(`${path}.items`, k)}.nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
}

type Level = 'root' | 'item' | 'field';
const intOrStringAnyOf = JSON.stringify([{ type: 'integer' }, { type: 'string' }]);

/** The structural invariants (validateStructuralInvariants) of the structural part of `s`. */
function structural(s: JSONSchemaProps, lvl: Level, path: string, out: FieldError[]): void {
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (s.type === 'array' && items === undefined) out.push(fieldError.required(`${path}.items`, 'must be specified'));
  if (items) structural(items, 'item', `${path}.items`, out);
  for (const [k, p] of Object.entries(s.properties ?? {})) structural(p, 'field', prop(path, k), out);
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') out.push(fieldError.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') structural(s.additionalProperties, 'field', `${path}.additionalProperties`, out);
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) out.push(fieldError.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) out.push(fieldError.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  const skipAnyOf = JSON.stringify(s.anyOf) === intOrStringAnyOf;
  const skipFirstAllOfAnyOf = s.allOf !== undefined && s.allOf.length > 0 && JSON.stringify(s.allOf[0]!.anyOf) === intOrStringAnyOf;
  valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, path, out);
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && s.type !== 'object') {
    if (!s.type) out.push(fieldError.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else out.push(fieldError.invalid(`${path}.type`, s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !intOrString && !preserve) {
    const detail = lvl === 'root' ? 'must not be empty at the root' : lvl === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    out.push(fieldError.required(`${path}.type`, detail));
  }
  if (embedded && s.additionalProperties !== undefined) out.push(fieldError.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && s.type && s.type !== 'object') out.push(fieldError.invalid(`${path}.type`, s.type, 'must be object at the root'));
  for (const k of ['kind', 'apiVersion']) {
    const p = s.properties?.[k];
    if (p !== undefined && checkMetadata && p.type !== 'string') out.push(fieldError.invalid(`${prop(path, k)}.type`, p.type ?? '', 'must be string'));
  }
  const metadata = s.properties?.metadata;
  if (metadata !== undefined) metadataInvariants(metadata, checkMetadata, lvl, prop(path, 'metadata'), out);
  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    out.push(fieldError.required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string, out: FieldError[]): void {
  if (checkMetadata && s.type !== 'object') out.push(fieldError.invalid(`${path}.type`, s.type ?? '', 'must be object'));
  if (lvl !== 'root') return;
  // At the root only name and generateName may be specified (metadata is the API server's);
  // everything but type and default (checked elsewhere) counts as specifying something.
  const rest: Record<string, unknown> = { ...s };
  delete rest.type;
  delete rest.default;
  const names = Object.keys(s.properties ?? {});
  if (names.length > 0 && names.every((n) => n === 'name' || n === 'generateName')) delete rest.properties;
  if (Object.keys(rest).length > 0) out.push(fieldError.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
}

/** The value validations (allOf/anyOf/oneOf/not) of a structural node; their schemas must be nested ones. */
function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string, out: FieldError[]): void {
  if (!skipAnyOf) (s.anyOf ?? []).forEach((x, i) => nested(x, false, `${path}.anyOf[${i}]`, out));
  (s.allOf ?? []).forEach((x, i) => nested(x, skipFirstAllOfAnyOf && i === 0, `${path}.allOf[${i}]`, out));
  (s.oneOf ?? []).forEach((x, i) => nested(x, false, `${path}.oneOf[${i}]`, out));
  if (s.not) nested(s.not, false, `${path}.not`, out);
  if (s.pattern) {
    const re = compileGoRegexp(s.pattern);
    if (typeof re === 'string') out.push(fieldError.invalid(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${re}`));
  }
}

function nested(v: JSONSchemaProps, skipAnyOf: boolean, path: string, out: FieldError[]): void {
  valueValidation(v, skipAnyOf, false, path, out);
  if (v.items !== undefined && !Array.isArray(v.items)) nested(v.items, false, `${path}.items`, out);
  for (const [k, p] of Object.entries(v.properties ?? {})) nested(p, false, prop(path, k), out);
  if (v.type) out.push(fieldError.forbidden(`${path}.type`, 'must be empty to be structural'));
  if (v.additionalProperties !== undefined) out.push(fieldError.forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (v.default !== undefined) out.push(fieldError.forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (v.title) out.push(fieldError.forbidden(`${path}.title`, 'must be empty to be structural'));
  if (v.description) out.push(fieldError.forbidden(`${path}.description`, 'must be empty to be structural'));
  if (v.nullable) out.push(fieldError.forbidden(`${path}.nullable`, 'must be false to be structural'));
  if (v['x-kubernetes-preserve-unknown-fields']) out.push(fieldError.forbidden(`${path}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (v['x-kubernetes-embedded-resource']) out.push(fieldError.forbidden(`${path}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (v['x-kubernetes-int-or-string']) out.push(fieldError.forbidden(`${path}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  if ((v['x-kubernetes-list-map-keys'] ?? []).length > 0) out.push(fieldError.forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  if (v['x-kubernetes-list-type'] !== undefined) out.push(fieldError.forbidden(`${path}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (v['x-kubernetes-map-type'] !== undefined) out.push(fieldError.forbidden(`${path}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if ((v['x-kubernetes-validations'] ?? []).length > 0) out.push(fieldError.forbidden(`${path}.x-kubernetes-validations`, 'must be empty to be structural'));
  if (v.properties?.metadata !== undefined) out.push(fieldError.forbidden(`${prop(path, 'metadata')}`, 'must not be specified in a nested context'));
}

/** validateStructuralCompleteness: what the root's value validations name (properties, items) must
 * exist in the structural part. Kubernetes checks the root's value validations only. */
function completeness(root: JSONSchemaProps, path: string, out: FieldError[]): void {
  const required = (sPath: string, vPath: string): void => void out.push(fieldError.required(sPath, `because it is defined in ${vPath}`));
  const compositions = (v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): void => {
    if (v.not) nestedCheck(v.not, s, sPath, `${vPath}.not`);
    (v.allOf ?? []).forEach((x, i) => nestedCheck(x, s, sPath, `${vPath}.allOf[${i}]`));
    (v.anyOf ?? []).forEach((x, i) => nestedCheck(x, s, sPath, `${vPath}.anyOf[${i}]`));
    (v.oneOf ?? []).forEach((x, i) => nestedCheck(x, s, sPath, `${vPath}.oneOf[${i}]`));
  };
  const nestedCheck = (v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): void => {
    if (s === undefined) return required(sPath, vPath);
    compositions(v, s, sPath, vPath);
    if (v.items !== undefined && !Array.isArray(v.items)) nestedCheck(v.items, s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined, `${sPath}.items`, `${vPath}.items`);
    for (const [k, vf] of Object.entries(v.properties ?? {})) {
      const sf = s.properties?.[k];
      if (sf === undefined) required(prop(sPath, k), prop(vPath, k));
      else nestedCheck(vf, sf, prop(sPath, k), prop(vPath, k));
    }
  };
  compositions(root, root, path, path);
}

/** The JSONSchemaProps fields in Go struct order, and those allowed at the root when the status subresource is on. */
const fieldOrder: [keyof JSONSchemaProps, string][] = [
  ['id', 'ID'], ['$schema', 'Schema'], ['$ref', 'Ref'], ['description', 'Description'], ['type', 'Type'], ['nullable', 'Nullable'], ['format', 'Format'], ['title', 'Title'],
  ['default', 'Default'], ['maximum', 'Maximum'], ['exclusiveMaximum', 'ExclusiveMaximum'], ['minimum', 'Minimum'], ['exclusiveMinimum', 'ExclusiveMinimum'], ['maxLength', 'MaxLength'],
  ['minLength', 'MinLength'], ['pattern', 'Pattern'], ['maxItems', 'MaxItems'], ['minItems', 'MinItems'], ['uniqueItems', 'UniqueItems'], ['multipleOf', 'MultipleOf'], ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'], ['minProperties', 'MinProperties'], ['required', 'Required'], ['items', 'Items'], ['allOf', 'AllOf'], ['oneOf', 'OneOf'], ['anyOf', 'AnyOf'],
  ['not', 'Not'], ['properties', 'Properties'], ['additionalProperties', 'AdditionalProperties'], ['patternProperties', 'PatternProperties'], ['dependencies', 'Dependencies'],
  ['additionalItems', 'AdditionalItems'], ['definitions', 'Definitions'], ['externalDocs', 'ExternalDocs'], ['example', 'Example'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'], ['x-kubernetes-embedded-resource', 'XEmbeddedResource'], ['x-kubernetes-int-or-string', 'XIntOrString'],
  ['x-kubernetes-list-map-keys', 'XListMapKeys'], ['x-kubernetes-list-type', 'XListType'], ['x-kubernetes-map-type', 'XMapType'], ['x-kubernetes-validations', 'XValidations'],
];
const allowedAtRootWithStatus = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];

const isZero = (v: unknown): boolean => v === undefined || v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0);

/** With the status subresource on, the root may only hold fields whose meaning survives extracting properties[status]. */
function statusRoot(s: JSONSchemaProps, path: string, out: FieldError[]): void {
  for (const [key, goName] of fieldOrder) {
    if (isZero(s[key])) continue;
    if (goName === 'Type') {
      if (s.type !== 'object') {
        out.push(fieldError.invalid(`${path}.type`, s.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
        break;
      }
      continue;
    }
    if (!allowedAtRootWithStatus.includes(goName)) {
      // Kubernetes prints the whole schema struct as the value; the message carries the rule.
      out.push(fieldError.invalidOmit(path, `only [${allowedAtRootWithStatus.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
      break;
    }
  }
}

export function validateSchema(schema: JSONSchemaProps, path: string, statusSubresource: boolean): FieldError[] {
  const out: FieldError[] = [];
  if (statusSubresource) statusRoot(schema, path, out);
  if (schema.nullable) out.push(fieldError.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  const structuralErrs: FieldError[] = [];
  structural(schema, 'root', path, structuralErrs);
  completeness(schema, path, structuralErrs);
  if (structuralErrs.length > 0) {
    // ValidateStructural sorts its errors by their text.
    const keyed = structuralErrs.map((e) => [formatFieldError(e), e] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out.push(...keyed.map(([, e]) => e));
  } else {
    // Defaults are only checked on a structural schema.
    out.push(...validateDefaults(schema, path));
  }
  validateOpenAPI(schema, path, { insideResourceMeta: false }, true, out);
  return out;
}
