// JSON Patch (RFC 6902, Content-Type application/json-patch+json) as kube-apiserver applies it.
//
// kube-apiserver uses evanphx/json-patch v4, which departs from the RFC in ways clients can see,
// and this follows it:
// - `replace` of a missing object member adds it; `copy` from a missing object member copies null.
// - A missing `value` means null. The root path "" matches nothing (every op on it fails), and the
//   first segment of a path is not checked to be empty ("a/b" acts as "/b").
// - Array indexes may be negative (counted from the end) for add/remove; "-" appends.
// - `test` passes when both the target and the value are null or missing; objects match when every
//   member of the target is in the value with an equal value (extra members of the value are not
//   looked at); arrays match element by element.
// fast-json-patch performs the RFC 6902 pointer decoding and the add/remove/replace mutations on
// the container resolved here; the resolution, the checks above and the error texts are evanphx's.
//
// Errors, as kube-apiserver reports them:
// - the body is not a JSON array of objects: 400 with the decoder's message;
// - more than 10000 operations: 413 RequestEntityTooLarge;
// - any operation that fails (path missing, test failed, unknown op, ...): 422 Invalid with the
//   fixed message "the server rejected our request due to an error in our request" and `details: {}`
//   (the evanphx error text is kept in PatchError.underlying);
// - `copy` operations adding up to more than 3 MiB: 422 as above.
// The original is never mutated; the patch is applied to a copy.

import fastJsonPatch from 'fast-json-patch';
import { PatchError, badRequest, entityTooLarge, genericInvalid, unknownError } from './errors.js';
import { DEFAULT_MAX_DEPTH, type JsonObject, cloneJson, hasOwn, isObject } from './json-util.js';

const { applyOperation, escapePathComponent, unescapePathComponent } = fastJsonPatch;

/** kube-apiserver's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** kube-apiserver's default JSONPatchMaxCopyBytes (--max-request-body-bytes' default, 3 MiB). */
export const DEFAULT_MAX_COPY_BYTES = 3 * 1024 * 1024;

export interface JsonPatchOptions {
  maxOperations?: number;
  maxCopyBytes?: number;
  /** Bound on the nesting depth of the patch document (default 100): deeper is a 400. */
  maxDepth?: number;
}

export type JsonPatchOperation = {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
};

