// The schema DSL: every Kubernetes type kubelite serves is declared once with these builders, as
// data. Codecs (JSON, YAML, protobuf), validation of structure, pruning, strategic-merge metadata,
// OpenAPI documents and the TypeScript types (`Infer`) are all derived from the declarations.
//
// A declaration mirrors the Go type in k8s.io/api: fields in Go struct order (which is the JSON
// order Kubernetes writes), each with its protobuf field number and the two Go facts the wire
// formats depend on:
// - `pointer`: the Go field is a pointer (or otherwise has presence). Go's protobuf encoder writes
//   non-pointer scalars and structs always (empty strings, zeros, empty messages) and pointer
//   ones only when set.
// - `omitempty`: the Go json tag has omitempty. Without it, Go's JSON encoder writes zero values
//   (`""`, `0`, `false`, `null` for nil slices/maps/pointers, `{}` for structs).

/** Leaf types with a fixed wire form. */
export type ScalarName =
  | 'string'
  | 'bool'
  | 'int32'
  | 'int64'
  | 'double'
  /** []byte: base64 in JSON, bytes in protobuf. */
  | 'bytes'
  /** metav1.Time: RFC 3339 seconds in JSON (null when zero), Timestamp{seconds,nanos} in protobuf. */
  | 'time'
  /** metav1.MicroTime: RFC 3339 with microseconds. */
  | 'microTime'
  /** metav1.Duration: Go duration string ("1h2m3s") in JSON and protobuf. */
  | 'duration'
  /** resource.Quantity: canonical string in JSON and protobuf. */
  | 'quantity'
  /** intstr.IntOrString: number or string in JSON; {type,intVal,strVal} in protobuf. */
  | 'intOrString'
  /** metav1.FieldsV1: a JSON object in JSON; {raw bytes = 1} (the JSON text) in protobuf. */
  | 'fieldsV1'
  /** runtime.RawExtension: any JSON object in JSON; {raw bytes = 1} in protobuf. */
  | 'rawExtension';

export interface ScalarType<N extends ScalarName = ScalarName> {
  readonly kind: 'scalar';
  readonly name: N;
}

export interface ListType<T extends Type = Type> {
  readonly kind: 'list';
  readonly of: T;
}

/** map[string]T (protobuf map<string, T>). */
export interface MapType<T extends Type = Type> {
  readonly kind: 'map';
  readonly of: T;
}

export type Fields = Record<string, Field>;

export interface StructType<F extends Fields = Fields> {
  readonly kind: 'struct';
  /** The OpenAPI definition name, e.g. `io.k8s.api.core.v1.Pod`. Unique across the schema. */
  readonly name: string;
  /** In Go struct order, which is the order Kubernetes writes JSON in. Keys are the JSON names. */
  readonly fields: F;
  readonly description?: string;
  /** `+structType=atomic` (e.g. LabelSelector, OwnerReference): replaced whole by apply and merge. */
  readonly structType?: 'atomic' | 'granular';
  /**
   * Fields beyond `fields` are kept as given instead of pruned (a custom resource whose schema
   * preserves unknown fields at its root: its own schema machinery decides what stays).
   */
  readonly open?: boolean;
}

export type Type = ScalarType | ListType | MapType | StructType;

export type PatchStrategy = 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';

export interface FieldOptions {
  /** Go field is a pointer: protobuf writes it only when set (see the file comment). Default false. */
  pointer?: boolean;
  /** Go json tag has omitempty. Default true (nearly every API field has it). */
  omitempty?: boolean;
  /** Required by validation and marked required in OpenAPI. */
  required?: boolean;
  /** `patchStrategy` struct tag (strategic merge patch). */
  patchStrategy?: PatchStrategy;
  /** `patchMergeKey` struct tag (strategic merge patch). */
  patchMergeKey?: string;
  /** `+listType` (server-side apply, OpenAPI x-kubernetes-list-type). */
  listType?: 'atomic' | 'set' | 'map';
  /** `+listMapKey` values, in order (x-kubernetes-list-map-keys). */
  listMapKeys?: readonly string[];
  /** `+mapType` (x-kubernetes-map-type). */
  mapType?: 'atomic' | 'granular';
  /** The constant default the server sets when the field is unset (version-specific: declare it on the version's type). */
  default?: unknown;
  /** Allowed values (OpenAPI enum). */
  enum?: readonly string[];
  description?: string;
  /**
   * The field comes from a Go struct embedded inline (`json:",inline"` with a protobuf tag, e.g.
   * Volume's VolumeSource, Probe's ProbeHandler, ConfigMapKeySelector's LocalObjectReference): flat
   * in JSON (at the embedded struct's position), but in protobuf a field of the nested message
   * `struct` that sits at field number `tag` of the outer message. Go embeds by value, so that
   * nested message is always written (like any non-pointer struct field). `field.tag` is then the
   * number inside the nested message. Set by `inline()`, not by hand.
   */
  embedded?: Embedding;
}

