// Strategic merge patch (Content-Type application/strategic-merge-patch+json), applied the way
// kube-apiserver applies it (apimachinery strategicpatch.StrategicMergeMapPatch with
// MergeParallelList and IgnoreUnmatchedNulls), driven by the patch metadata of the schema DSL:
//
// - Maps merge key by key; `null` deletes a key; a key absent from the original takes the patch
//   value with its nested nulls dropped. Fields with patchStrategy "replace" are replaced whole.
// - Lists are replaced, except lists whose field has patchStrategy "merge": lists of objects merge
//   element by element on patchMergeKey, lists of scalars become the union (deduplicated).
// - Directives: `$patch: replace | delete` in a map; list elements `{<key>: v, $patch: delete}` and
//   `{$patch: replace}`; `$deleteFromPrimitiveList/<field>`; `$setElementOrder/<field>`;
//   `$retainKeys`. (`$patch: merge` is rejected, as Kubernetes rejects it.)
// - Element order follows $setElementOrder, then the order in the patch, then the live order,
//   reproducing apimachinery's ordering exactly (including how it interleaves server-only items).
// - A value taken whole from the patch (no counterpart in the original) loses its nulls and every
//   map carrying `$patch` — Kubernetes v1.28+; v1.26/1.27 stored such maps as they came.
//
// Fields the schema does not declare (and values of types with no patch metadata) merge like JSON
// merge patch: maps recursively, lists replaced. Kubernetes would fail such a merge with "unable to
// find api field"; it cannot happen for objects read back from storage, which hold declared fields
// only.
//
// Errors carry kube-apiserver's code and wording: the sentinel errors it maps to 400 BadRequest
// (invalid directive formats) and 422, and its other errors as 500 with the Go error text (Go's
// `%v` formatting of the offending values included, e.g. "map: map[image:nginx] does not contain
// declared merge key: name"). Inputs are never mutated.

import type { ListType, StructType, Type } from '../../api/schema/dsl.js';
import { PatchError, badRequest, genericInvalid, unknownError } from './errors.js';
import { goS, goTypeName, goTypeNameS, goV } from './gofmt.js';
import { DEFAULT_MAX_DEPTH, type JsonObject, cloneJson, hasOwn, isObject, setOwn } from './json-util.js';

const directiveMarker = '$patch';
const deleteDirective = 'delete';
const replaceDirective = 'replace';
const mergeDirective = 'merge';
const retainKeysStrategy = 'retainKeys';
const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
const setElementOrderPrefix = '$setElementOrder';

// apimachinery's mergepatch sentinel errors, with the status kube-apiserver gives each.
const errBadPatchFormatForPrimitiveList = () => badRequest('invalid patch format of primitive list');
const errBadPatchFormatForRetainKeys = () => badRequest('invalid patch format of retainKeys');
const errBadPatchFormatForSetElementOrderList = () => badRequest('invalid patch format of setElementOrder list');
const errNoListOfLists = () => genericInvalid('lists of lists are not supported');

function errNoMergeKey(m: unknown, key: string): PatchError {
  return unknownError(`map: ${goV(m)} does not contain declared merge key: ${key}`);
}
/** mergepatch.ErrBadArgType(expected, actual): `expected` names the Go type that was asserted. */
function errBadArgType(expected: string, actual: unknown): PatchError {
  return unknownError(`expected a ${expected}, but received a ${goTypeNameS(actual)}`);
}
const MAP = 'map[string]interface {}';
const SLICE = '[]interface {}';
function errBadPatchType(t: unknown, m: unknown): PatchError {
  return unknownError(`unknown patch type: ${goS(t)} in map: ${goV(m)}`);
}
function panicUncomparable(v: unknown): PatchError {
  return unknownError(`runtime error: comparing uncomparable type ${goTypeName(v)}`);
}
function panicUnhashable(v: unknown): PatchError {
  return unknownError(`runtime error: hash of unhashable type ${goTypeName(v)}`);
}
function panicNil(): PatchError {
  return unknownError('runtime error: invalid memory address or nil pointer dereference');
}

