// The objects of one core resource in a namespace, as admission plugins read them (Kubernetes'
// LimitRanger and ResourceQuota listers with their live lookup): the watch cache's, and storage's
// when the cache holds none for the namespace — so an object just created applies at once. What
// storage answered is kept 30 s (Kubernetes' liveLookupCache), so that writes in a namespace
// without any do not each read storage.
import type { KubeObject } from '../../api/schema/kind.js';
import { decodeStored } from '../../registry/materialize.js';
import type { Registry } from '../../registry/registry.js';

const decoder = new TextDecoder();
const LIVE_LOOKUP_TTL_MS = 30_000;

export function namespaceObjects<T extends KubeObject>(registry: Registry, resource: string, now: () => number = Date.now): (namespace: string) => Promise<T[]> {
  const live = new Map<string, { until: number; items: T[] }>();
  return async (namespace) => {
    const store = registry.store('', resource);
    if (!store) return [];
    const cached = store.cache.list({ prefix: store.prefix(namespace) }).items;
    if (cached.length > 0) return cached.map((o) => JSON.parse(decoder.decode(o.json)) as T);
    const hit = live.get(namespace);
    if (hit && hit.until > now()) return hit.items.map((o) => structuredClone(o));
    const page = await store.listStorage(store.prefix(namespace), {});
    const items = page.items.map((kv) => decodeStored(kv.value, kv.modRevision) as T);
    // Expired entries go when the map grows, so that namespaces come and go without a leak.
    if (live.size >= 1024) for (const [ns, e] of live) if (e.until <= now()) live.delete(ns);
    live.set(namespace, { until: now() + LIVE_LOOKUP_TTL_MS, items });
    return items.map((o) => structuredClone(o));
  };
}
