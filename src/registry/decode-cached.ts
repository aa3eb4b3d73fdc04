// A watch-cache object as a decoded JSON object, decoded once per cached version however many
// readers ask (the token authenticator and admission plugins read the same objects on every
// request). The result is shared: read it, do not change it.
import type { KubeObject } from '../api/schema/kind.js';
import type { CachedObject } from '../storage/cacher/types.js';

const decoder = new TextDecoder();
const decoded = new WeakMap<CachedObject, KubeObject>();

export function decodeCached(cached: CachedObject): KubeObject {
  let obj = decoded.get(cached);
  if (!obj) decoded.set(cached, (obj = JSON.parse(decoder.decode(cached.json)) as KubeObject));
  return obj;
}

/** The shared decoding of a watch-cache object if some reader made it already. */
export function sharedDecoding(cached: CachedObject): KubeObject | undefined {
  return decoded.get(cached);
}

/**
 * The shared decoding of a watch-cache object if some reader made it already, else a fresh one
 * that is not kept (encoders of big lists should not hold a second copy of every object).
 */
export function decodedOrFresh(cached: CachedObject): KubeObject {
  return decoded.get(cached) ?? (JSON.parse(decoder.decode(cached.json)) as KubeObject);
}
