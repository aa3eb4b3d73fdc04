// typed.Merge for server-side apply: the applied configuration (rhs) merged into the live object
// (lhs) by the schema. Leaves and atomic values: the configuration's wins. Granular maps/structs:
// union by key, recursively. Associative lists and sets: items matched by identity and merged;
// the live-only items keep their places and the shared and new ones follow the configuration's
// order (structured-merge-diff's ordering rules). Inputs are not mutated.
import type { PathElement } from '../fieldpath/element.js';
import { indexItems } from './items.js';
import { childNode, isObject, shaped, UNTYPED, type ListNode, type TypedNode } from './schema.js';

export function merge(lhs: unknown, rhs: unknown, declared: TypedNode): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const node = shaped(declared, rhs);
  switch (node.kind) {
    case 'leaf':
      return rhs;
    case 'struct':
    case 'map': {
      if (node.atomic || !isObject(rhs) || !isObject(lhs)) return rhs;
      const out: Record<string, unknown> = { ...lhs };
      for (const k in rhs) out[k] = merge(lhs[k], rhs[k], childNode(node, k) ?? UNTYPED);
      return out;
    }
    case 'list': {
      if (node.relationship === 'atomic' || !Array.isArray(rhs) || !Array.isArray(lhs)) return rhs;
      if (lhs.length === 0 || rhs.length === 0) return rhs.length === 0 && lhs.length > 0 ? lhs : rhs;
      return mergeItems(node, lhs, rhs);
    }
  }
}

function mergeItems(node: ListNode, lhs: unknown[], rhs: unknown[]): unknown[] {
  const left = indexItems(node, lhs, false);
  const right = indexItems(node, rhs, false);
  const one = (items: unknown[] | undefined): unknown => (items && items.length === 1 ? items[0] : undefined);
  const shared: PathElement[] = right.order.filter((pe) => left.byId.has(pe.id));
  let nextShared = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  const take = (pe: PathElement): void => {
    merged.add(pe.id);
    const l = left.byId.get(pe.id);
    const r = right.byId.get(pe.id);
    // Duplicated live items are replaced by the configuration's item.
    const m = l && l.length > 1 ? one(r) : merge(one(l), one(r), node.elem);
    if (m !== undefined) out.push(m);
  };
  const lo = left.order;
  const ro = right.order;
  let li = 0;
  let ri = 0;
  while (li < lo.length || ri < ro.length) {
    if (li < lo.length && ri < ro.length) {
      const pe = lo[li]!;
      if (pe.id === ro[ri]!.id) {
        take(pe);
        li++;
        ri++;
        if (nextShared < shared.length && shared[nextShared]!.id === pe.id) nextShared++;
        continue;
      }
      if (right.byId.has(pe.id) && nextShared < shared.length && shared[nextShared]!.id !== pe.id) {
        // A shared item whose turn (in the configuration's order) has not come yet.
        li++;
        continue;
      }
    }
    if (li < lo.length) {
      const pe = lo[li]!;
      if (!right.byId.has(pe.id)) {
        for (const item of left.byId.get(pe.id)!) out.push(item);
        li++;
        continue;
      }
      if (merged.has(pe.id)) {
        li++;
        continue;
      }
    }
    if (ri < ro.length) {
      const pe = ro[ri]!;
      take(pe);
      ri++;
      if (nextShared < shared.length && shared[nextShared]!.id === pe.id) nextShared++;
    }
  }
  return out;
}
