// The registry: one store per stored resource, all sharing one storage and one watch cache.
// Served versions of a resource (extensions/v1beta1 deployments, apps/v1 deployments) share the
// store of its storage version.
import { allKinds, storageVersionOf } from '../api/kinds.js';
import type { KindVersion } from '../api/schema/kind.js';
import { Cacher, type CacherOptions } from '../storage/cacher/index.js';
import type { WindowOptions } from '../storage/cacher/types.js';
import type { Storage } from '../storage/types.js';
import { resourcePrefix } from './keys.js';
import { fastPath, type FastPath } from './fast-path/index.js';
import type { KindModule } from './kind-module.js';
import { fieldsOf as fieldsOfModule, moduleOf as builtInModuleOf } from './kinds/index.js';
import { Store } from './store.js';

export interface RegistryOptions {
  storage: Storage;
  /** The module of each stored kind (default: the built-in modules, see kinds/index.ts). */
  moduleOf?: (kind: KindVersion) => KindModule;
  cacher?: CacherOptions;
  /** The watch cache's window of recent events per resource (watches may start that far back). */
  window?: Partial<WindowOptions>;
  kinds?: readonly KindVersion[];
  /** Whether writes, create bodies and served bytes take the fast path (default: unless KUBELITE_FAST_PATH=off). */
  fastPath?: boolean;
}

export class Registry {
  readonly cacher: Cacher;
  /** The fast path (fast-path/index.ts), or the plain path when it is off. */
  readonly fastPath: FastPath;
  private readonly stores = new Map<string, Store>();

  constructor(opts: RegistryOptions) {
    this.cacher = new Cacher(opts.storage, opts.cacher);
    this.fastPath = fastPath(opts.fastPath);
    const moduleOf = opts.moduleOf ?? builtInModuleOf;
    for (const kind of opts.kinds ?? allKinds) {
      if (!kind.storage) continue;
      const module = moduleOf(kind);
      const fieldsOf = fieldsOfModule(module);
      const writes = this.fastPath.resourceWrites(fieldsOf);
      const cache = this.cacher.register({ prefix: resourcePrefix(kind), materialize: writes.materialize, window: opts.window });
      this.stores.set(`${kind.group}/${kind.resource}`, new Store({
        kind,
        strategy: module.strategy,
        storage: opts.storage,
        cache,
        fieldsOf,
        writes,
        allocate: module.allocator?.(cache),
      }));
    }
  }

  start(): Promise<void> {
    this.cacher.start();
    return this.cacher.ready;
  }

  stop(): Promise<void> {
    return this.cacher.stop();
  }

  /** The store behind a served kind (any version). */
  storeFor(kind: KindVersion): Store {
    const hub = storageVersionOf(kind);
    const store = this.stores.get(`${hub.group}/${hub.resource}`);
    if (!store) throw new Error(`no store for ${hub.group}/${hub.resource}`);
    return store;
  }

  store(group: string, resource: string): Store | undefined {
    return this.stores.get(`${group}/${resource}`);
  }
}