export interface StrategicMergePatchOptions {
  /** Bound on the nesting depth of the patch document (default 100): deeper is a 400. */
  maxDepth?: number;
}

/**
 * Applies a strategic merge patch to `original` (an object of the kind whose schema is `type`) and
 * returns the patched object. Neither input is mutated. A `null` patch changes nothing (as in
 * kube-apiserver); a patch that is not a JSON object is a 400 with the decoder's message.
 */
export function strategicMergePatch(
  original: object,
  patch: unknown,
  type: StructType,
  options: StrategicMergePatchOptions = {},
): JsonObject {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (patch !== null && !isObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${jsonKindWord(patch)} into Go value of type map[string]interface {}`);
  }
  try {
    const originalCopy = cloneJson(original, Number.MAX_SAFE_INTEGER, 'original');
    if (!isObject(originalCopy)) throw badRequest('original: not a JSON object');
    if (patch === null) return originalCopy;
    const patchCopy = cloneJson(patch, maxDepth) as JsonObject;
    return mergeMap(originalCopy, patchCopy, type);
  } catch (e) {
    if (e instanceof PatchError) throw e;
    if (e instanceof RangeError) throw unknownError('runtime error: stack overflow');
    throw e;
  }
}

function jsonKindWord(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'value';
}

// ---------------------------------------------------------------------------------------------
// Patch metadata from the schema DSL.

/** The schema of a value being merged; undefined = unknown (JSON merge semantics). */
type Schema = Type | undefined;

interface PatchMeta {
  schema: Schema;
  strategies: string[];
  mergeKey: string;
}

const noMeta: PatchMeta = { schema: undefined, strategies: [], mergeKey: '' };

/** LookupPatchMetadataForStruct: the field's type and patch tags (or a map's value type). */
function lookupForStruct(schema: Schema, key: string): PatchMeta {
  if (!schema) return noMeta;
  if (schema.kind === 'map') return { schema: schema.of, strategies: [], mergeKey: '' };
  if (schema.kind !== 'struct') return noMeta;
  const f = Object.prototype.hasOwnProperty.call(schema.fields, key) ? schema.fields[key] : undefined;
  if (!f) return noMeta;
  return {
    schema: f.type,
    strategies: f.patchStrategy ? f.patchStrategy.split(',') : [],
    mergeKey: f.patchMergeKey ?? '',
  };
}

/** LookupPatchMetadataForSlice: like lookupForStruct, with the list's element type as schema. */
function lookupForSlice(schema: Schema, key: string): PatchMeta {
  const meta = lookupForStruct(schema, key);
  const elem = meta.schema && meta.schema.kind === 'list' ? (meta.schema as ListType).of : undefined;
  return { ...meta, schema: elem };
}

/** reflect.Kind name of a list element type, for "cannot merge lists without merge key for <kind>". */
function goKindName(t: Schema): string {
  if (!t) return 'interface';
  switch (t.kind) {
    case 'struct': return 'struct';
    case 'map': return 'map';
    case 'list': return 'slice';
    case 'scalar':
      switch (t.name) {
        case 'string': return 'string';
        case 'bool': return 'bool';
        case 'int32': return 'int32';
        case 'int64': return 'int64';
        case 'double': return 'float64';
        case 'bytes': return 'slice';
        default: return 'struct';
      }
  }
}

/** extractRetainKeysPatchStrategy: [has retainKeys, the other strategy]. */
function extractRetainKeysPatchStrategy(strategies: string[]): [boolean, string] {
  switch (strategies.length) {
    case 0: return [false, ''];
    case 1: return strategies[0] === retainKeysStrategy ? [true, ''] : [false, strategies[0]!];
    case 2:
      if (strategies[0] === retainKeysStrategy) return [true, strategies[1]!];
      if (strategies[1] === retainKeysStrategy) return [true, strategies[0]!];
      throw unknownError(`unexpected patch strategy: ${goV(strategies)}`);
    default:
      throw unknownError(`unexpected patch strategy: ${goV(strategies)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Go value semantics: `==` on interface{} values and hashing them as map keys.

/** A key equal for Go-equal comparable values; undefined for maps and slices (uncomparable). */
function scalarKey(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'n';
  switch (typeof v) {
    case 'string': return `s${v}`;
    case 'boolean': return v ? 'b1' : 'b0';
    case 'number': return `${goTypeName(v) === 'int64' ? 'i' : 'f'}${v}`;
    default: return undefined;
  }
}

/** Go's `a == b` on interface{} values (panics on equal uncomparable types). */
function goEqual(a: unknown, b: unknown): boolean {
  const ka = scalarKey(a);
  const kb = scalarKey(b);
  if (ka !== undefined && kb !== undefined) return ka === kb;
  if (goTypeName(a) !== goTypeName(b)) return false;
  throw panicUncomparable(a);
}

/** The key of `v` in a Go map[interface{}]... (panics on unhashable values). */
function hashKey(v: unknown): string {
  const k = scalarKey(v);
  if (k === undefined) throw panicUnhashable(v);
  return k;
}

type ElemKind = 'map' | 'scalar';

/** Value used to compare list items: the merge key's value for maps, the item itself otherwise. */
function itemValue(item: unknown, mergeKey: string, kind: ElemKind): unknown {
  if (kind !== 'map') return item;
  return isObject(item) && hasOwn(item, mergeKey) ? item[mergeKey] : null;
}

/** First index of each value in a list (strategicpatch's index()), in O(1) per lookup. */
class OrderIndex {
  private readonly first = new Map<string, number>();
  private readonly uncomparable = new Set<string>();
  constructor(list: readonly unknown[], private readonly mergeKey: string, private readonly kind: ElemKind) {
    list.forEach((item, i) => {
      const v = itemValue(item, mergeKey, kind);
      const k = scalarKey(v);
      if (k === undefined) this.uncomparable.add(goTypeName(v)!);
      else if (!this.first.has(k)) this.first.set(k, i);
    });
  }
  indexOf(item: unknown): number {
    const v = itemValue(item, this.mergeKey, this.kind);
    const k = scalarKey(v);
    if (k === undefined) {
      if (this.uncomparable.has(goTypeName(v)!)) throw panicUncomparable(v);
      return -1;
    }
    return this.first.get(k) ?? -1;
  }
}

/**
 * findMapInSliceBasedOnKeyValue over a list that may grow: the first map whose `mergeKey` equals
 * the value, erroring as Go does when the scan meets a non-map first.
 */
class MapKeyIndex {
  private readonly first = new Map<string, number>();
  private readonly uncomparable = new Map<string, number>();
  private firstNonMap = Infinity;
  private size = 0;
  constructor(list: readonly unknown[], private readonly mergeKey: string) {
    for (const item of list) this.add(item);
  }
  add(item: unknown): void {
    const i = this.size++;
    if (!isObject(item)) {
      if (this.firstNonMap === Infinity) this.firstNonMap = i;
      return;
    }
    if (!hasOwn(item, this.mergeKey)) return;
    const v = item[this.mergeKey];
    const k = scalarKey(v);
    if (k === undefined) {
      const t = goTypeName(v)!;
      if (!this.uncomparable.has(t)) this.uncomparable.set(t, i);
    } else if (!this.first.has(k)) {
      this.first.set(k, i);
    }
  }
  /** Index of the first match, or -1. */
  find(value: unknown): number {
    const k = scalarKey(value);
    let at: number;
    let panicAt = Infinity;
    if (k === undefined) {
      at = Infinity;
      panicAt = this.uncomparable.get(goTypeName(value)!) ?? Infinity;
    } else {
      at = this.first.get(k) ?? Infinity;
    }
    if (this.firstNonMap < at && this.firstNonMap < panicAt) {
      throw unknownError(`value for key ${this.firstNonMap} is not a map`);
    }
    if (panicAt < at) throw panicUncomparable(value);
    return at === Infinity ? -1 : at;
  }
}

// ---------------------------------------------------------------------------------------------
// Go's sort.SliceStable (insertion sort on blocks of 20, then SymMerge), reproduced so that the
// order is the same as Kubernetes' even for the comparison function strategicpatch uses, which is
// not a strict weak ordering when an item is missing from the order list.

function goSliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const n = data.length;
  const lessAt = (i: number, j: number) => less(data[i]!, data[j]!);
  const swap = (i: number, j: number) => {
    const t = data[i]!;
    data[i] = data[j]!;
    data[j] = t;
  };
  const insertionSort = (a: number, b: number) => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (a: number, b: number, cnt: number) => {
    for (let i = 0; i < cnt; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number) => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const nn = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = nn - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = nn - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = nn - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}

// ---------------------------------------------------------------------------------------------
// Maps.

function mergeMap(original: JsonObject | null, patch: JsonObject, schema: Schema): JsonObject {
  if (hasOwn(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch);
  const orig: JsonObject = original ?? {};

  applyRetainKeysDirective(orig, patch);
  mergePatchIntoOriginal(orig, patch, schema);

  for (const rawKey of Object.keys(patch)) {
    if (!hasOwn(patch, rawKey)) continue;
    const patchV = patch[rawKey];
    let k = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(deleteFromPrimitiveListPrefix)) {
      k = extractKey(rawKey, deleteFromPrimitiveListPrefix);
      isDeleteList = true;
    }

    // null deletes the key (an unmatched null is dropped).
    if (patchV === null) {
      delete orig[k];
      continue;
    }
    // A value with no counterpart of its type in the original is taken from the patch, without
    // its nulls and without the maps that carry a $patch directive.
    if (!hasOwn(orig, k) || goTypeName(orig[k]) !== goTypeName(patchV)) {
      if (!isDeleteList) {
        discardNullValues(patchV);
        const [v, keep] = removeDirectives(patchV);
        if (keep) setOwn(orig, k, v);
        else delete orig[k];
      }
      continue;
    }
    const origV = orig[k];
    if (isObject(origV)) {
      const meta = lookupForStruct(schema, k);
      const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
      setOwn(orig, k, strategy !== replaceDirective ? mergeMap(origV, patchV as JsonObject, meta.schema) : patchV);
    } else if (Array.isArray(origV)) {
      const meta = lookupForSlice(schema, k);
      const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
      setOwn(orig, k, mergeSliceHandler(origV, patchV as unknown[], meta.schema, strategy, meta.mergeKey, isDeleteList).merged);
    } else {
      setOwn(orig, k, patchV);
    }
  }
  return orig;
}

function handleDirectiveInMergeMap(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === deleteDirective) return {};
  throw errBadPatchType(directive, patch);
}

/**
 * Drops every map holding a `$patch` key (from maps and lists, at any depth); [value, keep].
 * Kubernetes does this (since v1.28) where it takes a patch value as is, so that directives are
 * never stored.
 */
function removeDirectives(v: unknown): [unknown, boolean] {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const e of v) {
      const [ev, keep] = removeDirectives(e);
      if (keep) out.push(ev);
    }
    return [out, true];
  }
  if (isObject(v)) {
    if (hasOwn(v, directiveMarker)) return [undefined, false];
    for (const k of Object.keys(v)) {
      const [ev, keep] = removeDirectives(v[k]);
      if (keep) setOwn(v, k, ev);
      else delete v[k];
    }
  }
  return [v, true];
}

