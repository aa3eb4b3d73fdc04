// Conversion that needs a call (a CRD's conversion webhook): done ahead of the encoders and the
// body readers, which then convert as for any kind (see registry/custom/conversion.ts).
import { apiVersionOf, storageVersionOf } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { decodeCached } from '../../registry/decode-cached.js';
import type { CachedObject } from '../../storage/cacher/types.js';

/** Readies the served forms of storage-version objects for `kv`. */
export async function prepareServed(kv: KindVersion, hubs: readonly KubeObject[]): Promise<void> {
  if (kv.custom?.prepare && !kv.storage && hubs.length > 0) await kv.custom.prepare(hubs, apiVersionOf(kv));
}

/** prepareServed for watch-cache objects (decoded once each, as the encoders decode them). */
export function prepareServedCached(kv: KindVersion, cached: readonly CachedObject[]): Promise<void> {
  if (!kv.custom?.prepare || kv.storage) return Promise.resolve();
  return prepareServed(kv, cached.map(decodeCached));
}

/** A request's object of the served kind in the storage version. */
export async function hubOf(kv: KindVersion, obj: KubeObject): Promise<KubeObject> {
  if (kv.custom?.prepare && !kv.storage) await kv.custom.prepare([obj], apiVersionOf(storageVersionOf(kv)));
  return kv.toHub ? kv.toHub(obj) : obj;
}
