// OpenAPI component schemas derived from the schema DSL, in Kubernetes' own form: v2
// `definitions` (kubectl's fallback and older clients) and v3 `components.schemas` (kubectl
// explain, apply's field validation), with the x-kubernetes-* extensions that strategic merge
// patch and server-side apply clients read.
import { goZeroJson, type Field, type ScalarName, type StructType, type Type } from '../../api/schema/dsl.js';
import type { KindVersion } from '../../api/schema/kind.js';

export type OpenApiVersion = 'v2' | 'v3';
export type SchemaObject = Record<string, unknown>;

/** The named definitions that scalar wire types refer to, as Kubernetes publishes them. */
const SCALAR_REFS: Partial<Record<ScalarName, string>> = {
  time: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  microTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  quantity: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
  intOrString: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  fieldsV1: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  rawExtension: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
};

// Kubernetes' generator publishes the two scalar unions differently per version: v2 (no oneOf)
// as a string with a format, v3 as a oneOf of the JSON types a value may take (IntOrString keeps
// its format there too). kubectl explain prints a oneOf without a type by its definition's name:
// `<IntOrString>`, `<Quantity>`; a plain `type: string` would print `<string>`.
const INT_OR_STRING_DESCRIPTION = 'A value that is either a 32-bit integer or a string (such as a port name or a percentage).';
const QUANTITY_DESCRIPTION = 'An amount written as a number with an optional suffix: SI (k, M, G), binary (Ki, Mi, Gi) or milli (m), e.g. 500m, 128Mi, 2.';

function scalarDefinition(name: ScalarName, version: OpenApiVersion): SchemaObject {
  switch (name) {
    case 'time':
    case 'microTime':
      return { type: 'string', format: 'date-time' };
    case 'quantity':
      return version === 'v3'
        ? { description: QUANTITY_DESCRIPTION, oneOf: [{ type: 'string' }, { type: 'number' }] }
        : { description: QUANTITY_DESCRIPTION, type: 'string' };
    case 'intOrString':
      return version === 'v3'
        ? { description: INT_OR_STRING_DESCRIPTION, format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] }
        : { description: INT_OR_STRING_DESCRIPTION, type: 'string', format: 'int-or-string' };
    case 'fieldsV1':
    case 'rawExtension':
      return { type: 'object' };
    default:
      throw new Error(`scalar ${name} has no named definition`);
  }
}