/** Drops null-valued keys of maps, at every depth (lists are traversed, their nulls kept). */
function discardNullValues(v: unknown): void {
  if (Array.isArray(v)) {
    for (const e of v) discardNullValues(e);
  } else if (isObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValues(v[k]);
    }
  }
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListPrefix) throw errBadPatchFormatForPrimitiveList();
    throw errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

function applyRetainKeysDirective(original: JsonObject, patch: JsonObject): void {
  if (!hasOwn(patch, retainKeysDirective)) return;
  const retainKeys = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retainKeys)) throw errBadPatchFormatForRetainKeys();
  const keep = new Set<string>();
  for (const v of retainKeys) keep.add(hashKey(v));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!keep.has(`s${k}`)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(`s${k}`)) delete original[k];
}

/** Processes the $setElementOrder directives of `patch` (and the lists they order). */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: Schema): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix) || !hasOwn(patch, key)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) throw errBadArgType(SLICE, setOrder);
    const originalKey = extractKey(key, setElementOrderPrefix);

    const foundOriginal = hasOwn(original, originalKey);
    const foundPatch = hasOwn(patch, originalKey);
    let originalList: unknown[] | undefined;
    let patchList: unknown[] | undefined;
    if (foundOriginal) {
      const v = original[originalKey];
      if (!Array.isArray(v)) throw errBadArgType(SLICE, v);
      originalList = v;
    }
    if (foundPatch) {
      const v = patch[originalKey];
      if (!Array.isArray(v)) throw errBadArgType(SLICE, v);
      patchList = v;
    }
    const meta = lookupForSlice(schema, originalKey);
    const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
    const mergeKey = meta.mergeKey;
    validatePatchWithSetOrderList(patchList, setOrder, mergeKey);

    let merged: unknown[];
    // The live list as Go sees it afterwards: merging deletes and appends in the same backing array.
    let liveOrder: unknown[] | undefined = originalList;
    if (originalList && !patchList) {
      merged = originalList;
    } else if (!originalList && patchList) {
      merged = removeDirectives(patchList)[0] as unknown[];
    } else if (originalList && patchList) {
      const r = mergeSliceHandler(originalList, patchList, meta.schema, strategy, mergeKey, false);
      merged = r.merged;
      liveOrder = r.aliasedOriginal;
    } else {
      continue;
    }

    const [patchItems, serverOnly] =
      mergeKey === '' ? partitionPrimitives(merged, setOrder) : partitionMaps(merged, setOrder, mergeKey);
    const kind = sliceElementType([liveOrder ?? [], patchList ?? []]);
    setOwn(original, originalKey, normalizeElementOrder(patchItems, serverOnly, setOrder, liveOrder ?? [], mergeKey, kind));
    delete patch[originalKey];
  }
}

