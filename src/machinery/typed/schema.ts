// The schema as structured-merge-diff sees it, derived from the DSL declarations the way
// kube-openapi's schemaconv reads Kubernetes' OpenAPI: a list is atomic unless it says
// `+listType=set|map` (x-kubernetes-list-type), or, without a list type, its patch strategy is
// `merge` (then an associative list keyed by its patch merge key, or a set without one); maps and
// structs are granular unless `+mapType=atomic` / `+structType=atomic`. Associative-list keys
// missing from an item take the key field's declared default (as for ports' protocol "TCP").
import { goZeroJson, type Field, type ScalarName, type StructType, type Type } from '../../api/schema/dsl.js';

export type TypedNode = LeafNode | StructNode | MapNode | ListNode | AnyNode;
/** A node whose shape is known (an AnyNode resolved against a value). */
export type ShapedNode = Exclude<TypedNode, AnyNode>;

export interface LeafNode {
  readonly kind: 'leaf';
  readonly scalar: ScalarName;
}

export interface StructNode {
  readonly kind: 'struct';
  readonly name: string;
  readonly atomic: boolean;
  readonly fields: ReadonlyMap<string, TypedNode>;
  /**
   * The node of keys that are not declared fields (a custom resource's object with
   * additionalProperties or x-kubernetes-preserve-unknown-fields); absent: undeclared keys are errors.
   */
  readonly rest?: TypedNode;
}

export interface MapNode {
  readonly kind: 'map';
  readonly atomic: boolean;
  readonly elem: TypedNode;
}

export interface ListNode {
  readonly kind: 'list';
  /** atomic: replaced whole; set: items are their values; map: items are identified by `keys`. */
  readonly relationship: 'atomic' | 'set' | 'map';
  readonly keys: readonly string[];
  readonly keyDefaults: Readonly<Record<string, unknown>>;
  readonly elem: TypedNode;
}

/**
 * A value that may be a scalar, a list or a map, its shape read from the value itself
 * (structured-merge-diff's untyped atom with a list and a map: a custom resource's schema without
 * a type, the values x-kubernetes-preserve-unknown-fields keeps). Scalars are leaves.
 */
export interface AnyNode {
  readonly kind: 'any';
  readonly list: ListNode;
  readonly map: StructNode | MapNode;
}

/** A node for values the schema does not describe (treated as one opaque value). */
export const UNTYPED: LeafNode = Object.freeze({ kind: 'leaf', scalar: 'rawExtension' });

/** The node `node` means for the value `v`: an AnyNode takes the shape of the value. */
export function shaped(node: TypedNode, v: unknown): ShapedNode {
  if (node.kind !== 'any') return node;
  return Array.isArray(v) ? node.list : isObject(v) ? node.map : UNTYPED;
}

/**
 * structured-merge-diff's `__untyped_deduced_`: unknown values kept by
 * x-kubernetes-preserve-unknown-fields. Maps are granular (their keys deduced in turn), lists atomic.
 */
export const DEDUCED: AnyNode = (() => {
  const map: { kind: 'map'; atomic: boolean; elem: TypedNode } = { kind: 'map', atomic: false, elem: UNTYPED };
  const node: AnyNode = { kind: 'any', list: { kind: 'list', relationship: 'atomic', keys: [], keyDefaults: {}, elem: UNTYPED }, map };
  map.elem = node;
  return node;
})();

const leaves = new Map<ScalarName, LeafNode>();
const structs = new WeakMap<StructType, StructNode>();

function leaf(name: ScalarName): LeafNode {
  let n = leaves.get(name);
  if (!n) leaves.set(name, (n = Object.freeze({ kind: 'leaf', scalar: name })));
  return n;
}