/**
 * Where an inline-embedded field sits on the protobuf wire: in the nested message `struct` at field
 * number `tag` of the outer message, and — when that struct itself embedded the field's struct
 * (NamedRuleWithOperations embeds RuleWithOperations, which embeds Rule) — `then` inside it.
 */
export interface Embedding {
  readonly tag: number;
  readonly name: string;
  readonly struct: string;
  readonly then?: Embedding;
}

export interface Field<T extends Type = Type> extends Readonly<FieldOptions> {
  readonly type: T;
  /** Protobuf field number from Kubernetes' generated.proto; 0 = not on the protobuf wire (apiVersion, kind). */
  readonly tag: number;
  readonly pointer: boolean;
  readonly omitempty: boolean;
}

const scalar = <N extends ScalarName>(name: N): ScalarType<N> => Object.freeze({ kind: 'scalar', name });

/** The scalar types, to pass to `field`. */
export const t = {
  string: scalar('string'),
  bool: scalar('bool'),
  int32: scalar('int32'),
  int64: scalar('int64'),
  double: scalar('double'),
  bytes: scalar('bytes'),
  time: scalar('time'),
  microTime: scalar('microTime'),
  duration: scalar('duration'),
  quantity: scalar('quantity'),
  intOrString: scalar('intOrString'),
  fieldsV1: scalar('fieldsV1'),
  rawExtension: scalar('rawExtension'),
} as const;

export function listOf<T extends Type>(of: T): ListType<T> {
  return Object.freeze({ kind: 'list', of });
}

export function mapOf<T extends Type>(of: T): MapType<T> {
  return Object.freeze({ kind: 'map', of });
}

export function field<T extends Type>(type: T, tag: number, options: FieldOptions = {}): Field<T> {
  return Object.freeze({ ...options, type, tag, pointer: options.pointer ?? false, omitempty: options.omitempty ?? true });
}

const structNames = new Map<string, StructType>();

export function struct<F extends Fields>(
  name: string,
  fields: F,
  options: { description?: string; structType?: 'atomic' | 'granular' } = {},
): StructType<F> {
  if (structNames.has(name)) throw new Error(`schema: struct ${name} declared twice`);
  const tags = new Set<number>();
  const embeddedTags = new Map<number, { struct: string; tags: Set<number> }>();
  for (const [key, f] of Object.entries(fields)) {
    if (f.embedded) {
      let group = embeddedTags.get(f.embedded.tag);
      if (!group) embeddedTags.set(f.embedded.tag, (group = { struct: f.embedded.struct, tags: new Set() }));
      if (group.struct !== f.embedded.struct)
        throw new Error(`schema: ${name}.${key}: two embedded structs at protobuf tag ${f.embedded.tag}`);
      // A field embedded a level deeper is numbered inside its own nested message.
      const inner = f.embedded.then ? -f.embedded.then.tag : f.tag;
      if (f.embedded.then === undefined && group.tags.has(inner)) throw new Error(`schema: ${name}.${key} reuses protobuf tag ${f.tag}`);
      group.tags.add(inner);
      continue;
    }
    if (f.tag !== 0 && tags.has(f.tag)) throw new Error(`schema: ${name}.${key} reuses protobuf tag ${f.tag}`);
    tags.add(f.tag);
  }
  for (const tag of embeddedTags.keys())
    if (tags.has(tag)) throw new Error(`schema: ${name}: embedded struct's protobuf tag ${tag} is also a field's`);
  const s: StructType<F> = Object.freeze({ kind: 'struct', name, fields: Object.freeze(fields), ...options });
  structNames.set(name, s as StructType);
  return s;
}

