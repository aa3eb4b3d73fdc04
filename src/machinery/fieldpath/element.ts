// Path elements of structured-merge-diff's fieldpath, the vocabulary of managedFields: a struct
// field or map key (`f:name`), an associative-list item by its key fields (`k:{"name":"c"}`), a
// set item by its value (`v:"x"`), or a list item by position (`i:0`, only for lists without
// identity). Each element carries its serialized form (`id`), which is unique, so sets can index
// children by it and sort only when they are written out.
import { stringifyJson } from '../codec/json.js';

export type PathElement =
  | { readonly kind: 'field'; readonly id: string; readonly name: string }
  | { readonly kind: 'key'; readonly id: string; readonly fields: ReadonlyArray<readonly [string, unknown]> }
  | { readonly kind: 'value'; readonly id: string; readonly value: unknown }
  | { readonly kind: 'index'; readonly id: string; readonly index: number };

export type Path = readonly PathElement[];

const fieldCache = new Map<string, PathElement>();

/** A field (struct field or map key) element; interned, since the same names recur in every object. */
export function fieldElement(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (!pe) {
    pe = { kind: 'field', id: `f:${name}`, name };
    if (fieldCache.size < 50_000) fieldCache.set(name, pe);
  }
  return pe;
}

/** An associative-list item element; `fields` are sorted by name here. */
export function keyElement(fields: Array<readonly [string, unknown]>): PathElement {
  if (fields.length > 1) fields.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let id = 'k:{';
  for (let i = 0; i < fields.length; i++) {
    const [k, v] = fields[i]!;
    id += `${i > 0 ? ',' : ''}${JSON.stringify(k)}:${typeof v === 'object' && v !== null ? JSON.stringify(canonicalValue(v)) : JSON.stringify(v)}`;
  }
  id += '}';
  // Go escapes <, >, & and U+2028/9 in JSON; only the rare key that has them needs the rewrite.
  if (GO_ESCAPED.test(id)) id = stringifyJson(JSON.parse(id.slice(2))).replace(/^/, 'k:');
  return { kind: 'key', id, fields };
}

const GO_ESCAPED = /[<>&\u2028\u2029]/;

export function valueElement(value: unknown): PathElement {
  return { kind: 'value', id: `v:${stringifyJson(canonicalValue(value))}`, value };
}

export function indexElement(index: number): PathElement {
  return { kind: 'index', id: `i:${index}`, index };
}

/** Maps inside values serialize with sorted keys (Go's encoding of map[string]interface{}). */
function canonicalValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonicalValue);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = canonicalValue((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Parses a serialized element (a FieldsV1 key other than "."); throws on malformed input. */
export function parseElement(s: string): PathElement {
  const colon = s.indexOf(':');
  if (colon !== 1) throw new Error(`invalid path element ${JSON.stringify(s)}: missing colon`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(rest);
    case 'k': {
      const parsed: unknown = JSON.parse(rest);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`invalid key element ${JSON.stringify(s)}`);
      return keyElement(Object.entries(parsed as Record<string, unknown>));
    }
    case 'v':
      return valueElement(JSON.parse(rest));
    case 'i': {
      if (!/^-?\d+$/.test(rest)) throw new Error(`invalid index element ${JSON.stringify(s)}`);
      return indexElement(Number(rest));
    }
    default:
      throw new Error(`invalid path element ${JSON.stringify(s)}: unknown prefix ${JSON.stringify(s[0])}`);
  }
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** structured-merge-diff's total order of path elements (fields, then keys, values, indexes). */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  switch (a.kind) {
    case 'field': {
      const bn = (b as typeof a).name;
      return a.name < bn ? -1 : a.name > bn ? 1 : 0;
    }
    case 'key': {
      const bf = (b as typeof a).fields;
      for (let i = 0; ; i++) {
        if (i >= a.fields.length && i >= bf.length) return 0;
        if (i >= a.fields.length) return -1;
        if (i >= bf.length) return 1;
        const [an, av] = a.fields[i]!;
        const [bn, bv] = bf[i]!;
        if (an !== bn) return an < bn ? -1 : 1;
        const c = compareValues(av, bv);
        if (c !== 0) return c;
      }
    }
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index - (b as typeof a).index;
  }
}

function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5; // null
}

/** value.Compare: numbers < strings < bools < lists < maps < null, then by content. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number) - (b as number);
    case 1:
      return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length - lb.length;
    }
    case 4: {
      const ma = a as Record<string, unknown>;
      const mb = b as Record<string, unknown>;
      const ka = Object.keys(ma).sort();
      const kb = Object.keys(mb).sort();
      for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
        if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
        const c = compareValues(ma[ka[i]!], mb[kb[i]!]);
        if (c !== 0) return c;
      }
      return ka.length - kb.length;
    }
    default:
      return 0;
  }
}

/** The element as conflict messages print it: `.name`, `[name="c",port=80]`, `[=value]`, `[0]`. */
export function elementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([k, v]) => `${k}=${stringifyJson(v)}`).join(',')}]`;
    case 'value':
      return `[=${stringifyJson(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

export function pathToString(path: Path): string {
  let s = '';
  for (const pe of path) s += elementToString(pe);
  return s;
}