/** Applies a JSON patch (the decoded request body) to a copy of `original` and returns it. */
export function applyJsonPatch(original: unknown, patch: unknown, options: JsonPatchOptions = {}): unknown {
  const maxOperations = options.maxOperations ?? MAX_JSON_PATCH_OPERATIONS;
  const maxCopyBytes = options.maxCopyBytes ?? DEFAULT_MAX_COPY_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (patch !== null && !Array.isArray(patch)) {
    throw badRequest(`json: cannot unmarshal ${kindWord(patch)} into Go value of type jsonpatch.Patch`);
  }
  const ops = patch ?? [];
  for (const op of ops) {
    if (op !== null && !isObject(op)) {
      throw badRequest(`json: cannot unmarshal ${kindWord(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  if (ops.length > maxOperations) {
    throw entityTooLarge(`The allowed maximum operations in a JSON patch is ${maxOperations}, got ${ops.length}`);
  }
  const opsCopy = cloneJson(ops, maxDepth) as Array<JsonObject | null>;
  const state = { doc: cloneJson(original, Number.MAX_SAFE_INTEGER, 'original'), copied: 0, maxCopyBytes };
  for (const op of opsCopy) {
    try {
      applyOne(state, op ?? {});
    } catch (e) {
      if (e instanceof PatchError) throw e;
      if (e instanceof OpError) throw genericInvalid(e.message);
      // fast-json-patch refuses __proto__ / constructor.prototype keys with a TypeError.
      throw genericInvalid(e instanceof Error ? e.message : String(e));
    }
  }
  return state.doc;
}

function kindWord(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

/** An operation failed: kube-apiserver answers 422 and keeps this text to itself. */
class OpError extends Error {}

interface State {
  doc: unknown;
  copied: number;
  maxCopyBytes: number;
}

/** A resolved location: the container (object or array) and the decoded last segment. */
interface Location {
  container: JsonObject | unknown[];
  key: string;
}

function applyOne(state: State, op: JsonObject): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  switch (kind) {
    case 'add': {
      const path = stringField(op, 'path', 'add operation failed to decode path');
      const loc = findObject(state.doc, path);
      if (!loc) throw new OpError(`add operation does not apply: doc is missing path: "${path}"`);
      addAt(loc, valueOf(op), path);
      return;
    }
    case 'remove': {
      const path = stringField(op, 'path', 'remove operation failed to decode path');
      const loc = findObject(state.doc, path);
      if (!loc) throw new OpError(`remove operation does not apply: doc is missing path: "${path}"`);
      removeAt(loc, path);
      return;
    }
    case 'replace': {
      const path = stringField(op, 'path', 'replace operation failed to decode path');
      const loc = findObject(state.doc, path);
      if (!loc) throw new OpError(`replace operation does not apply: doc is missing path: ${path}`);
      getAt(loc, `replace operation does not apply: doc is missing key: ${path}`);
      setAt(loc, valueOf(op), path);
      return;
    }
    case 'move': {
      const from = stringField(op, 'from', 'move operation failed to decode from');
      const src = findObject(state.doc, from);
      if (!src) throw new OpError(`move operation does not apply: doc is missing from path: ${from}`);
      const val = getAt(src, `error in move for path: '${src.key}'`);
      removeAt(src, src.key);
      const path = stringField(op, 'path', 'move operation failed to decode path');
      const dst = findObject(state.doc, path);
      if (!dst) throw new OpError(`move operation does not apply: doc is missing destination path: ${path}`);
      addAt(dst, val ?? null, path);
      return;
    }
    case 'copy': {
      const from = stringField(op, 'from', 'copy operation failed to decode from');
      const src = findObject(state.doc, from);
      if (!src) throw new OpError(`copy operation does not apply: doc is missing from path: ${from}`);
      const val = getAt(src, `error in copy for from: '${from}'`);
      const path = stringField(op, 'path', 'copy operation failed to decode path');
      const dst = findObject(state.doc, path);
      if (!dst) throw new OpError(`copy operation does not apply: doc is missing destination path: ${path}`);
      const text = val === undefined ? undefined : JSON.stringify(val);
      if (text !== undefined) {
        state.copied += Buffer.byteLength(text);
        if (state.maxCopyBytes > 0 && state.copied > state.maxCopyBytes) {
          throw new OpError(
            `Unable to complete the copy, the accumulated size increase of copy is ${state.copied}, exceeding the limit ${state.maxCopyBytes}`,
          );
        }
      }
      addAt(dst, text === undefined ? null : JSON.parse(text), path);
      return;
    }
    case 'test': {
      const path = stringField(op, 'path', 'test operation failed to decode path');
      const loc = findObject(state.doc, path);
      if (!loc) throw new OpError(`test operation does not apply: is missing path: ${path}`);
      const val = getAt(loc, `error in test for path: '${path}'`);
      const hasValue = hasOwn(op, 'value');
      const want = hasValue ? op.value : undefined;
      if (val === undefined || val === null) {
        if (want === undefined || want === null) return;
        throw new OpError(`testing value ${path} failed: test failed`);
      }
      if (!hasValue || !testEqual(val, want)) throw new OpError(`testing value ${path} failed: test failed`);
      return;
    }
    default:
      throw new OpError(`Unexpected kind: ${kind}`);
  }
}

function stringField(op: JsonObject, name: string, failure: string): string {
  const v = hasOwn(op, name) ? op[name] : null;
  if (v === null) throw new OpError(`${failure}: operation missing ${name} field: missing value`);
  if (typeof v !== 'string') throw new OpError(`${failure}: json: cannot unmarshal ${kindWord(v)} into Go value of type string`);
  return v;
}

/** The operation's value; a missing value is null. */
function valueOf(op: JsonObject): unknown {
  return hasOwn(op, 'value') ? op.value : null;
}

/** strconv.Atoi of an array index segment; undefined when it is not an integer. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** evanphx findObject: walks to the parent of the last segment; undefined when a step is missing. */
function findObject(doc: unknown, path: string): Location | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let cur: unknown = doc;
  for (const raw of split.slice(1, -1)) {
    const part = unescapePathComponent(raw);
    let next: unknown;
    if (Array.isArray(cur)) {
      const i = atoi(part);
      if (i === undefined || i >= cur.length) return undefined;
      if (i < 0) throw unknownError(`runtime error: index out of range [${i}]`);
      next = cur[i];
    } else if (isObject(cur)) {
      next = hasOwn(cur, part) ? cur[part] : undefined;
    } else {
      return undefined;
    }
    if (typeof next !== 'object' || next === null) return undefined;
    cur = next;
  }
  if (typeof cur !== 'object' || cur === null) return undefined;
  return { container: cur as JsonObject | unknown[], key: unescapePathComponent(split[split.length - 1]!) };
}

/** container.get: an object's missing member is undefined (no error); a bad array index fails. */
function getAt(loc: Location, failure: string): unknown {
  const c = loc.container;
  if (!Array.isArray(c)) return hasOwn(c, loc.key) ? c[loc.key] : undefined;
  const i = atoi(loc.key);
  if (i === undefined) throw new OpError(`${failure}: strconv.Atoi: parsing "${loc.key}": invalid syntax`);
  if (i >= c.length) throw new OpError(`${failure}: Unable to access invalid index: ${i}: invalid index referenced`);
  if (i < 0) throw unknownError(`runtime error: index out of range [${i}]`);
  return c[i];
}

/** Runs one fast-json-patch operation on the resolved container. */
function mutate(container: JsonObject | unknown[], op: 'add' | 'remove' | 'replace', key: string, value?: unknown): void {
  const operation = op === 'remove' ? { op, path: `/${escapePathComponent(key)}` } : { op, path: `/${escapePathComponent(key)}`, value };
  applyOperation(container, operation, false, true, true);
}

function addAt(loc: Location, value: unknown, path: string): void {
  const c = loc.container;
  if (!Array.isArray(c)) {
    mutate(c, 'add', loc.key, value);
    return;
  }
  if (loc.key === '-') {
    c.push(value);
    return;
  }
  let i = atoi(loc.key);
  if (i === undefined) {
    throw new OpError(`error in add for path: '${path}': value was not a proper array index: '${loc.key}': strconv.Atoi: parsing "${loc.key}": invalid syntax`);
  }
  const size = c.length + 1;
  if (i >= size || i < -size) {
    throw new OpError(`error in add for path: '${path}': Unable to access invalid index: ${i}: invalid index referenced`);
  }
  if (i < 0) i += size;
  mutate(c, 'add', String(i), value);
}

function removeAt(loc: Location, path: string): void {
  const c = loc.container;
  if (!Array.isArray(c)) {
    if (!hasOwn(c, loc.key)) {
      throw new OpError(`error in remove for path: '${path}': Unable to remove nonexistent key: ${loc.key}: missing value`);
    }
    mutate(c, 'remove', loc.key);
    return;
  }
  let i = atoi(loc.key);
  if (i === undefined) throw new OpError(`error in remove for path: '${path}': strconv.Atoi: parsing "${loc.key}": invalid syntax`);
  if (i >= c.length || i < -c.length) {
    throw new OpError(`error in remove for path: '${path}': Unable to access invalid index: ${i}: invalid index referenced`);
  }
  if (i < 0) i += c.length;
  mutate(c, 'remove', String(i));
}

function setAt(loc: Location, value: unknown, path: string): void {
  const c = loc.container;
  if (!Array.isArray(c)) {
    mutate(c, 'replace', loc.key, value);
    return;
  }
  const i = atoi(loc.key);
  if (i === undefined) throw new OpError(`error in remove for path: '${path}': strconv.Atoi: parsing "${loc.key}": invalid syntax`);
  mutate(c, 'replace', String(i), value);
}

/** evanphx lazyNode.equal: target `a` against test value `b`. */
function testEqual(a: unknown, b: unknown): boolean {
  if (isObject(a)) {
    if (!isObject(b)) return false;
    for (const k of Object.keys(a)) {
      if (!hasOwn(b, k)) return false;
      const av = a[k];
      const bv = b[k];
      if (av === null && bv === null) continue;
      if (av === null || bv === null) return av === bv;
      if (!testEqual(av, bv)) return false;
    }
    return true;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!testEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(b) || Array.isArray(b)) return false;
  return a === b;
}
