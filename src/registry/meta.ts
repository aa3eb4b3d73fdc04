// Small helpers for the ObjectMeta of objects in their JSON form.
import { randomInt, randomUUID } from 'node:crypto';
import { ObjectMeta } from '../api/meta/v1.js';
import type { KubeObject } from '../api/schema/kind.js';
export { cloneJson } from '../machinery/clone.js';

export type Meta = Record<string, unknown>;

/** The object's metadata, created when absent. */
export function metaOf(obj: KubeObject): Meta {
  let m = obj.metadata;
  if (typeof m !== 'object' || m === null || Array.isArray(m)) obj.metadata = m = {};
  return m as Meta;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

let lastSecond = NaN;
let lastTimestamp = '';

/** RFC 3339 with seconds, as Kubernetes writes metav1.Time. */
export function timestamp(ms: number): string {
  // Formatted once per second: every create stamps the same second as the ones around it.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastTimestamp = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastTimestamp;
}

export function newUid(): string {
  return randomUUID();
}

// The alphabet Kubernetes' name generator uses (no vowels, no look-alike characters).
const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATED_NAME_LENGTH = 63;

/** `generateName` + 5 random characters, the prefix cut to keep the name within 63 characters. */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[randomInt(GENERATE_ALPHABET.length)];
  const base = prefix.length > MAX_GENERATED_NAME_LENGTH - 5 ? prefix.slice(0, MAX_GENERATED_NAME_LENGTH - 5) : prefix;
  return base + suffix;
}

const META_ORDER = Object.keys(ObjectMeta.fields);

/**
 * Sets metadata.resourceVersion, keeping ObjectMeta's field order (stored objects carry none: the
 * revision is only known once the write commits).
 */
export function withResourceVersion(meta: Meta, resourceVersion: string): Meta {
  if ('resourceVersion' in meta) {
    meta.resourceVersion = resourceVersion;
    return meta;
  }
  return metaCopyWithResourceVersion(meta, resourceVersion, (_, v) => v);
}

/**
 * A copy of `meta` in ObjectMeta's field order with resourceVersion set (whether or not `meta` has
 * one), each other field's value passed through `map`: one object, built in one pass (a write's
 * serialization made three copies with object rest, withResourceVersion and a spread).
 */
export function metaCopyWithResourceVersion(meta: Meta, resourceVersion: string, map: (key: string, value: unknown) => unknown): Meta {
  const out: Meta = {};
  for (const k of META_ORDER) {
    if (k === 'resourceVersion') out.resourceVersion = resourceVersion;
    else if (k in meta) out[k] = map(k, meta[k]);
  }
  for (const k in meta) if (!(k in out)) out[k] = map(k, meta[k]);
  return out;
}

