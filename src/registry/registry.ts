// The registry: one store per stored resource, all sharing one storage and one watch cache.
// Served versions of a resource (extensions/v1beta1 deployments, apps/v1 deployments) share the
// store of its storage version.
import { allKinds, apiVersionOf, findKind as findBuiltInKind, findResource as findBuiltInResource, storageVersionOf } from '../api/kinds.js';
import type { KindVersion } from '../api/schema/kind.js';
import { Cacher, type CacherOptions } from '../storage/cacher/index.js';
import type { WindowOptions } from '../storage/cacher/types.js';
import type { Storage } from '../storage/types.js';
import { resourcePrefix } from './keys.js';
import { fastPath, type FastPath } from './fast-path/index.js';
import type { KindModule } from './kind-module.js';
import type { CustomResourceServing } from './custom/index.js';
import { fieldsOf as fieldsOfModule, moduleOf as builtInModuleOf, registerModule } from './kinds/index.js';
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
  private readonly window: Partial<WindowOptions> | undefined;
  private readonly storage: Storage;
  /** Custom resources served, by CRD name. */
  private readonly custom = new Map<string, CustomResourceServing>();
  private readonly customByResource = new Map<string, KindVersion>();
  private readonly customByKind = new Map<string, KindVersion>();
  private readonly kindListeners = new Set<() => void>();
  private servedCache: readonly KindVersion[] | undefined;

  constructor(opts: RegistryOptions) {
    this.cacher = new Cacher(opts.storage, opts.cacher);
    this.fastPath = fastPath(opts.fastPath);
    this.window = opts.window;
    this.storage = opts.storage;
    const moduleOf = opts.moduleOf ?? builtInModuleOf;
    for (const kind of opts.kinds ?? allKinds) {
      if (!kind.storage) continue;
      this.addStore(kind, moduleOf(kind));
    }
  }

  private addStore(kind: KindVersion, module: KindModule): Store {
    const fieldsOf = fieldsOfModule(module);
    const writes = this.fastPath.resourceWrites(fieldsOf);
    const cache = this.cacher.register({ prefix: resourcePrefix(kind), materialize: writes.materialize, window: this.window });
    const store = new Store({
      kind,
      strategy: module.strategy,
      storage: this.storage,
      cache,
      fieldsOf,
      writes,
      allocator: module.allocator?.(cache, this.storage),
    });
    this.stores.set(`${kind.group}/${kind.resource}`, store);
    return store;
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

  /** The kind served at /api(s)/<group>/<version>/<resource>: a built-in one or a custom resource. */
  findResource(group: string, version: string, resource: string): KindVersion | undefined {
    return findBuiltInResource(group, version, resource) ?? this.customByResource.get(`${group}/${version}/${resource}`);
  }

  /** The served kind named by an apiVersion and kind. */
  findKind(apiVersion: string, kind: string): KindVersion | undefined {
    return findBuiltInKind(apiVersion, kind) ?? this.customByKind.get(`${apiVersion}/${kind}`);
  }

  /** Every kind served now: the built-in ones, then the custom resources' served versions. */
  servedKinds(): readonly KindVersion[] {
    return (this.servedCache ??= [...allKinds, ...[...this.custom.values()].flatMap((c) => c.served)]);
  }

  /** The custom resources served, by CRD name. */
  customResources(): ReadonlyMap<string, CustomResourceServing> {
    return this.custom;
  }

  /** Calls `listener` whenever the set of served kinds changes (discovery and OpenAPI rebuild). */
  onKindsChanged(listener: () => void): () => void {
    this.kindListeners.add(listener);
    return () => this.kindListeners.delete(listener);
  }

  /**
   * Serves (or serves anew) a CRD's custom resources: their store, loaded into the watch cache
   * before this resolves, and their kinds in the lookups. Replacing a CRD's serving ends the
   * watches of its previous one, as kube-apiserver does when a CRD changes.
   */
  async serveCustom(serving: CustomResourceServing): Promise<void> {
    this.unserveCustom(serving.crd, false);
    const { storage } = serving;
    const key = `${storage.group}/${storage.resource}`;
    if (this.stores.has(key)) throw new Error(`the resource ${key} is already served`);
    for (const [kv, module] of serving.modules) registerModule(kv, module);
    const store = this.addStore(storage, serving.modules.get(storage)!);
    this.custom.set(serving.crd, serving);
    for (const kv of serving.served) {
      this.customByResource.set(`${kv.group}/${kv.version}/${kv.resource}`, kv);
      this.customByKind.set(`${apiVersionOf(kv)}/${kv.kind}`, kv);
    }
    this.kindsChanged();
    await store.cache.whenLoaded();
  }

  /** Stops serving a CRD's custom resources (their objects stay in storage). */
  unserveCustom(crd: string, notify = true): void {
    const serving = this.custom.get(crd);
    if (!serving) return;
    this.custom.delete(crd);
    const { storage } = serving;
    this.stores.delete(`${storage.group}/${storage.resource}`);
    this.cacher.unregister(resourcePrefix(storage));
    for (const kv of serving.served) {
      if (this.customByResource.get(`${kv.group}/${kv.version}/${kv.resource}`) === kv) this.customByResource.delete(`${kv.group}/${kv.version}/${kv.resource}`);
      if (this.customByKind.get(`${apiVersionOf(kv)}/${kv.kind}`) === kv) this.customByKind.delete(`${apiVersionOf(kv)}/${kv.kind}`);
    }
    if (notify) this.kindsChanged();
  }

  private kindsChanged(): void {
    this.servedCache = undefined;
    for (const listener of this.kindListeners) listener();
  }
}
