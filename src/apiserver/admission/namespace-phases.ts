// The namespace phases NamespaceLifecycle admission asks for on every write in a namespace: read
// from the watch cache of namespaces (as Kubernetes' plugin reads its namespace informer), and
// confirmed in storage when the cache has not seen the namespace yet. The plugin is about
// namespaces, so it is the one that names their store.
import { isBeingDeleted } from '../../api/meta/object.js';
import type { KubeObject } from '../../api/schema/kind.js';
import type { Registry } from '../../registry/registry.js';
import type { CachedObject } from '../../storage/cacher/index.js';
import type { NamespacePhases } from './namespace-lifecycle.js';

const decoder = new TextDecoder();
/** Every create in a namespace asks: each version of the namespace is decoded once. */
const cachedPhases = new WeakMap<CachedObject, string>();

function phaseOf(ns: KubeObject): string {
  if (isBeingDeleted(ns)) return 'Terminating';
  const status = ns.status;
  const phase = typeof status === 'object' && status !== null ? (status as { phase?: unknown }).phase : undefined;
  return typeof phase === 'string' && phase !== '' ? phase : 'Active';
}

/** The phases of the registry's namespaces (every namespace is Active when none are stored). */
export function registryNamespacePhases(registry: Registry): NamespacePhases {
  return {
    async namespacePhase(namespace) {
      const store = registry.store('', 'namespaces');
      if (!store) return 'Active';
      const cached = store.cache.get(store.key('', namespace));
      if (cached) {
        let phase = cachedPhases.get(cached);
        if (phase === undefined) cachedPhases.set(cached, (phase = phaseOf(JSON.parse(decoder.decode(cached.json)) as KubeObject)));
        return phase;
      }
      try {
        return phaseOf(await store.get('', namespace));
      } catch {
        return undefined;
      }
    },
  };
}
