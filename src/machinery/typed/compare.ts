// typed.Compare: the fields added, modified and removed between two objects of a type, as
// structured-merge-diff reports them for managedFields. Leaves (scalars, atomic lists/maps/structs,
// and containers empty on both sides) are compared by value; a granular container that appears
// (is absent on the left) is itself added, one that disappears is removed, and its items are
// compared one by one (list items by their keys or values).
import { fieldElement, type PathElement } from '../fieldpath/element.js';
import { FieldSet } from '../fieldpath/set.js';
import { indexItems } from './items.js';
import { childNode, deepEqual, isObject, shaped, UNTYPED, type ListNode, type ShapedNode, type TypedNode } from './schema.js';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export interface CompareOptions {
  /** Subtrees not compared at all: the members of this set (what no manager can own). */
  exclude?: FieldSet;
  /** Record added and modified fields in one set (`added === modified`), when only their union matters. */
  unionChanged?: boolean;
}

/** Compares `lhs` (old) with `rhs` (new); `undefined` on either side means absent. */
export function compare(lhs: unknown, rhs: unknown, node: TypedNode, opts: CompareOptions = {}): Comparison {
  const added = new FieldSet();
  const c: Comparison = { added, modified: opts.unionChanged ? added : new FieldSet(), removed: new FieldSet() };
  walk(c, node, lhs, rhs, [], opts.exclude);
  return c;
}

function leafChange(c: Comparison, l: unknown, r: unknown, path: PathElement[]): void {
  if (path.length === 0) return;
  if (l === undefined) {
    if (r !== undefined) c.added.insert(path);
  } else if (r === undefined) c.removed.insert(path);
  else if (!deepEqual(l, r)) c.modified.insert(path);
}

function containerChange(c: Comparison, l: unknown, r: unknown, path: PathElement[]): void {
  if (path.length === 0) return;
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

function isEmptyMap(v: unknown): boolean {
  if (!isObject(v)) return true;
  for (const _ in v) return false;
  return true;
}

/** The exclusion below `pe`: 'skip' when `pe` itself is excluded. */
function below(exclude: FieldSet | undefined, pe: PathElement): FieldSet | undefined | 'skip' {
  if (!exclude) return undefined;
  const e = exclude.entries.get(pe.id);
  if (!e) return undefined;
  return e.member ? 'skip' : e.child;
}

function walk(c: Comparison, declared: TypedNode, l: unknown, r: unknown, path: PathElement[], exclude: FieldSet | undefined): void {
  if (l === undefined && r === undefined) return;
  const node = shapedPair(declared, l, r);
  switch (node.kind) {
    case 'leaf':
      return leafChange(c, l, r, path);
    case 'struct':
    case 'map': {
      if (node.atomic || (isEmptyMap(l) && isEmptyMap(r))) return leafChange(c, l, r, path);
      const lm = isObject(l) ? l : undefined;
      const rm = isObject(r) ? r : undefined;
      if (lm) {
        for (const k in lm) {
          const pe = fieldElement(k);
          const ex = below(exclude, pe);
          if (ex === 'skip') continue;
          path.push(pe);
          walk(c, childNode(node, k) ?? UNTYPED, lm[k], rm ? rm[k] : undefined, path, ex);
          path.pop();
        }
      }
      if (rm) {
        for (const k in rm) {
          if (lm && k in lm) continue;
          const pe = fieldElement(k);
          const ex = below(exclude, pe);
          if (ex === 'skip') continue;
          path.push(pe);
          walk(c, childNode(node, k) ?? UNTYPED, undefined, rm[k], path, ex);
          path.pop();
        }
      }
      return containerChange(c, l, r, path);
    }
    case 'list': {
      const la = Array.isArray(l) ? l : undefined;
      const ra = Array.isArray(r) ? r : undefined;
      if (node.relationship === 'atomic' || ((!la || la.length === 0) && (!ra || ra.length === 0))) return leafChange(c, l, r, path);
      compareItems(c, node, la ?? [], ra ?? [], path);
      return containerChange(c, l, r, path);
    }
  }
}

/** An AnyNode's shape on both sides: values of different shapes compare as whole values. */
function shapedPair(node: TypedNode, l: unknown, r: unknown): ShapedNode {
  if (node.kind !== 'any') return node;
  const a = shaped(node, l);
  const b = shaped(node, r);
  return l === undefined ? b : r === undefined || a === b ? a : UNTYPED;
}

function compareItems(c: Comparison, node: ListNode, la: unknown[], ra: unknown[], path: PathElement[]): void {
  const left = indexItems(node, la, false);
  const right = indexItems(node, ra, false);
  const visit = (pe: PathElement, ls: unknown[] | undefined, rs: unknown[] | undefined): void => {
    path.push(pe);
    if ((ls && ls.length > 1) || (rs && rs.length > 1)) {
      // Duplicates (allowed in stored objects): the item changed unless both sides are identical.
      if (!ls || !rs) containerChange(c, ls, rs, path);
      else if (!deepEqual(ls, rs)) c.modified.insert(path);
    } else {
      walk(c, node.elem, ls?.[0], rs?.[0], path, undefined);
    }
    path.pop();
  };
  for (const pe of left.order) visit(pe, left.byId.get(pe.id), right.byId.get(pe.id));
  for (const pe of right.order) if (!left.byId.has(pe.id)) visit(pe, undefined, right.byId.get(pe.id));
}
