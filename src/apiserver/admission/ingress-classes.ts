// The IngressClasses DefaultIngressClass admission reads on every Ingress create without a class:
// the watch cache of ingressclasses (as Kubernetes' plugin reads its informer). The plugin is
// about IngressClasses, so it is the one that names their store.
import type { KubeObject } from '../../api/schema/kind.js';
import { decodeCached } from '../../registry/decode-cached.js';
import type { Registry } from '../../registry/registry.js';
import type { IngressClassLister } from './default-ingress-class.js';

/** undefined while the cache has not loaded (Kubernetes' plugin is then "not yet ready"). */
export function registryIngressClasses(registry: Registry): IngressClassLister {
  return {
    ingressClasses() {
      const store = registry.store('networking.k8s.io', 'ingressclasses');
      if (!store) return [];
      if (!store.cache.ready) return undefined;
      return store.cache.list({ prefix: store.prefix('') }).items.map((o) => decodeCached(o));
    },
  };
}
