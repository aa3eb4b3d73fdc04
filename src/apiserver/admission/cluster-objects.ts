// The cluster-scoped objects an admission plugin reads (PriorityClasses for Priority,
// RuntimeClasses for RuntimeClass), as Kubernetes' plugins read their informers' listers: the
// watch cache when it is ready, storage otherwise (before the cache's first list, or for a name
// the cache has not seen yet — kube's RuntimeClass plugin does a live lookup then too).
import type { KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import { decodeStored } from '../../registry/materialize.js';
import { decodeCached } from '../../registry/decode-cached.js';
import type { Registry } from '../../registry/registry.js';

export interface ClusterObjects<T extends object> {
  /** The object named `name`, or undefined when there is none (shared: do not change it). */
  get(name: string): Promise<T | undefined>;
  /** Every object of the resource. */
  list(): Promise<T[]>;
}

export function registryClusterObjects<T extends object>(registry: Registry, group: string, resource: string): ClusterObjects<T> {
  const objects = registryObjects<T>(registry, group, resource);
  return { get: (name) => objects.get('', name), list: () => objects.list('') };
}

/** The objects of any resource, namespaced or not (ValidatingAdmissionPolicy's params): the same reads by namespace ('' = all). */
export interface RegistryObjects<T extends object> {
  get(namespace: string, name: string): Promise<T | undefined>;
  list(namespace: string): Promise<T[]>;
}

export function registryObjects<T extends object>(registry: Registry, group: string, resource: string): RegistryObjects<T> {
  const storeOf = () => {
    const store = registry.store(group, resource);
    if (!store) throw new Error(`admission: no storage for ${resource}.${group}`);
    return store;
  };
  return {
    async get(namespace, name) {
      const store = storeOf();
      const cached = store.cache.ready ? store.cache.get(store.key(namespace, name)) : undefined;
      if (cached) return decodeCached(cached) as T;
      try {
        return (await store.get(namespace, name)) as T;
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      }
    },
    async list(namespace) {
      const store = storeOf();
      const prefix = store.prefix(namespace);
      if (store.cache.ready) return store.cache.list({ prefix }).items.map((o) => decodeCached(o) as T);
      const items: T[] = [];
      let at: { revision: number; startAfter: string } | undefined;
      for (;;) {
        const page = await store.listStorage(prefix, at ?? {});
        for (const kv of page.items) items.push(decodeStored(kv.value, kv.modRevision) as T);
        if (!page.more || page.items.length === 0) return items;
        at = { revision: page.revision, startAfter: page.items[page.items.length - 1]!.key };
      }
    },
  };
}
