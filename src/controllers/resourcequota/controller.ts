// The resourcequota controller (Kubernetes' pkg/controller/resourcequota): keeps each quota's
// status — hard copied from spec.hard, used recomputed from the objects of its namespace with the
// quota evaluators ResourceQuota admission charges by (machinery/quota). A quota is synced when it
// is created or its spec.hard changes, when an object it counts is deleted or changes what it uses
// (a pod that finished, a service that changed type: Kubernetes' replenishment), and every
// --resource-quota-sync-period; --concurrent-resource-quota-syncs workers write the statuses.
// What can be counted comes from discovery, re-read every 30 s as kube-controller-manager's quota
// monitor does: `count/<resource>.<group>` works for any namespaced resource served with create,
// list, watch and delete, custom resources included, each watched by a monitor whose deletions
// replenish quotas.
import { namespaceOf } from '../../api/meta/object.js';
import { apiVersionOfResource, preferredResources, withVerbs, type APIResourceInfo } from '../../client/discovery.js';
import { DeferredDiscoveryRESTMapper } from '../../client/rest-mapper.js';
import { discoveryOf } from '../../client/static-discovery.js';
import type { ResourceQuota } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceRef, SharedInformer, Tombstone, WorkQueue } from '../../client/types.js';
import { every, sleep } from '../../client/wait.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { equal, evaluatorFor, hardOf, hasSpecificEvaluator, resourceList, resourcesCountedBy, toJson, usageOf, usedOf, mask, type ResourceList } from '../../machinery/quota/index.js';
import { durationOption } from '../common/options.js';

const QUOTAS: ResourceRef = { group: '', version: 'v1', resource: 'resourcequotas' };

/** kube-controller-manager re-reads discovery for the quota monitors every 30 s. */
export const QUOTA_DISCOVERY_RESYNC_MS = 30_000;

/** The verbs that make a resource quotable (Kubernetes' GetQuotableResources). */
const QUOTABLE_VERBS = ['create', 'list', 'watch', 'delete'];

/** The namespaced resources discovery lists with the quotable verbs, in their preferred versions. */
export function quotableResources(resources: readonly APIResourceInfo[]): APIResourceInfo[] {
  return withVerbs(resources, QUOTABLE_VERBS).filter((r) => r.namespaced);
}

/**
 * The counted kinds watched through full shared informers from the start (their usage reads the
 * objects). Every other quotable resource gets a monitor from discovery: a metadata informer for
 * those only counted, a full one for those whose evaluator reads more (PVCs).
 */
export const WATCHED: readonly ResourceRef[] = [
  { group: '', version: 'v1', resource: 'pods' },
  { group: '', version: 'v1', resource: 'services' },
  { group: '', version: 'v1', resource: 'configmaps' },
  { group: '', version: 'v1', resource: 'secrets' },
  { group: '', version: 'v1', resource: 'replicationcontrollers' },
];

