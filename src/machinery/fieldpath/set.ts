// A set of field paths as a trie (structured-merge-diff's fieldpath.Set): at each level the
// elements that are members themselves, and the child sets of elements with members below them.
// An element can be both (FieldsV1 writes that as a "." inside its object). Operations return new
// sets and never keep empty children, so two sets with the same paths have the same shape.
import { compareElements, type Path, type PathElement } from './element.js';

export interface SetEntry {
  readonly pe: PathElement;
  member: boolean;
  child: FieldSet | undefined;
}

export class FieldSet {
  /** By element id; insertion order, sorted only when written or iterated in order. */
  readonly entries = new Map<string, SetEntry>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    let set: FieldSet = this;
    for (let i = 0; i < path.length; i++) {
      const pe = path[i]!;
      let e = set.entries.get(pe.id);
      if (!e) {
        e = { pe, member: false, child: undefined };
        set.entries.set(pe.id, e);
      }
      if (i === path.length - 1) {
        e.member = true;
      } else {
        e.child ??= new FieldSet();
        set = e.child;
      }
    }
  }

  /** The path is a member (not merely a prefix of members). */
  has(path: Path): boolean {
    let set: FieldSet | undefined = this;
    for (let i = 0; i < path.length; i++) {
      const e: SetEntry | undefined = set?.entries.get(path[i]!.id);
      if (!e) return false;
      if (i === path.length - 1) return e.member;
      set = e.child;
    }
    return false;
  }

  /** The entry of one element at this level. */
  entry(pe: PathElement): SetEntry | undefined {
    return this.entries.get(pe.id);
  }

  isEmpty(): boolean {
    for (const e of this.entries.values()) if (e.member || (e.child && !e.child.isEmpty())) return false;
    return true;
  }

  size(): number {
    let n = 0;
    for (const e of this.entries.values()) n += (e.member ? 1 : 0) + (e.child ? e.child.size() : 0);
    return n;
  }

  clone(): FieldSet {
    const out = new FieldSet();
    for (const [id, e] of this.entries) out.entries.set(id, { pe: e.pe, member: e.member, child: e.child?.clone() });
    return out;
  }

  union(other: FieldSet): FieldSet {
    const out = this.clone();
    out.addAll(other);
    return out;
  }

  /** Adds every path of `other` to this set, in place. */
  addAll(other: FieldSet): void {
    for (const [id, o] of other.entries) {
      const e = this.entries.get(id);
      if (!e) {
        if (o.member || (o.child && !o.child.isEmpty())) this.entries.set(id, { pe: o.pe, member: o.member, child: o.child?.clone() });
        continue;
      }
      if (o.member) e.member = true;
      if (o.child) {
        if (e.child) e.child.addAll(o.child);
        else e.child = o.child.clone();
      }
    }
  }

  /** Removes one element of this level (and everything under it). */
  remove(pe: PathElement): void {
    this.entries.delete(pe.id);
  }

  /** Removes the paths of `other` from this set, in place (as `difference`, without copying). */
  subtract(other: FieldSet): void {
    for (const [id, o] of other.entries) {
      const e = this.entries.get(id);
      if (!e) continue;
      if (o.member) e.member = false;
      if (o.child && e.child) {
        e.child.subtract(o.child);
        if (e.child.entries.size === 0) e.child = undefined;
      }
      if (!e.member && !e.child) this.entries.delete(id);
    }
  }

  /** The paths of this set that are not paths of `other` (members of `other` do not remove children). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      const member = e.member && !o?.member;
      const child = e.child && o?.child ? e.child.difference(o.child) : e.child?.clone();
      put(out, id, e.pe, member, child);
    }
    return out;
  }

  /** The paths of this set with no prefix (or self) among the members of `other`. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      if (o?.member) continue;
      const child = e.child && o?.child ? e.child.recursiveDifference(o.child) : e.child?.clone();
      put(out, id, e.pe, e.member, child);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      if (!o) continue;
      const child = e.child && o.child ? e.child.intersection(o.child) : undefined;
      put(out, id, e.pe, e.member && o.member, child);
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    let n = 0;
    for (const [id, e] of this.entries) {
      const eEmpty = !e.member && (!e.child || e.child.isEmpty());
      if (eEmpty) continue;
      n++;
      const o = other.entries.get(id);
      if (!o || o.member !== e.member) return false;
      const ec = e.child && !e.child.isEmpty() ? e.child : undefined;
      const oc = o.child && !o.child.isEmpty() ? o.child : undefined;
      if (!ec !== !oc) return false;
      if (ec && oc && !ec.equals(oc)) return false;
    }
    let m = 0;
    for (const o of other.entries.values()) if (o.member || (o.child && !o.child.isEmpty())) m++;
    return n === m;
  }

  /** The entries of this level in structured-merge-diff's order. */
  sorted(): SetEntry[] {
    const list: SetEntry[] = [];
    let fieldsOnly = true;
    for (const e of this.entries.values()) {
      list.push(e);
      if (e.pe.kind !== 'field') fieldsOnly = false;
    }
    if (list.length < 2) return list;
    // Levels of struct fields and map keys only (the usual case): their ids order as their names do.
    if (fieldsOnly) return list.sort((a, b) => (a.pe.id < b.pe.id ? -1 : a.pe.id > b.pe.id ? 1 : 0));
    return list.sort((a, b) => compareElements(a.pe, b.pe));
  }

  /** Every member path in Set.Iterate's order: a level's members first, then each child's paths. */
  iterate(fn: (path: Path) => void, prefix: PathElement[] = []): void {
    const sorted = this.sorted();
    for (const e of sorted) if (e.member) fn([...prefix, e.pe]);
    for (const e of sorted) {
      if (!e.child) continue;
      prefix.push(e.pe);
      e.child.iterate(fn, prefix);
      prefix.pop();
    }
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }
}

function put(out: FieldSet, id: string, pe: PathElement, member: boolean, child: FieldSet | undefined): void {
  const keepChild = child && !child.isEmpty() ? child : undefined;
  if (member || keepChild) out.entries.set(id, { pe, member, child: keepChild });
}