/**
 * A struct made while serving (a custom resource's, from its CRD), not part of the declared schema:
 * it is not registered under its name (CRDs come and go, and two may share a kind name).
 */
export function dynamicStruct<F extends Fields>(name: string, fields: F, options: { description?: string; open?: boolean } = {}): StructType<F> {
  return Object.freeze({ kind: 'struct', name, fields: Object.freeze(fields), ...options });
}

/**
 * The fields of a Go struct embedded inline in another (`json:",inline" protobuf:"bytes,<tag>,opt,name=<name>"`),
 * to spread into the outer struct's fields at the embedded field's position:
 * `struct('...Probe', { ...inline(ProbeHandler, 1, 'handler'), initialDelaySeconds: field(t.int32, 2), ... })`.
 * See `FieldOptions.embedded`.
 */
export function inline<F extends Fields>(s: StructType<F>, tag: number, name: string): F {
  const out: Fields = {};
  for (const [k, f] of Object.entries(s.fields)) {
    // A field `s` embeds itself goes one level deeper: `then` keeps where it sits inside `s`.
    const embedded: Embedding = f.embedded ? { tag, name, struct: s.name, then: f.embedded } : { tag, name, struct: s.name };
    out[k] = Object.freeze({ ...f, embedded: Object.freeze(embedded) });
  }
  return out as F;
}

/** Every struct declared so far, by OpenAPI name (for OpenAPI generation and lookups). */
export function declaredStructs(): ReadonlyMap<string, StructType> {
  return structNames;
}

/**
 * A derived struct: the same fields as `base` with some replaced, added (after the base's fields
 * unless `order` says otherwise) or removed. For version differences such as apps/v1beta1's
 * DeploymentSpec (adds rollbackTo, other defaults) without copying the whole declaration.
 */
export function variant<F extends Fields, A extends Fields, R extends keyof F = never>(
  name: string,
  base: StructType<F>,
  changes: { add?: A; remove?: readonly R[]; order?: readonly string[] },
): StructType<Omit<F, R> & A> {
  const fields: Fields = {};
  for (const [k, v] of Object.entries(base.fields)) if (!changes.remove?.includes(k as R)) fields[k] = v;
  for (const [k, v] of Object.entries(changes.add ?? {})) fields[k] = v;
  let ordered = fields;
  if (changes.order) {
    ordered = {};
    for (const k of changes.order) if (k in fields) ordered[k] = fields[k]!;
    for (const k of Object.keys(fields)) if (!(k in ordered)) ordered[k] = fields[k]!;
  }
  return struct(name, ordered as Omit<F, R> & A, { description: base.description, structType: base.structType });
}

/** The TypeScript type of a value of schema type T, as it appears in JSON. Every field is optional. */
export type Infer<T> =
  T extends ScalarType<infer N>
    ? ScalarValue[N]
    : T extends ListType<infer E>
      ? Array<Infer<E>>
      : T extends MapType<infer E>
        ? Record<string, Infer<E>>
        : T extends StructType<infer F>
          ? { -readonly [K in keyof F]?: Infer<F[K]['type']> | null }
          : never;

interface ScalarValue {
  string: string;
  bool: boolean;
  int32: number;
  int64: number;
  double: number;
  bytes: string;
  time: string | null;
  microTime: string | null;
  duration: string;
  quantity: string;
  intOrString: string | number;
  fieldsV1: Record<string, unknown>;
  rawExtension: unknown;
}

/**
 * The JSON Go writes for the zero value of a scalar type: `""`, `false`, `0`, a zero Quantity's
 * `"0"`; null for the rest (nil []byte, zero metav1.Time, empty FieldsV1/RawExtension).
 */
export function goZeroJson(name: ScalarName): unknown {
  switch (name) {
    case 'string':
    case 'duration':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
    case 'double':
    case 'intOrString':
      return 0;
    case 'quantity':
      return '0';
    default:
      return null;
  }
}

/** apiVersion and kind, first in every top-level object (TypeMeta is inline in Go; not in protobuf). */
export const typeMetaFields = {
  kind: field(t.string, 0, { description: 'The type of this object, in CamelCase (Pod, Deployment, ...). Fixed for each REST resource.' }),
  apiVersion: field(t.string, 0, { description: 'The group and version of the schema this object is written in, e.g. v1 or apps/v1.' }),
} as const;
