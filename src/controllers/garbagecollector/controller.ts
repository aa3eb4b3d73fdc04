// The garbage collector controller: informers ("monitors") over every resource discovery lists
// with the verbs delete, list and watch in its preferred version (custom resources included; events
// are ignored, as Kubernetes' default ignored resources) — the shared typed informer of a kind
// compiled in, a metadata-only one for the others, as kube-controller-manager's
// ObjectOrMetadataInformerFactory chooses — the dependency graph
// they feed, and `--concurrent-gc-syncs` workers for each of the attemptToDelete and
// attemptToOrphan queues. Every 30 s discovery is read again, as kube-controller-manager does:
// monitors start for new resources and stop for those gone, and the RESTMapper that resolves
// owner references is reset. `--enable-garbage-collector=false` turns it into a no-op.
import { findResource } from '../../api/kinds.js';
import { objectOf } from '../../client/cache.js';
import { apiVersionOfResource, discoveryError, preferredResources, withVerbs, type APIResourceInfo } from '../../client/discovery.js';
import { DeferredDiscoveryRESTMapper } from '../../client/rest-mapper.js';
import { discoveryOf } from '../../client/static-discovery.js';
import type { Controller, ControllerContext, EventRecorder, ResourceRef, WorkQueue } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { boolOption } from '../common/options.js';
import { Collector, enqueuedVirtualDelete, namespacedOwnerOfClusterScoped, RestMappingError } from './collector.js';
import { GraphBuilder } from './graph.js';

/**
 * Resources the collector never watches: Kubernetes' DefaultIgnoredResources, and extensions/v1beta1's
 * workloads. Kubernetes 1.33 serves no extensions group, so its collector sees Deployments,
 * ReplicaSets and DaemonSets through apps only; kubelite serves them there too for old clients, but
 * they are the apps objects again (one storage). Watched twice, each object reached the graph under
 * two identities, and when the extensions one came first every pod of a ReplicaSet looked like a
 * reference to verify: two GETs per pod (the pod and its owner).
 */
const IGNORED = new Set(['/events', 'events.k8s.io/events', 'extensions/deployments', 'extensions/replicasets', 'extensions/daemonsets']);

/** kube-controller-manager re-reads discovery for the garbage collector every 30 s. */
export const DISCOVERY_RESYNC_MS = 30_000;

/** The verbs a resource needs for the collector to watch and delete its objects (Kubernetes' GetDeletableResources). */
const DELETABLE_VERBS = ['delete', 'list', 'watch'];

/** The resources whose objects form the graph, from a discovery read: the preferred version of each, minus the ignored. */
export function deletableResources(resources: readonly APIResourceInfo[]): APIResourceInfo[] {
  return withVerbs(resources, DELETABLE_VERBS).filter((r) => !IGNORED.has(`${r.group}/${r.resource}`));
}

export interface GarbageCollectorOptions {
  /** The work queues (default: a rate-limited de-duplicating queue per name). */
  newQueue?: (name: string) => WorkQueue<string>;
  /** How often discovery is read again (default 30 s; ≤ 0: never). */
  discoveryResyncMs?: number;
}

/** One watched resource. */
interface Monitor {
  ref: ResourceRef;
  resource: APIResourceInfo;
  /** Watched as metadata only (a kind not compiled in); else the shared typed informer. */
  metadataOnly: boolean;
}

/**
 * Kubernetes' ObjectOrMetadataInformerFactory: the typed informer for a resource the typed factory
 * knows (every kind compiled in), which other controllers share — the pods, ReplicaSets and
 * Deployments the workload controllers watch reach the process once instead of twice (three pod
 * events each, a tenth of the controller manager's watch decoding) — and metadata only for the rest.
 */
function watchedAsMetadata(r: APIResourceInfo): boolean {
  return findResource(r.group, r.version, r.resource) === undefined;
}

