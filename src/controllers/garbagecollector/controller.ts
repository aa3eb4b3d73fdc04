// The garbage collector controller: metadata-only informers over every served resource (storage
// versions; events are ignored, as Kubernetes' default ignored resources), the dependency graph
// they feed, and `--concurrent-gc-syncs` workers for each of the attemptToDelete and
// attemptToOrphan queues. `--enable-garbage-collector=false` turns it into a no-op.
import { allKinds, apiVersionOf } from '../../api/kinds.js';
import type { KindVersion } from '../../api/schema/kind.js';
import { objectOf } from '../../client/cache.js';
import type { Controller, ControllerContext, EventRecorder, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { boolOption } from '../common/options.js';
import { Collector, enqueuedVirtualDelete, namespacedOwnerOfClusterScoped, RestMappingError } from './collector.js';
import { GraphBuilder } from './graph.js';

/** Resources the collector never watches (Kubernetes' DefaultIgnoredResources). */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

/** The resources whose objects form the graph: one storage version per resource. */
export function gcResources(): KindVersion[] {
  return allKinds.filter((k) => k.storage && !IGNORED.has(`${k.group}/${k.resource}`));
}

export interface GarbageCollectorOptions {
  /** The work queues (default: a rate-limited de-duplicating queue per name). */
  newQueue?: (name: string) => WorkQueue<string>;
}

export class GarbageCollectorController implements Controller {
  readonly name = 'garbagecollector';
  readonly enabled: boolean;
  readonly graph: GraphBuilder;
  readonly collector: Collector;
  readonly attemptToDelete: WorkQueue<string>;
  readonly attemptToOrphan: WorkQueue<string>;
  private readonly recorder: EventRecorder;

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
    this.collector = new Collector(ctx.clientset, this.graph, (uid) => this.attemptToDelete.add(uid), (f) => ctx.log({ controller: this.name, ...f }));
    if (!this.enabled) return;
    for (const kv of gcResources()) {
      const apiVersion = apiVersionOf(kv);
      const inf = ctx.informers.informer({ group: kv.group, version: kv.version, resource: kv.resource }, { metadataOnly: true });
      inf.addEventHandler({
        onAdd: (obj) => this.graph.observe('add', apiVersion, kv.kind, obj),
        onUpdate: (oldObj, obj) => this.graph.observe('update', apiVersion, kv.kind, obj, oldObj),
        onDelete: (obj) => this.graph.observe('delete', apiVersion, kv.kind, objectOf(obj)),
      });
    }
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!this.enabled) {
      this.ctx.log({ controller: this.name, msg: 'garbage collector disabled (--enable-garbage-collector=false)' });
      this.attemptToDelete.shutDown();
      this.attemptToOrphan.shutDown();
      return;
    }
    const synced = await this.ctx.informers.waitForCacheSync(signal);
    if (!synced || signal.aborted) {
      this.attemptToDelete.shutDown();
      this.attemptToOrphan.shutDown();
      return;
    }
    await Promise.all([
      runWorkers(this.attemptToDelete, workers, signal, (uid) => this.processDelete(uid)),
      runWorkers(this.attemptToOrphan, workers, signal, (uid) => this.processOrphan(uid)),
    ]);
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

