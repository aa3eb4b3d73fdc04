// Follows one resource of the registry's watch cache from inside the API server (the in-process
// equivalent of the informers kube-apiserver's RBAC and Node authorizers read): a watch that starts
// with every current object, then every change; when the cache ends a watch (re-initialised after
// a storage hiccup), the resource is listed again from scratch. The follower is told when a listing
// begins and when its initial objects are all in, so it can build a snapshot aside and swap it in
// whole: decisions never see a half-listed resource.
import type { Registry } from '../../registry/registry.js';
import type { CacheWatch } from '../../storage/cacher/index.js';
import type { CachedObject, ObjectEventType } from '../../storage/cacher/types.js';

export interface CacheFollower {
  /** A listing begins: the events up to `synced` are the resource's current objects. */
  begin(): void;
  event(type: ObjectEventType, object: CachedObject): void;
  /** The listing's initial objects are all in. */
  synced(): void;
}

export interface CacheFollow {
  /** Resolves once the first listing is in. */
  readonly synced: Promise<void>;
  stop(): void;
}

export function followCache(registry: Registry, group: string, resource: string, follower: CacheFollower): CacheFollow {
  const store = registry.store(group, resource);
  if (!store) throw new Error(`no store for ${group}/${resource}`);
  let stopped = false;
  let watch: CacheWatch | undefined;
  const synced = new Promise<void>((resolveSynced) => {
    const run = async () => {
      while (!stopped && !registry.cacher.stopped) {
        watch = store.cache.watch({ fromRevision: 'now', sendInitialEvents: true, allowBookmarks: true });
        follower.begin();
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
              if (ev.initialEventsEnd) {
                follower.synced();
                resolveSynced();
              }
              continue;
            }
            follower.event(ev.type, ev.object);
          }
        }
        watch.close();
        watch = undefined;
      }
    };
    void run();
  });
  return {
    synced,
    stop() {
      stopped = true;
      watch?.close();
    },
  };
}
