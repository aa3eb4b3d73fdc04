// Small helpers shared by the patch implementations: own-property access that is safe for any key
// (including "__proto__", which JSON.parse creates as an own property), and a validating deep copy
// that bounds nesting depth.

import { badRequest } from './errors.js';

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(o: JsonObject, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** o[k] = v as an own data property, whatever k is. */
export function setOwn(o: JsonObject, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/** The default bound on nesting depth of patch documents (kube-apiserver's JSON decoder allows 10000). */
export const DEFAULT_MAX_DEPTH = 100;

/**
 * Deep copy of a JSON value (plain objects, arrays, strings, finite numbers, booleans, null).
 * Rejects anything else and nesting deeper than `maxDepth` with a 400 BadRequest; `what` names the
 * document in the message.
 */
export function cloneJson(v: unknown, maxDepth: number, what = 'patch'): unknown {
  return cloneAt(v, 1, maxDepth, what);
}

function cloneAt(v: unknown, depth: number, maxDepth: number, what: string): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw badRequest(`${what}: numbers must be finite`);
    return v;
  }
  if (typeof v !== 'object') throw badRequest(`${what}: not a JSON value (${typeof v})`);
  if (depth > maxDepth) throw badRequest(`${what}: exceeded max depth of ${maxDepth}`);
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneAt(v[i], depth + 1, maxDepth, what);
    return out;
  }
  const out: JsonObject = {};
  for (const k of Object.keys(v)) setOwn(out, k, cloneAt((v as JsonObject)[k], depth + 1, maxDepth, what));
  return out;
}
