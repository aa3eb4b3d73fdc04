// The server-side apply schema of a custom resource, read from its published OpenAPI v3 schema
// the way kube-openapi's schemaconv reads it (ToSchemaFromOpenAPI): lists are atomic unless
// x-kubernetes-list-type says set or map (keyed by x-kubernetes-list-map-keys); objects are
// granular unless x-kubernetes-map-type is atomic; an object's undeclared keys follow
// additionalProperties, or are deduced from their values when the object has no properties or
// x-kubernetes-preserve-unknown-fields is set on it or above it; a node without a type may be a
// scalar, a list or a map; strings with a format other than byte, and int-or-string, are untyped
// scalars. The kind's apiVersion/kind/metadata come from the builder (metadata: ObjectMeta).
import type { StructType } from '../../api/schema/dsl.js';
import { DEDUCED, structNode, UNTYPED, type ListNode, type MapNode, type StructNode, type TypedNode } from './schema.js';

type Schema = Record<string, unknown>;

/** Resolves a `#/components/schemas/<name>` reference to the DSL type of that definition. */
export type RefResolver = (name: string) => StructType | undefined;

const leafs = {
  integer: { kind: 'leaf', scalar: 'int64' },
  number: { kind: 'leaf', scalar: 'double' },
  boolean: { kind: 'leaf', scalar: 'bool' },
  string: { kind: 'leaf', scalar: 'string' },
} as const;

function refName(s: Schema): string | undefined {
  let ref = typeof s.$ref === 'string' ? s.$ref : undefined;
  const allOf = s.allOf as Schema[] | undefined;
  if (ref === undefined && allOf?.length === 1 && typeof allOf[0]!.$ref === 'string') ref = allOf[0]!.$ref as string;
  return ref === undefined ? undefined : ref.slice(ref.lastIndexOf('/') + 1);
}

/** A property, item or additionalProperties schema: a named reference or an inlined schema. */
function refOrInline(s: Schema, refs: RefResolver, preserve: boolean): TypedNode {
  const name = refName(s);
  if (name === undefined) return openApiNode(s, refs, preserve);
  const type = refs(name);
  if (!type) return UNTYPED;
  return structNode(type, s['x-kubernetes-map-type'] === 'atomic');
}

/** One schema node; `preserve`: x-kubernetes-preserve-unknown-fields is set here or above. */
export function openApiNode(s: Schema, refs: RefResolver, preserve = false): TypedNode {
  const keep = preserve || s['x-kubernetes-preserve-unknown-fields'] === true;
  const type = typeof s.type === 'string' ? s.type : '';
  switch (type) {
    case '':
      return { kind: 'any', list: list(s, refs, keep), map: object(s, refs, keep) };
    case 'object':
      return object(s, refs, keep);
    case 'array':
      return list(s, refs, keep);
    case 'string':
      return s.format === undefined || s.format === '' || s.format === 'byte' ? leafs.string : UNTYPED;
    case 'integer':
    case 'number':
    case 'boolean':
      return leafs[type];
    default:
      return UNTYPED;
  }
}

function object(s: Schema, refs: RefResolver, preserve: boolean): StructNode | MapNode {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(props);
  const ap = s.additionalProperties;
  let rest: TypedNode | undefined;
  if (ap === undefined) rest = preserve || names.length === 0 ? DEDUCED : undefined;
  else if (ap !== null && typeof ap === 'object') rest = refOrInline(ap as Schema, refs, preserve);
  else rest = ap === true ? DEDUCED : undefined;
  const atomic = s['x-kubernetes-map-type'] === 'atomic';
  if (names.length === 0 && rest) return { kind: 'map', atomic, elem: rest };
  const fields = new Map<string, TypedNode>();
  for (const n of names) fields.set(n, refOrInline(props[n]!, refs, preserve));
  // Inlined objects have no definition name (structured-merge-diff's inlined atoms).
  return rest ? { kind: 'struct', name: '', atomic, fields, rest } : { kind: 'struct', name: '', atomic, fields };
}

function list(s: Schema, refs: RefResolver, preserve: boolean): ListNode {
  const listType = s['x-kubernetes-list-type'];
  const relationship = listType === 'set' || listType === 'map' ? listType : 'atomic';
  const keys = relationship === 'map' ? [...((s['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [])] : [];
  const items = s.items !== null && typeof s.items === 'object' && !Array.isArray(s.items) ? (s.items as Schema) : undefined;
  const keyDefaults: Record<string, unknown> = {};
  const itemProps = (items?.properties ?? {}) as Record<string, Schema>;
  for (const k of keys) if (itemProps[k]?.default !== undefined) keyDefaults[k] = itemProps[k]!.default;
  return { kind: 'list', relationship, keys, keyDefaults, elem: items ? refOrInline(items, refs, preserve) : UNTYPED };
}

/** The root of a kind: always a struct (a schema-less kind takes every key deduced). */
export function rootNode(kindSchema: Schema, name: string, refs: RefResolver): StructNode {
  const node = openApiNode(kindSchema, refs);
  if (node.kind === 'struct') return { ...node, name };
  if (node.kind === 'map') return { kind: 'struct', name, atomic: node.atomic, fields: new Map(), rest: node.elem };
  return { kind: 'struct', name, atomic: false, fields: new Map(), rest: DEDUCED };
}
