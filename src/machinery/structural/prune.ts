// Structural pruning (apiextensions-apiserver pkg/apiserver/schema/pruning): every object field the
// schema does not specify is dropped, except under x-kubernetes-preserve-unknown-fields, and
// apiVersion/kind/metadata of a resource (the root, or an x-kubernetes-embedded-resource) stay for
// the object-meta handling. The dropped paths come back sorted, as Kubernetes reports them for
// fieldValidation=Warn/Strict (`spec.foo`, `spec.list[0].bar`).
import type { SchemaNode } from './compile.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** The path of key `k` under `parent` in Kubernetes' unknown-field notation. */
const keyPath = (parent: string, k: string): string => (parent === '' ? k : `${parent}.${k}`);

export function pruneNode(x: unknown, node: SchemaNode | undefined, embedded: boolean, parent: string, removed: string[]): void {
  if (node?.preserveUnknown) return skipPrune(x, node, embedded, parent, removed);
  if (Array.isArray(x)) {
    const items = node?.items;
    for (let i = 0; i < x.length; i++) pruneNode(x[i], items, items?.embedded ?? false, `${parent}[${i}]`, removed);
    return;
  }
  if (typeof x !== 'object' || x === null) return;
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (node === undefined) {
      removed.push(keyPath(parent, k));
      delete o[k];
      continue;
    }
    if (embedded && metaFields.has(k)) continue;
    if (!pruneKnown(o[k], k, node, parent, removed)) {
      if (!metaFields.has(k) || parent !== '') removed.push(keyPath(parent, k));
      delete o[k];
    }
  }
}

/** Prunes the value of `k` if the schema specifies it (a property or additionalProperties); false if not. */
function pruneKnown(v: unknown, k: string, node: SchemaNode, parent: string, removed: string[]): boolean {
  const prop = node.properties?.get(k);
  if (prop !== undefined) pruneNode(v, prop, prop.embedded, keyPath(parent, k), removed);
  else if (node.additional !== undefined) {
    // additionalProperties true or false keeps the key but specifies nothing below it.
    const ap = typeof node.additional === 'boolean' ? undefined : node.additional;
    pruneNode(v, ap, ap?.embedded ?? false, keyPath(parent, k), removed);
  } else return false;
  return true;
}

/** Below x-kubernetes-preserve-unknown-fields unknown fields stay, but specified ones are still pruned
 * (array items stay in this mode, whatever their own schema says, as Kubernetes does). */
function skipPrune(x: unknown, node: SchemaNode, embedded: boolean, parent: string, removed: string[]): void {
  if (Array.isArray(x)) {
    const items = node.items;
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) skipPrune(x[i], items, items.embedded, `${parent}[${i}]`, removed);
    return;
  }
  if (typeof x !== 'object' || x === null) return;
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(embedded && metaFields.has(k))) pruneKnown(o[k], k, node, parent, removed);
  }
}
