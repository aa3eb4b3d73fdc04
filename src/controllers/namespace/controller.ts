// The namespace controller (Kubernetes' NamespaceController): a Terminating namespace is queued
// (after a 5 s grace, so late creations are seen), emptied and finalized by the deleter;
// remaining content brings it back after half the estimate, errors after a rate-limited back-off.
// `--concurrent-namespace-syncs` workers; `--namespace-sync-period` re-queues every terminating
// namespace (the informer resync of Kubernetes).
import { objectOf } from '../../client/cache.js';
import type { Controller, ControllerContext, KubeObject, Lister, Tombstone, WorkQueue } from '../../client/types.js';
import { isBeingDeleted } from '../../api/meta/object.js';
import { keyOf } from '../../client/cache.js';
import { durationOption } from '../common/options.js';
import { every } from '../../client/wait.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { NamespacedResourcesDeleter, ResourcesRemainingError, type Discovery } from './deleter.js';

/** Kubernetes' namespaceDeletionGracePeriod. */
export const NAMESPACE_DELETION_GRACE_MS = 5000;

export interface NamespaceControllerOptions {
  newQueue?: () => WorkQueue<string>;
  /** Delay before a terminating namespace is processed (default 5 s). */
  deletionGraceMs?: number;
  discover?: Discovery;
}

export class NamespaceController implements Controller {
  readonly name = 'namespace';
  readonly queue: WorkQueue<string>;
  readonly deleter: NamespacedResourcesDeleter;
  private readonly graceMs: number;
  private readonly syncPeriodMs: number;
  private readonly lister: Lister;

  constructor(
    private readonly ctx: ControllerContext,
    opts: NamespaceControllerOptions = {},
  ) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'namespace' })))();
    this.graceMs = opts.deletionGraceMs ?? NAMESPACE_DELETION_GRACE_MS;
    this.syncPeriodMs = durationOption(ctx.options, 'namespaceSyncPeriod', 5 * 60_000);
    this.deleter = new NamespacedResourcesDeleter(ctx.clientset, () => ctx.now(), opts.discover);
    const inf = ctx.informers.informer({ group: '', version: 'v1', resource: 'namespaces' });
    this.lister = inf.lister;
    inf.addEventHandler({
      onAdd: (o) => this.enqueue(o),
      onUpdate: (_old, o) => this.enqueue(o),
    });
  }

  private enqueue(obj: KubeObject | Tombstone): void {
    const o = objectOf(obj);
    if (!isBeingDeleted(o)) return;
    this.queue.addAfter(keyOf(o), this.graceMs);
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    const resync = this.syncPeriodMs > 0 ? every(this.syncPeriodMs, signal, () => this.lister.list().forEach((ns) => this.enqueue(ns))) : Promise.resolve();
    await Promise.all([runWorkers(this.queue, workers, signal, (key) => this.sync(key)), resync]);
  }

  /** One queue item: empty and finalize the namespace, then forget it or schedule the next look. */
  async sync(key: string): Promise<void> {
    try {
      if (this.lister.get('', key)) await this.deleter.delete(key);
      this.queue.forget(key);
    } catch (e) {
      if (e instanceof ResourcesRemainingError) {
        const waitSeconds = Math.floor(e.estimate / 2) + 1;
        this.ctx.log({ controller: this.name, msg: 'content remaining in namespace', namespace: key, waitSeconds });
        this.queue.addAfter(key, waitSeconds * 1000);
      } else {
        this.ctx.log({ controller: this.name, msg: 'deletion of namespace failed', namespace: key, err: e instanceof Error ? e.message : String(e) });
        this.queue.addRateLimited(key);
      }
    }
  }
}

