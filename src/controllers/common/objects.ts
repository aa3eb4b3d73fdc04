// Small accessors over objects in JSON form, shared by the controllers.
import type { KubeObject } from '../../client/types.js';
import { cloneJson } from '../../machinery/clone.js';

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: unknown[];
  finalizers?: string[];
  [k: string]: unknown;
}

export function meta(obj: KubeObject): ObjectMeta {
  return (obj.metadata ?? {}) as ObjectMeta;
}

// The queue key (namespace/name, or name for cluster-scoped objects), its split, and the object of
// a delete notification (unwrapping a tombstone) are the client cache's.
export { keyOf, splitKey, objectOf as unwrapTombstone } from '../../client/cache.js';

export function isNotFound(e: unknown): boolean {
  return (e as { code?: number })?.code === 404;
}
export function isAlreadyExists(e: unknown): boolean {
  const err = e as { code?: number; reason?: string };
  return err?.code === 409 && err.reason === 'AlreadyExists';
}
export function isConflict(e: unknown): boolean {
  const err = e as { code?: number; reason?: string };
  return err?.code === 409 && err.reason !== 'AlreadyExists';
}

/** A deep copy of an object from the API (JSON data): several times faster than structuredClone. */
export function deepCopy<T>(v: T): T {
  return cloneJson(v);
}

/** Milliseconds of an RFC 3339 time, 0 for none. */
export function timeMs(t: unknown): number {
  if (typeof t !== 'string' || t === '') return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

/** metav1.Time's JSON form: RFC 3339 with seconds precision, UTC. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Semantic equality of JSON values: null/undefined, empty arrays and empty objects equal absence. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function normalize(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    const arr = v.map((x) => normalize(x) ?? null);
    return arr.length ? arr : undefined;
  }
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) {
      const n = normalize((v as Record<string, unknown>)[k]);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}
