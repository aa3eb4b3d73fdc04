// The LimitRanges LimitRanger admission reads: the watch cache's, and storage's when the cache
// holds none for the namespace (Kubernetes' live lookup, so a range just created applies at once).
import type { LimitRange } from '../../api/types.js';
import { decodeStored } from '../../registry/materialize.js';
import type { Registry } from '../../registry/registry.js';
import type { LimitRangeLister } from './limit-ranger.js';

const decoder = new TextDecoder();

export function registryLimitRanges(registry: Registry): LimitRangeLister {
  return {
    async list(namespace) {
      const store = registry.store('', 'limitranges');
      if (!store) return [];
      const cached = store.cache.list({ prefix: store.prefix(namespace) }).items;
      if (cached.length > 0) return cached.map((o) => JSON.parse(decoder.decode(o.json)) as LimitRange);
      const page = await store.listStorage(store.prefix(namespace), {});
      return page.items.map((kv) => decodeStored(kv.value, kv.modRevision) as LimitRange);
    },
  };
}
