// Structural defaulting (apiextensions-apiserver pkg/apiserver/schema/defaulting): a property's
// `default` fills it when absent or null-but-not-nullable, then defaulting descends into every
// value (defaults included); array items and additionalProperties values that are null and not
// nullable take their schema's default. Defaults are deep-copied so objects never share them.
import type { SchemaNode } from './compile.js';

const copy = (v: unknown): unknown => (v === undefined || v === null || typeof v !== 'object' ? v : structuredClone(v));

const nonNullableNull = (x: unknown, node: SchemaNode | undefined): boolean => (x === null || x === undefined) && node !== undefined && node.schema.nullable !== true;

export function defaultNode(x: unknown, node: SchemaNode | undefined): void {
  if (node === undefined || typeof x !== 'object' || x === null) return;
  if (Array.isArray(x)) {
    const items = node.items;
    for (let i = 0; i < x.length; i++) {
      if (items !== undefined && nonNullableNull(x[i], items)) x[i] = copy(items.schema.default) ?? null;
      defaultNode(x[i], items);
    }
    return;
  }
  const o = x as Record<string, unknown>;
  const props = node.properties;
  if (props) {
    for (const [k, prop] of props) {
      const d = prop.schema.default;
      if (d === undefined || d === null) continue;
      if (!(k in o) || nonNullableNull(o[k], prop)) o[k] = copy(d);
    }
  }
  const ap = typeof node.additional === 'object' ? node.additional : undefined;
  for (const k of Object.keys(o)) {
    const prop = props?.get(k);
    if (prop !== undefined) defaultNode(o[k], prop);
    else if (ap !== undefined) {
      if (nonNullableNull(o[k], ap)) o[k] = copy(ap.schema.default) ?? null;
      defaultNode(o[k], ap);
    }
  }
}

/** PruneNonNullableNullsWithoutDefaults: after defaulting, the nulls of non-nullable fields that
 * have no default are dropped (on decode), so that they read as absent rather than fail validation. */
export function pruneNullsNode(x: unknown, node: SchemaNode | undefined): void {
  if (typeof x !== 'object' || x === null) return;
  if (Array.isArray(x)) {
    for (const v of x) pruneNullsNode(v, node?.items);
    return;
  }
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const child = node === undefined ? undefined : (node.properties?.get(k) ?? (typeof node.additional === 'object' ? node.additional : undefined));
    const v = o[k];
    if (v === null && child !== undefined && child.schema.nullable !== true && (child.schema.default === undefined || child.schema.default === null)) delete o[k];
    else pruneNullsNode(v, child);
  }
}