function validatePatchWithSetOrderList(patchList: unknown[] | undefined, setOrder: unknown[], mergeKey: string): void {
  if (!patchList || setOrder.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey !== '' ? extractToDeleteItems(patchList)[0] : patchList;
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrder.length) {
    const item = nonDelete[pi];
    if (isObject(item) && hasOwn(item, directiveMarker)) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(item, setOrder[si], mergeKey)) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrder.length) {
    throw unknownError(
      `the order in patch list:\n${goV(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goV(setOrder)}`,
    );
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isObject(left)) throw errBadArgType(MAP, left);
  if (!isObject(right)) throw errBadArgType(MAP, right);
  if (!hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** Splits a list of maps into [items without `$patch: delete`, items with it]. */
function extractToDeleteItems(list: unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const del: unknown[] = [];
  for (const v of list) {
    if (!isObject(v)) throw errBadArgType(MAP, v);
    if (hasOwn(v, directiveMarker) && v[directiveMarker] === deleteDirective) del.push(v);
    else keep.push(v);
  }
  return [keep, del];
}

// ---------------------------------------------------------------------------------------------
// Lists.

interface SliceResult {
  merged: unknown[];
  /**
   * The original list as the caller's Go slice sees it after the merge: deleting elements shifts
   * the backing array in place and appended elements land in the freed slots. apimachinery orders
   * server-only items against this view when it processes $setElementOrder.
   */
  aliasedOriginal: unknown[];
}

function mergeSliceHandler(
  original: unknown[],
  patch: unknown[],
  elemSchema: Schema,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): SliceResult {
  // Delete lists work the same whatever the field's strategy.
  if (strategy === mergeDirective || isDeleteList) return mergeSlice(original, patch, elemSchema, mergeKey, isDeleteList);
  return { merged: patch, aliasedOriginal: original };
}

function mergeSlice(original: unknown[], patch: unknown[], elemSchema: Schema, mergeKey: string, isDeleteList: boolean): SliceResult {
  if (original.length === 0 && patch.length === 0) return { merged: original, aliasedOriginal: original };
  const kind = sliceElementType([original, patch]);

  let merged: unknown[];
  let serverOrder: unknown[];
  let aliasedOriginal: unknown[] = original;
  let patchRest = patch;
  if (kind !== 'map') {
    if (isDeleteList) return { merged: deleteFromSlice(original, patch), aliasedOriginal: original };
    merged = deduplicateScalars([...original, ...patch]);
    serverOrder = original;
  } else {
    if (mergeKey === '') throw unknownError(`cannot merge lists without merge key for ${goKindName(elemSchema)}`);
    const live = new LiveList(original, mergeKey);
    const special = mergeSliceWithSpecialElements(live, patch, mergeKey);
    patchRest = special.patch;
    if (special.replace) {
      merged = special.patch;
      serverOrder = merged;
      patchRest = [];
    } else {
      serverOrder = live.items();
      merged = mergeSliceWithoutSpecialElements(live, patchRest, mergeKey, elemSchema);
    }
    aliasedOriginal = live.view;
  }

  const [patchItems, serverOnly] =
    mergeKey === '' ? partitionPrimitives(merged, patchRest) : partitionMaps(merged, patchRest, mergeKey);
  return { merged: normalizeElementOrder(patchItems, serverOnly, patchRest, serverOrder, mergeKey, kind), aliasedOriginal };
}

/**
 * A list of maps being merged, tracked as Go's `original` slice: removing an element shifts the
 * rest left inside the shared backing array (the last slot keeps its old value), and appending
 * writes into those freed slots while they are within the caller's length.
 */
class LiveList {
  /** What the caller's slice (same backing array, original length) shows. */
  readonly view: unknown[];
  private list: unknown[];
  // Deletion state, over indices of the original list.
  private readonly buckets = new Map<string, number[]>();
  private readonly uncomparable = new Set<string>();
  private removed: boolean[] | undefined;
  private len: number;
  private last: number;

  constructor(original: unknown[], private readonly mergeKey: string) {
    this.view = original.slice();
    this.list = original.slice();
    this.len = original.length;
    this.last = original.length - 1;
    original.forEach((item, i) => {
      if (!isObject(item) || !hasOwn(item, mergeKey)) return;
      const v = item[mergeKey];
      const k = scalarKey(v);
      if (k === undefined) {
        this.uncomparable.add(goTypeName(v)!);
        return;
      }
      const b = this.buckets.get(k);
      if (b) b.push(i);
      else this.buckets.set(k, [i]);
    });
  }

  /** deleteMatchingEntries: removes every element whose merge key equals `value`. */
  deleteMatching(value: unknown): void {
    const k = scalarKey(value);
    if (k === undefined) {
      if (this.uncomparable.has(goTypeName(value)!)) throw panicUncomparable(value);
      return;
    }
    const bucket = this.buckets.get(k);
    if (!bucket) return;
    this.buckets.delete(k);
    const removed = (this.removed ??= new Array<boolean>(this.view.length).fill(false));
    for (const i of bucket) {
      // Removing the first match copies the tail one slot left; slot len-1 keeps the last element.
      this.view[this.len - 1] = this.list[this.last];
      removed[i] = true;
      this.len--;
      while (this.last >= 0 && removed[this.last]) this.last--;
    }
  }

  private settle(): void {
    if (!this.removed) return;
    const removed = this.removed;
    this.removed = undefined;
    const kept = this.list.filter((_, i) => !removed[i]);
    for (let i = 0; i < kept.length; i++) this.view[i] = kept[i];
    this.list = kept;
  }

  items(): unknown[] {
    this.settle();
    return this.list.slice();
  }
  at(i: number): unknown {
    this.settle();
    return this.list[i];
  }
  set(i: number, v: unknown): void {
    this.settle();
    this.list[i] = v;
    if (i < this.view.length) this.view[i] = v;
  }
  push(v: unknown): void {
    this.settle();
    if (this.list.length < this.view.length) this.view[this.list.length] = v;
    this.list.push(v);
  }
  result(): unknown[] {
    this.settle();
    return this.list;
  }
}

function mergeSliceWithSpecialElements(live: LiveList, patch: unknown[], mergeKey: string): { patch: unknown[]; replace: boolean } {
  const rest: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const m = v as JsonObject;
    if (!hasOwn(m, directiveMarker)) {
      rest.push(v);
      continue;
    }
    const t = m[directiveMarker];
    if (t === deleteDirective) {
      if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      live.deleteMatching(m[mergeKey]);
    } else if (t === replaceDirective) {
      replace = true;
    } else if (t === mergeDirective) {
      throw unknownError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(t, m);
    }
  }
  return { patch: rest, replace };
}