function inlineScalar(name: ScalarName): SchemaObject {
  switch (name) {
    case 'string':
    case 'duration':
      return { type: 'string' };
    case 'bool':
      return { type: 'boolean' };
    case 'int32':
      return { type: 'integer', format: 'int32' };
    case 'int64':
      return { type: 'integer', format: 'int64' };
    case 'double':
      return { type: 'number', format: 'double' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    default:
      throw new Error(`scalar ${name} is referenced, not inlined`);
  }
}

/**
 * The zero value Go would default a non-pointer field to, which v3 documents as `default`: a
 * struct's `{}` always (Go writes structs whatever omitempty says), a plain scalar's zero only
 * when its json tag has no omitempty (Kubernetes' generator enforces defaults the same way).
 */
function zeroDefault(type: Type, omitempty = false): unknown {
  if (type.kind === 'struct') return {};
  if (omitempty) return undefined;
  // Quantity and IntOrString are documented without one; null zeros are not defaults.
  if (type.kind !== 'scalar' || type.name === 'quantity' || type.name === 'intOrString') return undefined;
  return goZeroJson(type.name) ?? undefined;
}

class Builder {
  readonly out: Record<string, SchemaObject> = {};
  private readonly gvks = new Map<string, Array<{ group: string; kind: string; version: string }>>();

  constructor(private readonly version: OpenApiVersion) {}

  private ref(name: string): string {
    return this.version === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}`;
  }

  addGvk(type: StructType, gvk: { group: string; kind: string; version: string }): void {
    const list = this.gvks.get(type.name) ?? [];
    if (!list.some((g) => g.group === gvk.group && g.kind === gvk.kind && g.version === gvk.version)) list.push(gvk);
    this.gvks.set(type.name, list);
  }

  /** A schema for a value of `type`, adding the named definitions it needs. */
  typeSchema(type: Type, nonPointerElement: boolean): SchemaObject {
    switch (type.kind) {
      case 'scalar': {
        const named = SCALAR_REFS[type.name];
        if (!named) return inlineScalar(type.name);
        this.out[named] ??= scalarDefinition(type.name, this.version);
        return this.refTo(named, nonPointerElement ? zeroDefault(type) : undefined);
      }
      case 'struct':
        this.addStruct(type);
        return this.refTo(type.name, nonPointerElement ? {} : undefined);
      case 'list':
        return { type: 'array', items: this.elementSchema(type.of) };
      case 'map':
        return { type: 'object', additionalProperties: this.elementSchema(type.of) };
    }
  }

  /** List and map elements in Go are values, not pointers: v3 gives them their zero default. */
  private elementSchema(type: Type): SchemaObject {
    const schema = this.typeSchema(type, true);
    if (this.version === 'v3' && type.kind === 'scalar' && !SCALAR_REFS[type.name]) {
      const d = zeroDefault(type);
      if (d !== undefined) return { ...schema, default: d };
    }
    return schema;
  }

  private refTo(name: string, dflt: unknown): SchemaObject {
    if (this.version === 'v2') return { $ref: this.ref(name) };
    const schema: SchemaObject = { allOf: [{ $ref: this.ref(name) }] };
    if (dflt !== undefined) schema.default = dflt;
    return schema;
  }

  fieldSchema(f: Field): SchemaObject {
    const schema = this.typeSchema(f.type, false);
    // v2 forbids siblings of $ref in strict readers, but Kubernetes adds description there anyway.
    if (f.description) schema.description = f.description;
    if (this.version === 'v3' && !f.pointer && f.default === undefined) {
      const d = zeroDefault(f.type, f.omitempty);
      if (d !== undefined && schema.default === undefined) schema.default = d;
    }
    if (f.default !== undefined) schema.default = f.default;
    if (f.enum) schema.enum = [...f.enum];
    if (f.patchMergeKey) schema['x-kubernetes-patch-merge-key'] = f.patchMergeKey;
    if (f.patchStrategy) schema['x-kubernetes-patch-strategy'] = f.patchStrategy;
    if (f.listType) schema['x-kubernetes-list-type'] = f.listType;
    if (f.listMapKeys) schema['x-kubernetes-list-map-keys'] = [...f.listMapKeys];
    if (f.mapType) schema['x-kubernetes-map-type'] = f.mapType;
    return schema;
  }

  addStruct(type: StructType): void {
    if (this.out[type.name]) return;
    const schema: SchemaObject = { type: 'object' };
    this.out[type.name] = schema; // placed first so recursive types terminate
    if (type.description) schema.description = type.description;
    const properties: Record<string, SchemaObject> = {};
    const required: string[] = [];
    for (const [name, f] of Object.entries(type.fields)) {
      properties[name] = this.fieldSchema(f);
      if (f.required) required.push(name);
    }
    schema.properties = properties;
    if (required.length > 0) schema.required = required;
    if (type.structType === 'atomic') schema['x-kubernetes-map-type'] = 'atomic';
  }

  finish(): Record<string, SchemaObject> {
    for (const [name, gvks] of this.gvks) {
      const schema = this.out[name];
      if (schema) schema['x-kubernetes-group-version-kind'] = gvks;
    }
    return Object.fromEntries(Object.keys(this.out).sort().map((k) => [k, this.out[k]!]));
  }
}

/**
 * The definitions reachable from the given kinds (objects and lists) and extra root types (such
 * as DeleteOptions or Status), each top-level type carrying its x-kubernetes-group-version-kind.
 */
export function buildDefinitions(
  kinds: readonly KindVersion[],
  version: OpenApiVersion,
  extraRoots: ReadonlyArray<{ type: StructType; gvks?: ReadonlyArray<{ group: string; version: string; kind: string }> }> = [],
): Record<string, SchemaObject> {
  const b = new Builder(version);
  for (const k of kinds) {
    b.addStruct(k.type);
    b.addGvk(k.type, { group: k.group, kind: k.kind, version: k.version });
    if (k.list === undefined) continue;
    b.addStruct(k.list);
    b.addGvk(k.list, { group: k.group, kind: `${k.kind}List`, version: k.version });
  }
  for (const root of extraRoots) {
    b.addStruct(root.type);
    for (const g of root.gvks ?? []) b.addGvk(root.type, { group: g.group, kind: g.kind, version: g.version });
  }
  return b.finish();
}