export class ResourceQuotaController implements Controller {
  readonly name = 'resourcequota';
  readonly queue: WorkQueue<string>;
  private readonly quotas: Lister;
  private readonly listers = new Map<string, Lister>();
  /** Monitors started from discovery, by `resource.group`. */
  readonly monitors = new Map<string, { resource: APIResourceInfo; informer: SharedInformer }>();
  readonly mapper: DeferredDiscoveryRESTMapper;
  private readonly syncPeriodMs: number;
  private readonly discoveryResyncMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string>; discoveryResyncMs?: number } = {},
  ) {
    this.mapper = new DeferredDiscoveryRESTMapper(discoveryOf(ctx.clientset));
    this.discoveryResyncMs = opts.discoveryResyncMs ?? QUOTA_DISCOVERY_RESYNC_MS;
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'resourcequota_primary' })))();
    this.syncPeriodMs = durationOption(ctx.options, 'resourceQuotaSyncPeriod', 5 * 60_000);
    const quotas = ctx.informers.informer(QUOTAS);
    this.quotas = quotas.lister;
    quotas.addEventHandler({
      onAdd: (q) => this.queue.add(keyOf(q)),
      // Only spec.hard drives a sync: status writes (ours, admission's) do not.
      onUpdate: (old, q) => {
        if (!equal(hardOf(old as ResourceQuota), hardOf(q as ResourceQuota))) this.queue.add(keyOf(q));
      },
    });
    for (const ref of WATCHED) {
      const inf = ctx.informers.informer(ref);
      this.listers.set(ref.resource, inf.lister);
      this.replenishFrom(ref, inf, () => true);
    }
  }

  /** Replenishes quotas when an object goes or changes what it uses (while `live`). */
  private replenishFrom(ref: ResourceRef, inf: SharedInformer, live: () => boolean): void {
    const evaluator = evaluatorFor(ref.group, ref.resource);
    inf.addEventHandler({
      onUpdate: (old, cur) => {
        if (!live()) return;
        const now = this.ctx.now();
        if (!equal(evaluator.usage(old, now), evaluator.usage(cur, now))) this.replenish(ref, cur);
      },
      onDelete: (obj) => live() && this.replenish(ref, obj),
    });
  }

  /**
   * Reads discovery and starts a monitor for each quotable resource not watched yet; monitors of
   * resources no longer served stop replenishing (Kubernetes' QuotaMonitor.SyncMonitors).
   */
  async syncMonitors(): Promise<void> {
    this.mapper.invalidate();
    const doc = await this.mapper.document();
    const wanted = new Map(quotableResources(preferredResources(doc)).map((r) => [`${r.resource}.${r.group}`, r]));
    for (const [key, m] of this.monitors) {
      const now = wanted.get(key);
      if (now?.version === m.resource.version) continue;
      // gone, or served in another preferred version (a new monitor below) — unless its group version only failed to be discovered
      if (!now && doc.failed.has(apiVersionOfResource(m.resource))) continue;
      this.monitors.delete(key);
    }
    for (const [key, r] of wanted) {
      if (r.group === '' && this.listers.has(r.resource)) continue;
      const ref: ResourceRef = { group: r.group, version: r.version, resource: r.resource, namespaced: true, kind: r.kind };
      // the shared informer, which the garbage collector may have stopped and replaced (its
      // resource went and came back) since this monitor took it: follow it
      const informer = this.ctx.informers.informer(ref, { metadataOnly: !hasSpecificEvaluator(r.group, r.resource) });
      if (this.monitors.get(key)?.informer === informer) continue;
      const m = { resource: r, informer };
      this.monitors.set(key, m);
      this.replenishFrom(ref, informer, () => this.monitors.get(key) === m);
    }
  }

  private async resyncMonitors(signal: AbortSignal): Promise<void> {
    if (!(this.discoveryResyncMs > 0)) return;
    for (;;) {
      await sleep(this.discoveryResyncMs, signal);
      if (signal.aborted) return;
      await this.syncMonitors().catch((e: unknown) => this.ctx.log({ controller: this.name, msg: 'failed to discover quotable resources', err: e instanceof Error ? e.message : String(e) }));
    }
  }

  /** Enqueues the quotas of the object's namespace that limit something of its kind. */
  private replenish(ref: ResourceRef, obj: KubeObject | Tombstone): void {
    const o = objectOf(obj);
    const evaluator = evaluatorFor(ref.group, ref.resource);
    for (const q of this.quotas.list(namespaceOf(o)) as ResourceQuota[]) {
      if (evaluator.matchingResources(Object.keys(q.status?.hard ?? {})).length > 0) this.queue.add(keyOf(q));
    }
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    await this.syncMonitors().catch((e: unknown) => this.ctx.log({ controller: this.name, msg: 'failed to discover quotable resources', err: e instanceof Error ? e.message : String(e) }));
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    const resync = this.syncPeriodMs > 0 ? every(this.syncPeriodMs, signal, () => this.quotas.list().forEach((q) => this.queue.add(keyOf(q)))) : Promise.resolve();
    await Promise.all([
      runWorkers(this.queue, workers, signal, async (key) => {
        try {
          await this.sync(key);
          this.queue.forget(key);
        } catch (e) {
          this.ctx.log({ controller: this.name, msg: 'failed to sync resource quota', quota: key, err: e instanceof Error ? e.message : String(e) });
          this.queue.addRateLimited(key);
        }
      }),
      resync,
      this.resyncMonitors(signal),
    ]);
  }

  /**
   * The objects of a counted resource in a namespace: its informer's once synced, else a list in
   * the version discovery prefers (none when the resource is not served, or not namespaced).
   */
  private async objectsOf(group: string, resource: string, namespace: string): Promise<KubeObject[]> {
    const lister = group === '' ? this.listers.get(resource) : undefined;
    if (lister) return lister.list(namespace);
    const monitor = this.monitors.get(`${resource}.${group}`);
    if (monitor?.informer.hasSynced()) return monitor.informer.lister.list(namespace);
    const served = await this.mapper.resourceFor({ group, resource });
    if (!served || !served.namespaced) return [];
    try {
      return (await this.ctx.clientset.resource({ group, version: served.version, resource, namespaced: true, kind: served.kind }).list(namespace)).items;
    } catch (e) {
      if (isNotFound(e)) return [];
      throw e;
    }
  }

  /** Kubernetes' syncResourceQuota: status.hard = spec.hard, status.used recomputed; written when either changed. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const q = this.quotas.get(namespace, name) as ResourceQuota | undefined;
    if (!q) return;
    const hard = hardOf(q);
    const names = [...hard.keys()];
    // Prior observations are kept for what no evaluator computes; computed values replace them.
    let used: ResourceList = usedOf(q);
    const seen = new Set<string>();
    for (const name of names) {
      for (const { group, resource } of resourcesCountedBy(name)) {
        const id = `${resource}.${group}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const evaluator = evaluatorFor(group, resource);
        const objects = await this.objectsOf(group, resource, namespace);
        for (const [k, v] of usageOf(q, names, evaluator, objects, this.ctx.now())) used.set(k, v);
      }
    }
    used = mask(used, names);
    const dirty = !equal(hard, resourceList(q.status?.hard)) || !equal(used, usedOf(q));
    if (!dirty) return;
    try {
      await this.ctx.clientset.resource(QUOTAS).update(namespace, { ...q, status: { hard: toJson(hard), used: toJson(used) } }, { subresource: 'status' });
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
  }
}
