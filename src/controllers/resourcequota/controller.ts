// The resourcequota controller (Kubernetes' pkg/controller/resourcequota): keeps each quota's
// status — hard copied from spec.hard, used recomputed from the objects of its namespace with the
// quota evaluators ResourceQuota admission charges by (machinery/quota). A quota is synced when it
// is created or its spec.hard changes, when an object it counts is deleted or changes what it uses
// (a pod that finished, a service that changed type: Kubernetes' replenishment), and every
// --resource-quota-sync-period; --concurrent-resource-quota-syncs workers write the statuses.
import { allKinds } from '../../api/kinds.js';
import { namespaceOf } from '../../api/meta/object.js';
import type { ResourceQuota } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceRef, Tombstone, WorkQueue } from '../../client/types.js';
import { every } from '../../client/wait.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { equal, evaluatorFor, hardOf, resourceList, resourcesCountedBy, toJson, usageOf, usedOf, mask, type ResourceList } from '../../machinery/quota/index.js';
import { durationOption } from '../common/options.js';

const QUOTAS: ResourceRef = { group: '', version: 'v1', resource: 'resourcequotas' };

/**
 * The counted kinds watched through shared informers (whose deletions replenish quotas at once);
 * the objects of any other counted resource (`count/deployments.apps`, PVCs) are listed when a
 * quota naming them syncs.
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
  private readonly syncPeriodMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string> } = {},
  ) {
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
      const evaluator = evaluatorFor(ref.group, ref.resource);
      inf.addEventHandler({
        onUpdate: (old, cur) => {
          const now = ctx.now();
          if (!equal(evaluator.usage(old, now), evaluator.usage(cur, now))) this.replenish(ref, cur);
        },
        onDelete: (obj) => this.replenish(ref, obj),
      });
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
    ]);
  }

  /** The objects of a counted resource in a namespace: the informer's, else a list (none when the resource is not served). */
  private async objectsOf(group: string, resource: string, namespace: string): Promise<KubeObject[]> {
    const lister = group === '' ? this.listers.get(resource) : undefined;
    if (lister) return lister.list(namespace);
    // Listed in the version the kind is stored in; a resource this server does not serve counts nothing.
    const stored = allKinds.find((k) => k.storage && k.group === group && k.resource === resource);
    if (!stored || !stored.namespaced) return [];
    try {
      return (await this.ctx.clientset.resource({ group, version: stored.version, resource }).list(namespace)).items;
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
