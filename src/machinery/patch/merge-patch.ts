// JSON merge patch (RFC 7386, Content-Type application/merge-patch+json) as kube-apiserver applies
// it (evanphx/json-patch MergePatch):
// - an object patch merges into the object key by key, recursively; `null` deletes a key; a value
//   put where the target has no object is taken with its nested nulls dropped;
// - an array patch replaces the whole document (nested nulls dropped, null elements kept);
// - a `null`, string, number or boolean patch is a 400 "Invalid JSON Patch" (RFC 7386 would make
//   it the new document; Kubernetes rejects it).
// Inputs are never mutated.

import { badRequest } from './errors.js';
import { DEFAULT_MAX_DEPTH, type JsonObject, cloneJson, isObject, hasOwn, setOwn } from './json-util.js';

export interface MergePatchOptions {
  /** Bound on the nesting depth of the patch document (default 100): deeper is a 400. */
  maxDepth?: number;
}

/** The message kube-apiserver answers a non-object, non-array merge patch with (400). */
export const errBadJSONPatch = 'Invalid JSON Patch';

export function applyMergePatch(original: unknown, patch: unknown, options: MergePatchOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (Array.isArray(patch)) return pruneNulls(cloneJson(patch, maxDepth));
  if (!isObject(patch)) throw badRequest(errBadJSONPatch);
  const p = cloneJson(patch, maxDepth) as JsonObject;
  const doc = cloneJson(original, Number.MAX_SAFE_INTEGER, 'original');
  if (!isObject(doc)) return pruneNulls(p);
  mergeDocs(doc, p);
  return doc;
}

function mergeDocs(doc: JsonObject, patch: JsonObject): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = hasOwn(doc, k) ? doc[k] : null;
    if (cur === null) {
      setOwn(doc, k, pruneNulls(v));
    } else if (!isObject(cur)) {
      setOwn(doc, k, pruneNulls(v));
    } else if (!isObject(v)) {
      setOwn(doc, k, v);
    } else {
      mergeDocs(cur, v);
    }
  }
}

/** Drops null-valued keys of objects at every depth; null array elements stay. */
function pruneNulls<T>(v: T): T {
  if (Array.isArray(v)) {
    for (const e of v) if (e !== null) pruneNulls(e);
  } else if (isObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else pruneNulls(v[k]);
    }
  }
  return v;
}
