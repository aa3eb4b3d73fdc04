// Keeps a PolicyIndex in step with the registry's watch cache (the in-process equivalent of the
// informers kube-apiserver's RBAC authorizer reads): one watch per RBAC resource, starting with
// every current object; when the cache ends a watch (re-initialised after a storage hiccup), the
// resource is re-listed from scratch.
import type { Registry } from '../../../registry/registry.js';
import type { CacheWatch } from '../../../storage/cacher/index.js';
import type { PolicyIndex, PolicyResource } from './policy.js';

const GROUP = 'rbac.authorization.k8s.io';
const RESOURCES: readonly PolicyResource[] = ['clusterroles', 'roles', 'clusterrolebindings', 'rolebindings'];
const decoder = new TextDecoder();

export interface PolicyFeed {
  /** Resolves once every resource's current objects are in the index. */
  readonly synced: Promise<void>;
  stop(): void;
}

export function feedPolicy(registry: Registry, index: PolicyIndex): PolicyFeed {
  let stopped = false;
  const watches = new Set<CacheWatch>();
  const synced = RESOURCES.map((resource) => follow(resource));

  function follow(resource: PolicyResource): Promise<void> {
    const store = registry.store(GROUP, resource);
    if (!store) throw new Error(`no store for ${GROUP}/${resource}`);
    return new Promise<void>((resolveSynced) => {
      const run = async () => {
        while (!stopped && !registry.cacher.stopped) {
          const watch = store.cache.watch({ fromRevision: 'now', sendInitialEvents: true, allowBookmarks: true });
          watches.add(watch);
          // The snapshot is collected aside and swapped in whole: decisions never see a half-listed policy.
          let initial: Map<string, Record<string, unknown>> | undefined = new Map();
          let ended = false;
          while (!ended) {
            const batch = await watch.nextBatch(512);
            if (batch.length === 0) break;
            for (const ev of batch) {
              if (ev.type === 'ERROR') {
                ended = true;
                break;
              }
              if (ev.type === 'BOOKMARK') {
                if (ev.initialEventsEnd && initial !== undefined) {
                  index.replace(resource, initial);
                  initial = undefined;
                  resolveSynced();
                }
                continue;
              }
              const o = ev.object;
              const obj = ev.type === 'DELETED' ? undefined : (JSON.parse(decoder.decode(o.json)) as Record<string, unknown>);
              if (initial === undefined) index.apply(resource, o.namespace, o.name, obj);
              else if (obj === undefined) initial.delete(`${o.namespace}/${o.name}`);
              else initial.set(`${o.namespace}/${o.name}`, obj);
            }
          }
          watches.delete(watch);
          watch.close();
        }
      };
      void run();
    });
  }

  return {
    synced: Promise.all(synced).then(() => undefined),
    stop() {
      stopped = true;
      for (const w of watches) w.close();
    },
  };
}
