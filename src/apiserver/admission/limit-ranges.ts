// The LimitRanges LimitRanger admission reads: the watch cache's, and storage's when the cache
// holds none for the namespace (Kubernetes' live lookup, so a range just created applies at once).
// As Kubernetes' liveLookupCache, what storage answered is kept for 30 s, so that creates in a
// namespace without ranges do not each read storage.
import type { LimitRange } from '../../api/types.js';
import { decodeStored } from '../../registry/materialize.js';
import type { Registry } from '../../registry/registry.js';
import type { LimitRangeLister } from './limit-ranger.js';

const decoder = new TextDecoder();
const LIVE_LOOKUP_TTL_MS = 30_000;

export function registryLimitRanges(registry: Registry, now: () => number = Date.now): LimitRangeLister {
  const live = new Map<string, { until: number; items: LimitRange[] }>();
  return {
    async list(namespace) {
      const store = registry.store('', 'limitranges');
      if (!store) return [];
      const cached = store.cache.list({ prefix: store.prefix(namespace) }).items;
      if (cached.length > 0) return cached.map((o) => JSON.parse(decoder.decode(o.json)) as LimitRange);
      const hit = live.get(namespace);
      if (hit && hit.until > now()) return hit.items;
      const page = await store.listStorage(store.prefix(namespace), {});
      const items = page.items.map((kv) => decodeStored(kv.value, kv.modRevision) as LimitRange);
      // Expired entries go when the map grows, so that namespaces come and go without a leak.
      if (live.size >= 1024) for (const [ns, e] of live) if (e.until <= now()) live.delete(ns);
      live.set(namespace, { until: now() + LIVE_LOOKUP_TTL_MS, items });
      return items;
    },
  };
}