function mergeSliceWithoutSpecialElements(live: LiveList, patch: unknown[], mergeKey: string, elemSchema: Schema): unknown[] {
  const index = new MapKeyIndex(live.items(), mergeKey);
  for (const v of patch) {
    const m = v as JsonObject;
    if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const at = index.find(m[mergeKey]);
    if (at >= 0) {
      live.set(at, mergeMap(live.at(at) as JsonObject, m, elemSchema));
    } else {
      live.push(v);
      index.add(v);
    }
  }
  return live.result();
}

/** deleteFromSlice: the scalars of `current` not in `toDelete`. */
function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const del = new Set<string>();
  for (const v of toDelete) del.add(hashKey(v));
  return current.filter((v) => !del.has(hashKey(v)));
}

/** Removes repeated scalars, keeping first occurrences (the order is normalized afterwards). */
function deduplicateScalars(list: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const v of list) {
    const k = scalarKey(v);
    if (k === undefined) {
      // Go compares every pair; two equal uncomparable types panic.
      if (out.some((o) => goTypeName(o) === goTypeName(v))) throw panicUncomparable(v);
      out.push(v);
    } else if (!seen.has(k)) {
      seen.add(k);
      out.push(v);
    }
  }
  return out;
}

/** sliceElementType: every element of every list must have the same Go type, and not be a list. */
function sliceElementType(lists: unknown[][]): ElemKind {
  let prev: string | undefined;
  let seen = false;
  for (const list of lists) {
    for (const v of list) {
      const t = goTypeName(v);
      if (!seen) {
        seen = true;
        prev = t;
        if (t === undefined) throw panicNil();
        if (t === SLICE) throw errNoListOfLists();
      } else if (prev !== t) {
        throw unknownError(`list element types are not identical: ${goV(lists)}`);
      }
    }
  }
  if (!seen) throw unknownError('no elements in any of the given slices');
  return prev === MAP ? 'map' : 'scalar';
}

