// The cloud node lifecycle controller (`cloud-node-lifecycle`): every --node-monitor-period, a Node
// that is not Ready and whose cloud instance is gone is deleted; one whose instance is shut down
// gets the node.cloudprovider.kubernetes.io/shutdown NoSchedule taint, which goes once it is Ready.
import { nameOf, uidOf } from '../../api/meta/object.js';
import type { Node, Taint } from '../../api/types.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import type { KubeliteCloud } from './provider.js';

const NODES = { group: '', version: 'v1', resource: 'nodes' };
export const SHUTDOWN_TAINT = 'node.cloudprovider.kubernetes.io/shutdown';

export class CloudNodeLifecycleController implements Controller {
  readonly name = 'cloud-node-lifecycle';
  private readonly lister: Lister;
  private readonly client: ResourceClient;
  private readonly recorder: EventRecorder;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly cloud: KubeliteCloud,
  ) {
    this.lister = ctx.informers.informer(NODES).lister;
    this.client = ctx.clientset.resource(NODES);
    this.recorder = ctx.recorder('cloud-node-lifecycle-controller');
  }

  async run(_workers: number, signal: AbortSignal): Promise<void> {
    const period = typeof this.ctx.options.nodeMonitorPeriod === 'number' ? this.ctx.options.nodeMonitorPeriod : 5_000;
    while (!signal.aborted) {
      await this.monitor().catch((err: unknown) => this.ctx.log({ controller: this.name, msg: 'monitor failed', err: (err as Error).message }));
      await sleep(period, signal);
    }
  }

  private async setShutdownTaint(node: Node, on: boolean): Promise<void> {
    const taints = (node.spec?.taints ?? []).filter((t): t is Taint => t != null && t.key !== SHUTDOWN_TAINT);
    if (on) taints.push({ key: SHUTDOWN_TAINT, effect: 'NoSchedule' });
    try {
      await this.client.update('', { ...node, spec: { ...node.spec, taints } } as KubeObject);
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  async monitor(): Promise<void> {
    for (const node of this.lister.list() as Node[]) {
      const ready = (node.status?.conditions ?? []).find((c) => c?.type === 'Ready')?.status === 'True';
      const tainted = (node.spec?.taints ?? []).some((t) => t?.key === SHUTDOWN_TAINT);
      const state = this.cloud.instanceState(node);
      if (ready) {
        if (tainted) await this.setShutdownTaint(node, false);
        continue;
      }
      if (state === 'shutdown') {
        if (!tainted) await this.setShutdownTaint(node, true);
        continue;
      }
      if (state !== 'terminated') continue;
      this.recorder.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: nameOf(node), uid: nameOf(node) } }, 'Normal', 'DeletingNode', `Deleting node ${nameOf(node)} because it does not exist in the cloud provider`);
      try {
        await this.client.delete('', nameOf(node), { preconditions: { uid: uidOf(node as KubeObject) } });
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
  }
}
