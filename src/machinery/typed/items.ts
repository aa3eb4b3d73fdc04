// The identity of a list item as a path element: its key fields (associative lists, missing keys
// taking their schema default), its value (sets), or its position (atomic lists never descend).
import { indexElement, keyElement, valueElement, type PathElement } from '../fieldpath/element.js';
import { isObject, type ListNode } from './schema.js';

export class ItemKeyError extends Error {}

/** The item's element; `strict` (applied configurations) reports a missing key instead of leaving it out. */
export function itemElement(list: ListNode, item: unknown, index: number, strict: boolean): PathElement {
  if (list.relationship === 'set') return valueElement(item);
  if (list.relationship === 'map' && list.keys.length > 0) {
    if (!isObject(item)) {
      if (strict) throw new ItemKeyError(`element ${index}: associative list with keys has an element that is not a map type`);
      return indexElement(index);
    }
    const fields: Array<readonly [string, unknown]> = [];
    for (const k of list.keys) {
      let v = item[k];
      if (v === undefined || v === null) v = list.keyDefaults[k];
      if (v === undefined || v === null) {
        if (strict) throw new ItemKeyError(`element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
        continue;
      }
      fields.push([k, v]);
    }
    return keyElement(fields);
  }
  return indexElement(index);
}

export interface IndexedItems {
  /** Elements in list order, each once (first occurrence). */
  order: PathElement[];
  /** By element id: the items with that identity (more than one: duplicates). */
  byId: Map<string, unknown[]>;
}

export function indexItems(list: ListNode, items: readonly unknown[], strict: boolean): IndexedItems {
  const order: PathElement[] = [];
  const byId = new Map<string, unknown[]>();
  for (let i = 0; i < items.length; i++) {
    const pe = itemElement(list, items[i], i, strict);
    const same = byId.get(pe.id);
    if (same) same.push(items[i]);
    else {
      byId.set(pe.id, [items[i]]);
      order.push(pe);
    }
  }
  return { order, byId };
}