function partitionPrimitives(list: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const inPatch = new Set<string>();
  for (const v of by) inPatch.add(hashKey(v));
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) (inPatch.has(hashKey(v)) ? patch : serverOnly).push(v);
  return [patch, serverOnly];
}

function partitionMaps(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const index = new MapKeyIndex(by, mergeKey);
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) {
    if (!isObject(v)) throw errBadArgType(MAP, v);
    if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (index.find(v[mergeKey]) >= 0 ? patch : serverOnly).push(v);
  }
  return [patch, serverOnly];
}

/** Orders patch items by patchOrder and server-only items by serverOrder, then interleaves them. */
function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ElemKind,
): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: ElemKind): unknown[] {
  let items = toSort;
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order]) {
      for (const item of list) {
        if (!isObject(item)) throw errBadArgType(MAP, item);
        if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
      }
    }
    [items, toDelete] = extractToDeleteItems(toSort);
  } else {
    items = toSort.slice();
  }
  const index = new OrderIndex(order, mergeKey, kind);
  goSliceStable(items, (a, b) => {
    const ia = index.indexOf(a);
    if (ia >= 0) {
      const ib = index.indexOf(b);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return toDelete.length ? [...items, ...toDelete] : items;
}

/**
 * Merges server-only items (left) into patch items (right), both already sorted: a server-only
 * item goes first only when both it and the patch item are in the live list and it is before.
 */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElemKind): unknown[] {
  const index = new OrderIndex(serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = index.indexOf(left[i]);
      const ri = index.indexOf(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}
