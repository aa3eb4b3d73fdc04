// A CRD version's schema compiled once into a tree of nodes that validation, pruning and
// defaulting walk without re-reading the JSONSchemaProps: property maps become Maps, patterns
// become RegExps, formats become checks, int-or-string becomes its type pair (as
// apiextensions-apiserver's ConvertJSONSchemaProps does before kube-openapi validates).
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { formatChecker } from './formats.js';
import { compileGoMatcher, type PatternMatcher } from './go-regexp.js';

export interface SchemaNode {
  readonly schema: JSONSchemaProps;
  /** The types a value may have: [] when unconstrained, ['integer','string'] for x-kubernetes-int-or-string. */
  readonly types: readonly string[];
  readonly properties: ReadonlyMap<string, SchemaNode> | undefined;
  /** additionalProperties: a schema, false (forbidden), true (any value, which pruning empties), or undefined. */
  readonly additional: SchemaNode | boolean | undefined;
  readonly items: SchemaNode | undefined;
  readonly allOf: readonly SchemaNode[];
  readonly anyOf: readonly SchemaNode[];
  readonly oneOf: readonly SchemaNode[];
  readonly not: SchemaNode | undefined;
  readonly pattern: PatternMatcher | string | undefined;
  readonly format: { name: string; check: (s: string) => boolean } | undefined;
  readonly required: readonly string[];
  readonly preserveUnknown: boolean;
  readonly embedded: boolean;
}

const compiled = new WeakMap<JSONSchemaProps, SchemaNode>();

/** The compiled form of `schema`, cached per schema object (schemas are not mutated once stored). */
export function compileSchema(schema: JSONSchemaProps): SchemaNode {
  let node = compiled.get(schema);
  if (node === undefined) {
    node = build(schema);
    compiled.set(schema, node);
  }
  return node;
}

function build(s: JSONSchemaProps): SchemaNode {
  const many = (list: JSONSchemaProps[] | undefined): SchemaNode[] => (list ?? []).map(compileSchema);
  let properties: Map<string, SchemaNode> | undefined;
  if (s.properties) {
    properties = new Map();
    for (const [k, v] of Object.entries(s.properties)) properties.set(k, compileSchema(v));
  }
  const ap = s.additionalProperties;
  return {
    schema: s,
    types: s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [],
    properties,
    additional: typeof ap === 'boolean' || ap === undefined ? ap : compileSchema(ap),
    items: s.items === undefined || Array.isArray(s.items) ? undefined : compileSchema(s.items),
    allOf: many(s.allOf),
    anyOf: many(s.anyOf),
    oneOf: many(s.oneOf),
    not: s.not ? compileSchema(s.not) : undefined,
    pattern: s.pattern ? compileGoMatcher(s.pattern) : undefined,
    format: formatChecker(s.format),
    required: s.required ?? [],
    preserveUnknown: s['x-kubernetes-preserve-unknown-fields'] === true,
    embedded: s['x-kubernetes-embedded-resource'] === true,
  };
}

/** The sub-schema at a dotted path of property names (`spec.replicas`), through properties or
 * additionalProperties; `[]` steps into array items. Undefined when the schema does not specify it. */
export function schemaAt(schema: JSONSchemaProps, path: string): JSONSchemaProps | undefined {
  let node: SchemaNode | undefined = compileSchema(schema);
  for (const step of path.split('.').flatMap((p) => p.split(/(?=\[\])/))) {
    if (step === '' || node === undefined) continue;
    if (step === '[]') node = node.items;
    else node = node.properties?.get(step) ?? (typeof node.additional === 'object' ? node.additional : undefined);
  }
  return node?.schema;
}