function monitorKey(r: { group: string; version: string; resource: string }): string {
  return `${r.group}/${r.version}/${r.resource}`;
}

export class GarbageCollectorController implements Controller {
  readonly name = 'garbagecollector';
  readonly enabled: boolean;
  readonly graph: GraphBuilder;
  readonly collector: Collector;
  readonly attemptToDelete: WorkQueue<string>;
  readonly attemptToOrphan: WorkQueue<string>;
  readonly mapper: DeferredDiscoveryRESTMapper;
  /** The monitors running, by group/version/resource. */
  readonly monitors = new Map<string, Monitor>();
  private readonly recorder: EventRecorder;
  private readonly discoveryResyncMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    opts: GarbageCollectorOptions = {},
  ) {
    this.enabled = boolOption(ctx.options, 'enableGarbageCollector', true);
    this.recorder = ctx.recorder('garbage-collector-controller');
    const newQueue = opts.newQueue ?? ((name: string) => newRateLimitingQueue<string>({ name }));
    this.attemptToDelete = newQueue('garbage_collector_attempt_to_delete');
    this.attemptToOrphan = newQueue('garbage_collector_attempt_to_orphan');
    this.graph = new GraphBuilder({
      attemptToDelete: (uid, rateLimited) => (rateLimited ? this.attemptToDelete.addRateLimited(uid) : this.attemptToDelete.add(uid)),
      attemptToOrphan: (uid) => this.attemptToOrphan.add(uid),
      invalidNamespaceOwnerRef: (dep, owner) => {
        const obj = { apiVersion: dep.apiVersion, kind: dep.kind, metadata: { name: dep.name, namespace: dep.namespace, uid: dep.uid } };
        const invalid = `[${owner.apiVersion}/${owner.kind}, namespace: ${dep.namespace}, name: ${owner.name}, uid: ${owner.uid}]`;
        this.recorder.event(obj, 'Warning', 'OwnerRefInvalidNamespace', `ownerRef ${invalid} does not exist in namespace "${dep.namespace}"`);
      },
    });
    this.mapper = new DeferredDiscoveryRESTMapper(discoveryOf(ctx.clientset));
    this.discoveryResyncMs = opts.discoveryResyncMs ?? DISCOVERY_RESYNC_MS;
    this.collector = new Collector(ctx.clientset, this.mapper, this.graph, (uid) => this.attemptToDelete.add(uid), (f) => ctx.log({ controller: this.name, ...f }));
  }

  /**
   * Reads discovery and brings the monitors in line with it (Kubernetes' resyncMonitors): new
   * deletable resources get a monitor, resources no longer listed lose theirs — except those of
   * group versions whose discovery failed this time, which keep running. Returns whether anything changed.
   */
  async syncMonitors(): Promise<boolean> {
    this.mapper.invalidate();
    const doc = await this.mapper.document();
    const err = discoveryError(doc);
    if (err) this.ctx.log({ controller: this.name, msg: 'failed to discover some groups', err: err.message });
    const wanted = new Map(deletableResources(preferredResources(doc)).map((r) => [monitorKey(r), r]));
    let changed = false;
    for (const [key, m] of this.monitors) {
      if (wanted.has(key) || doc.failed.has(apiVersionOfResource(m.resource))) continue;
      this.monitors.delete(key);
      // A typed informer is shared with other controllers: it goes on, unheeded (`live` below).
      if (m.metadataOnly) this.ctx.informers.remove?.(m.ref, { metadataOnly: true });
      this.ctx.log({ controller: this.name, msg: 'stopped monitor', resource: key });
      changed = true;
    }
    for (const [key, r] of wanted) {
      if (this.monitors.has(key)) continue;
      this.startMonitor(key, r);
      changed = true;
    }
    return changed;
  }

  private startMonitor(key: string, r: APIResourceInfo): void {
    const ref: ResourceRef = { group: r.group, version: r.version, resource: r.resource, namespaced: r.namespaced, kind: r.kind };
    const m: Monitor = { ref, resource: r, metadataOnly: watchedAsMetadata(r) };
    this.monitors.set(key, m);
    const apiVersion = apiVersionOfResource(r);
    // a stopped monitor's informer may still deliver what it had queued: ignore it
    const live = () => this.monitors.get(key) === m;
    this.ctx.informers.informer(ref, m.metadataOnly ? { metadataOnly: true } : {}).addEventHandler({
      onAdd: (obj) => live() && this.graph.observe('add', apiVersion, r.kind, obj),
      onUpdate: (oldObj, obj) => live() && this.graph.observe('update', apiVersion, r.kind, obj, oldObj),
      onDelete: (obj) => live() && this.graph.observe('delete', apiVersion, r.kind, objectOf(obj)),
    });
  }

  /**
   * One discovery resync (Kubernetes' GarbageCollector.Sync body); failures are logged and retried
   * at the next. The workers go on meanwhile: an object seen only as some owner's reference until
   * its new monitor lists it is requeued (processDelete's `observed` check).
   */
  private async resync(): Promise<void> {
    try {
      await this.syncMonitors();
    } catch (e) {
      this.ctx.log({ controller: this.name, msg: 'failed to discover deletable resources', err: e instanceof Error ? e.message : String(e) });
    }
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!this.enabled) {
      this.ctx.log({ controller: this.name, msg: 'garbage collector disabled (--enable-garbage-collector=false)' });
      this.attemptToDelete.shutDown();
      this.attemptToOrphan.shutDown();
      return;
    }
    await this.resync();
    const synced = await this.ctx.informers.waitForCacheSync(signal);
    if (!synced || signal.aborted) {
      this.attemptToDelete.shutDown();
      this.attemptToOrphan.shutDown();
      return;
    }
    await Promise.all([
      runWorkers(this.attemptToDelete, workers, signal, (uid) => this.processDelete(uid)),
      runWorkers(this.attemptToOrphan, workers, signal, (uid) => this.processOrphan(uid)),
      this.resyncLoop(signal),
    ]);
  }

  private async resyncLoop(signal: AbortSignal): Promise<void> {
    if (!(this.discoveryResyncMs > 0)) return;
    for (;;) {
      await sleep(this.discoveryResyncMs, signal);
      if (signal.aborted) return;
      await this.resync();
    }
  }

  /** One attemptToDelete item (Kubernetes' attemptToDeleteWorker). */
  async processDelete(uid: string): Promise<void> {
    const node = this.graph.uidToNode.get(uid);
    if (!node) {
      this.attemptToDelete.forget(uid);
      return;
    }
    try {
      await this.collector.attemptToDeleteItem(node);
    } catch (e) {
      if (e === enqueuedVirtualDelete || e === namespacedOwnerOfClusterScoped) {
        this.attemptToDelete.forget(uid);
        return;
      }
      if (!(e instanceof RestMappingError)) this.ctx.log({ controller: this.name, msg: 'error syncing item', item: node.identity, err: String(e) });
      this.attemptToDelete.addRateLimited(uid);
      return;
    }
    if (!node.observed) {
      // not seen through an informer yet: look again later (Kubernetes issue 56121)
      this.attemptToDelete.addRateLimited(uid);
      return;
    }
    this.attemptToDelete.forget(uid);
  }

  /** One attemptToOrphan item. */
  async processOrphan(uid: string): Promise<void> {
    const owner = this.graph.uidToNode.get(uid);
    if (!owner) {
      this.attemptToOrphan.forget(uid);
      return;
    }
    try {
      await this.collector.orphan(owner);
    } catch (e) {
      this.ctx.log({ controller: this.name, msg: 'orphaning dependents failed', owner: owner.identity, err: String(e) });
      this.attemptToOrphan.addRateLimited(uid);
      return;
    }
    this.attemptToOrphan.forget(uid);
  }
}

