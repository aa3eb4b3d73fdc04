// The clusterrole-aggregation controller (Kubernetes' ClusterRoleAggregationController): a
// ClusterRole with an aggregationRule holds the union of the rules of the ClusterRoles its label
// selectors match (itself excluded), in the order of the matched roles' names, each rule once.
// Any ClusterRole change re-queues every aggregated ClusterRole, as Kubernetes does (roles are
// few, and a label change can move a role into or out of any selector).
import { nameOf } from '../../api/meta/object.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { semanticEqual } from '../../machinery/validation/common.js';
import { aggregatedRules, selectorsOf } from './aggregation.js';

const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };
const FIELD_MANAGER = 'clusterrole-aggregation-controller';

export class ClusterRoleAggregationController implements Controller {
  readonly name = 'clusterrole-aggregation';
  readonly queue: WorkQueue<string>;
  private readonly roles: Lister;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string> } = {},
  ) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'ClusterRoleAggregator' })))();
    const informer = ctx.informers.informer(CLUSTER_ROLES);
    this.roles = informer.lister;
    const enqueueAll = () => {
      for (const r of this.roles.list()) if (selectorsOf(r) !== undefined) this.queue.add(nameOf(r));
    };
    informer.addEventHandler({ onAdd: enqueueAll, onUpdate: enqueueAll, onDelete: enqueueAll });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runWorkers(this.queue, workers, signal, async (name) => {
      try {
        await this.sync(name);
        this.queue.forget(name);
      } catch (err) {
        this.ctx.log({ controller: this.name, msg: 'failed to aggregate cluster role', name, err: String(err) });
        this.queue.addRateLimited(name);
      }
    });
  }

  async sync(name: string): Promise<void> {
    const role = this.roles.get('', name);
    if (!role || selectorsOf(role) === undefined) return;
    const rules = aggregatedRules(role, this.roles.list());
    if (semanticEqual(rules, Array.isArray(role.rules) ? role.rules : [])) return;
    try {
      // As Kubernetes does: a forced server-side apply of the rules alone, with no resourceVersion
      // — the rules are this controller's, so a role changed since the lister saw it is no
      // conflict (with a pinned version, the burst of default roles at every start conflicted);
      // any change re-queues every aggregated role, so the latest rules are applied after it.
      const apply = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules };
      await this.ctx.clientset.resource(CLUSTER_ROLES).patch('', name, 'apply', apply, { force: true, fieldManager: FIELD_MANAGER });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  }
}

