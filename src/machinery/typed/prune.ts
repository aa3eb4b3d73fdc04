// The pruning step of server-side apply: fields the applier applied last time (`last`) and no
// longer applies are removed from the merged object unless some manager still owns them
// (`owned`: every manager's set including the applier's new one). A struct field counts as owned
// when anything under it is owned (EnsureNamedFieldsAreMembers); list items and map entries only
// when they are members themselves. Removing a field removes everything under it.

import type { FieldSet } from '../fieldpath/set.js';
import { itemElement } from './items.js';
import { childNode, isObject, shaped, type TypedNode } from './schema.js';

/** Returns `merged` with the abandoned fields removed (copies only what changes). */
export function prune(merged: unknown, node: TypedNode, last: FieldSet, owned: FieldSet): unknown {
  return walk(merged, node, last, owned, false);
}

function walk(v: unknown, declared: TypedNode, last: FieldSet, owned: FieldSet | undefined, unowned: boolean): unknown {
  const node = shaped(declared, v);
  if (node.kind === 'leaf') return v;
  if (node.kind === 'struct' || node.kind === 'map') {
    if (node.atomic || !isObject(v)) return v;
    let out: Record<string, unknown> | undefined;
    for (const e of last.entries.values()) {
      if (e.pe.kind !== 'field' || !(e.pe.name in v)) continue;
      const k = e.pe.name;
      const o = owned?.entry(e.pe);
      const isField = node.kind === 'struct' && node.fields.has(k);
      const ownedHere = !!o && (o.member || (isField && !!o.child && !o.child.isEmpty()));
      const gone = unowned || !ownedHere;
      const child = childNode(node, k);
      if (e.member && gone) {
        out ??= { ...v };
        delete out[k];
      } else if (e.child && child) {
        const nv = walk(v[k], child, e.child, o?.child, gone);
        if (nv !== v[k]) {
          out ??= { ...v };
          out[k] = nv;
        }
      }
    }
    return out ?? v;
  }
  if (node.relationship === 'atomic' || !Array.isArray(v)) return v;
  let out: unknown[] | undefined;
  const kept: unknown[] = [];
  for (let i = 0; i < v.length; i++) {
    const pe = itemElement(node, v[i], i, false);
    const e = last.entry(pe);
    if (!e) {
      kept.push(v[i]);
      continue;
    }
    const o = owned?.entry(pe);
    const gone = unowned || !o?.member;
    if (e.member && gone) {
      out ??= [];
      continue;
    }
    const nv = e.child ? walk(v[i], node.elem, e.child, o?.child, gone) : v[i];
    if (nv !== v[i]) out ??= [];
    kept.push(nv);
  }
  return out ? kept : v;
}