/** The node of a struct (compiled once, recursion-safe). */
export function structNode(type: StructType, forceAtomic = false): StructNode {
  if (forceAtomic && type.structType !== 'atomic') {
    return { kind: 'struct', name: type.name, atomic: true, fields: structNode(type).fields };
  }
  let n = structs.get(type);
  if (n) return n;
  const fields = new Map<string, TypedNode>();
  n = { kind: 'struct', name: type.name, atomic: type.structType === 'atomic', fields };
  structs.set(type, n);
  for (const [name, f] of Object.entries(type.fields)) fields.set(name, fieldNode(f));
  return n;
}

/**
 * Makes `type` (a custom resource's synthetic StructType) use `node`, built from its CRD's schema
 * (crdTypedNode), wherever the field manager asks structNode(type) for it.
 */
export function setStructNode(type: StructType, node: StructNode): void {
  structs.set(type, node);
}

function fieldNode(f: Field): TypedNode {
  return typeNode(f.type, f);
}

function typeNode(type: Type, f?: Field): TypedNode {
  switch (type.kind) {
    case 'scalar':
      return leaf(type.name);
    case 'struct':
      return structNode(type, f?.mapType === 'atomic');
    case 'map':
      return { kind: 'map', atomic: f?.mapType === 'atomic', elem: typeNode(type.of) };
    case 'list':
      return listNode(type.of, f);
  }
}

function listNode(of: Type, f: Field | undefined): ListNode {
  let relationship: ListNode['relationship'] = 'atomic';
  let keys: readonly string[] = [];
  if (f?.listType) {
    relationship = f.listType;
    if (f.listType === 'map') keys = f.listMapKeys ?? (f.patchMergeKey ? [f.patchMergeKey] : []);
  } else if (f?.patchStrategy?.split(',').includes('merge')) {
    if (f.patchMergeKey) {
      relationship = 'map';
      keys = [f.patchMergeKey];
    } else {
      relationship = 'set';
    }
  }
  const keyDefaults: Record<string, unknown> = {};
  if (relationship === 'map' && of.kind === 'struct') {
    for (const k of keys) {
      const d = of.fields[k]?.default;
      if (d !== undefined) keyDefaults[k] = d;
    }
  }
  return { kind: 'list', relationship, keys, keyDefaults, elem: typeNode(of) };
}

/** The node of a struct field or map value named `key` under `node` (undefined: not declared). */
export function childNode(node: StructNode | MapNode, key: string): TypedNode | undefined {
  return node.kind === 'struct' ? (node.fields.get(key) ?? node.rest) : node.elem;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Structural equality of JSON values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (!(k in bo) || !deepEqual(ao[k], bo[k])) return false;
    n++;
  }
  for (const _ in bo) n--;
  return n === 0;
}

const zeroObjects = new WeakMap<StructType, Record<string, unknown>>();

/**
 * The JSON of an empty Go object of this type (`json.Marshal(&apps.Deployment{})`): fields without
 * omitempty at their zero value, non-pointer structs always present. Kubernetes compares a created
 * object against this to find the fields its creator set. Frozen and shared: do not mutate.
 */
export function zeroObject(type: StructType): Record<string, unknown> {
  let z = zeroObjects.get(type);
  if (z) return z;
  z = {};
  zeroObjects.set(type, z);
  for (const [name, f] of Object.entries(type.fields)) {
    const t = f.type;
    if (t.kind === 'struct' && !f.pointer) z[name] = zeroObject(t);
    else if (!f.omitempty || (t.kind === 'scalar' && !f.pointer && GO_STRUCT_SCALARS.has(t.name))) z[name] = zeroScalar(f);
  }
  return Object.freeze(z);
}

/** Scalars that are Go structs: omitempty never omits them (a zero metav1.Time is written as null). */
const GO_STRUCT_SCALARS = new Set<ScalarName>(['time', 'microTime', 'quantity', 'intOrString', 'rawExtension']);

function zeroScalar(f: Field): unknown {
  return f.pointer || f.type.kind !== 'scalar' ? null : goZeroJson(f.type.name);
}
