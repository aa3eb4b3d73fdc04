// The route controller (kube-controller-manager's `route`): every --route-reconciliation-period,
// each Node with a pod CIDR has a route in the cloud (and loses it when the Node goes), and its
// NetworkUnavailable condition says False, RouteCreated, once it has. It runs only when node CIDRs
// are allocated and routes configured (--allocate-node-cidrs, --configure-cloud-routes).
import { nameOf } from '../../api/meta/object.js';
import type { Node } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister, ResourceClient } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { rfc3339 } from '../common/time.js';
import type { KubeliteCloud } from './provider.js';

const NODES = { group: '', version: 'v1', resource: 'nodes' };

export class RouteController implements Controller {
  readonly name = 'route';
  private readonly lister: Lister;
  private readonly client: ResourceClient;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly cloud: KubeliteCloud,
  ) {
    this.lister = ctx.informers.informer(NODES).lister;
    this.client = ctx.clientset.resource(NODES);
  }

  async run(_workers: number, signal: AbortSignal): Promise<void> {
    const period = typeof this.ctx.options.routeReconciliationPeriod === 'number' ? this.ctx.options.routeReconciliationPeriod : 10_000;
    while (!signal.aborted) {
      await this.reconcile().catch((err: unknown) => this.ctx.log({ controller: this.name, msg: 'reconcile failed', err: (err as Error).message }));
      await sleep(period, signal);
    }
  }

  async reconcile(): Promise<void> {
    const nodes = this.lister.list() as Node[];
    const names = new Set(nodes.map(nameOf));
    for (const name of [...this.cloud.routes.keys()]) if (!names.has(name)) this.cloud.routes.delete(name);
    for (const node of nodes) {
      const cidr = node.spec?.podCIDR;
      if (!cidr) continue;
      this.cloud.routes.set(nameOf(node), cidr);
      const cond = (node.status?.conditions ?? []).find((c) => c?.type === 'NetworkUnavailable');
      if (cond?.status === 'False' && cond.reason === 'RouteCreated') continue;
      const now = rfc3339(this.ctx.now());
      const patch = { status: { conditions: [{ type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', message: 'RouteController created a route', lastTransitionTime: now, lastHeartbeatTime: now }] } };
      try {
        await this.client.patch('', nameOf(node), 'strategic', patch, { subresource: 'status' });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
}
