// The StorageClasses DefaultStorageClass admission chooses from: the watch cache of
// storage.k8s.io storageclasses (Kubernetes' plugin reads its informer). The plugin is about
// storage classes, so it is the one that names their store.
import type { KubeObject } from '../../api/schema/kind.js';
import type { Registry } from '../../registry/registry.js';
import type { CachedObject } from '../../storage/cacher/index.js';
import type { StorageClassLister } from './default-storage-class.js';

const decoder = new TextDecoder();
/** Each cached version of a class is decoded once, however many claims are created. */
const decoded = new WeakMap<CachedObject, KubeObject>();

export function registryStorageClasses(registry: Registry): StorageClassLister {
  return {
    async list() {
      const store = registry.store('storage.k8s.io', 'storageclasses');
      if (!store) return [];
      return store.cache.list({ prefix: store.prefix('') }).items.map((cached) => {
        let obj = decoded.get(cached);
        if (!obj) decoded.set(cached, (obj = JSON.parse(decoder.decode(cached.json)) as KubeObject));
        return obj;
      });
    },
  };
}
