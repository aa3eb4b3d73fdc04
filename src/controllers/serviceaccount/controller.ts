// The serviceaccount controller (Kubernetes' ServiceAccountsController): every namespace that is
// not being deleted has a ServiceAccount named `default`; a deleted one is recreated.
import { isBeingDeleted, nameOf, namespaceOf } from '../../api/meta/object.js';
import { objectOf } from '../../client/cache.js';
import { isAlreadyExists, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';

export const DEFAULT_SERVICE_ACCOUNTS = ['default'];
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const SERVICE_ACCOUNTS = { group: '', version: 'v1', resource: 'serviceaccounts' };

export class ServiceAccountsController implements Controller {
  readonly name = 'serviceaccount';
  readonly queue: WorkQueue<string>;
  private readonly namespaces: Lister;
  private readonly serviceAccounts: Lister;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string> } = {},
  ) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'serviceaccount' })))();
    const ns = ctx.informers.informer(NAMESPACES);
    const sa = ctx.informers.informer(SERVICE_ACCOUNTS);
    this.namespaces = ns.lister;
    this.serviceAccounts = sa.lister;
    const enqueueNamespace = (o: KubeObject) => this.queue.add(nameOf(o));
    ns.addEventHandler({ onAdd: enqueueNamespace, onUpdate: (_old, n) => enqueueNamespace(n) });
    // A deleted default service account is recreated.
    sa.addEventHandler({ onDelete: (o) => this.queue.add(namespaceOf(objectOf(o))) });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runWorkers(this.queue, workers, signal, async (namespace) => {
      try {
        await this.sync(namespace);
        this.queue.forget(namespace);
      } catch (err) {
        this.ctx.log({ controller: this.name, msg: 'failed to ensure service accounts', namespace, err: String(err) });
        this.queue.addRateLimited(namespace);
      }
    });
  }

  async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.get('', namespace);
    if (!ns || isBeingDeleted(ns)) return;
    for (const name of DEFAULT_SERVICE_ACCOUNTS) {
      if (this.serviceAccounts.get(namespace, name)) continue;
      try {
        await this.ctx.clientset.resource(SERVICE_ACCOUNTS).create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
      } catch (err) {
        // Already there (the cache was behind), or the namespace went meanwhile: nothing to do.
        if (isAlreadyExists(err) || isNotFound(err)) continue;
        if ((err as { code?: number }).code === 403) continue; // namespace terminating
        throw err;
      }
    }
  }
}

