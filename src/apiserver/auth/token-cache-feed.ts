// Keeps the service account token cache honest: follows the watch cache of the objects a token is
// validated against (service accounts, secrets, pods, nodes) and drops the remembered outcomes
// that read one when it is deleted — or, for a Secret, changed, since a legacy token is valid only
// while its Secret holds it unlabelled. A re-listing (the watch cache started over) may have
// missed deletions: then everything is forgotten.
import type { Registry } from '../../registry/registry.js';
import { followCache, type CacheFollow } from './follow-cache.js';
import type { TokenObjectResource } from './serviceaccount-token-lookup.js';
import { dependencyKey, type TokenCache } from './token-cache.js';

const RESOURCES: readonly TokenObjectResource[] = ['serviceaccounts', 'secrets', 'pods', 'nodes'];

export function feedTokenCache(registry: Registry, cache: TokenCache<unknown>): CacheFollow {
  const follows = RESOURCES.filter((resource) => registry.store('', resource) !== undefined).map((resource) => {
    let listedOnce = false;
    return followCache(registry, '', resource, {
      begin() {
        if (listedOnce) cache.clear();
        listedOnce = true;
      },
      event(type, o) {
        if (type === 'DELETED' || (type === 'MODIFIED' && resource === 'secrets')) cache.invalidate(dependencyKey(resource, o.namespace, o.name));
      },
      synced() {},
    });
  });
  return {
    synced: Promise.all(follows.map((f) => f.synced)).then(() => undefined),
    stop() {
      for (const f of follows) f.stop();
    },
  };
}
