// How the service account token authenticator (and TokenRequest) read the objects a token names:
// the watch cache first (every authenticated request asks, so no storage round trip when the
// object is there with the expected uid), storage when the cache does not have it or has another
// uid (it may be behind a create).
import { labelsOf, uidOf } from '../../api/meta/object.js';
import type { KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import { metaOf } from '../../registry/meta.js';
import { decodeCached } from '../../registry/decode-cached.js';
import type { Registry } from '../../registry/registry.js';

export type TokenObjectResource = 'serviceaccounts' | 'pods' | 'secrets' | 'nodes';

export interface TokenObjectGetter {
  /**
   * The object (shared: read it, do not change it), or undefined when it does not exist. `uid`:
   * the uid the caller expects (skips storage when the cache agrees).
   */
  get(resource: TokenObjectResource, namespace: string, name: string, uid?: string): Promise<KubeObject | undefined>;
}

export function registryObjectGetter(registry: Registry): TokenObjectGetter {
  return {
    async get(resource, namespace, name, uid) {
      const store = registry.store('', resource);
      if (!store) return undefined;
      const ns = resource === 'nodes' ? '' : namespace;
      const cached = store.cache.get(store.key(ns, name));
      if (cached) {
        const obj = decodeCached(cached);
        if (uid === undefined || uidOf(obj) === uid) return obj;
      }
      try {
        return await store.get(ns, name);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      }
    },
  };
}

/** Labels a legacy token's Secret with the day it was last used (Kubernetes' legacy token tracking). */
export function registryLegacyTokenMarker(registry: Registry): (namespace: string, secret: string, date: string) => Promise<void> {
  return async (namespace, secret, date) => {
    const store = registry.store('', 'secrets');
    if (!store) return;
    await store.guaranteedUpdate(namespace, secret, (current) => {
      const m = metaOf(current);
      m.labels = { ...labelsOf(current), 'kubernetes.io/legacy-token-last-used': date };
      return current;
    });
  };
}
