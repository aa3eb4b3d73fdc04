// The pod garbage collector (Kubernetes' PodGCController), every 20 s:
// - terminated pods (phase neither Pending, Running nor Unknown) above
//   `--terminated-pod-gc-threshold` (12500; ≤ 0 disables), evicted ones first, then oldest first;
// - terminating pods on not-ready nodes tainted node.kubernetes.io/out-of-service;
// - orphaned pods: bound to a node that does not exist (after a 40 s quarantine and a live GET);
// - terminating pods that were never scheduled.
// Pods not yet terminal are patched to phase Failed first (with a DisruptionTarget condition for
// orphans), then force-deleted (grace 0).
import { creationTimestampOf, isBeingDeleted, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Node, Pod, PodCondition, PodStatus } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister } from '../../client/types.js';
import { intOption } from '../common/options.js';
import { every } from '../../client/wait.js';

export const GC_CHECK_PERIOD_MS = 20_000;
export const QUARANTINE_MS = 40_000;
const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

const phaseOf = (p: Pod): string => p.status?.phase ?? '';
const nodeNameOf = (p: Pod): string => p.spec?.nodeName ?? '';

export function isPodTerminated(p: Pod): boolean {
  const phase = phaseOf(p);
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

function isEvicted(p: Pod): boolean {
  return phaseOf(p) === 'Failed' && p.status?.reason === 'Evicted';
}

/** Evicted first, then by creationTimestamp, then by name (Kubernetes' byEvictionAndCreationTimestamp). */
export function byEvictionAndCreation(a: Pod, b: Pod): number {
  const ea = isEvicted(a);
  const eb = isEvicted(b);
  if (ea !== eb) return ea ? -1 : 1;
  const ta = Date.parse(creationTimestampOf(a)) || 0;
  const tb = Date.parse(creationTimestampOf(b)) || 0;
  if (ta !== tb) return ta - tb;
  return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
}

function isNodeReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function hasTaint(node: Node, key: string): boolean {
  return (node.spec?.taints ?? []).some((t) => t.key === key);
}

export interface PodGCOptions {
  gcCheckPeriodMs?: number;
  quarantineMs?: number;
}

export class PodGCController implements Controller {
  readonly name = 'podgc';
  readonly threshold: number;
  private readonly podLister: Lister;
  private readonly nodeLister: Lister;
  private readonly periodMs: number;
  private readonly quarantineMs: number;
  /** Nodes seen missing: when they may be checked (Kubernetes' delaying nodeQueue). */
  private readonly quarantine = new Map<string, number>();

  constructor(
    private readonly ctx: ControllerContext,
    opts: PodGCOptions = {},
  ) {
    this.threshold = intOption(ctx.options, 'terminatedPodGcThreshold', 12500);
    this.periodMs = opts.gcCheckPeriodMs ?? GC_CHECK_PERIOD_MS;
    this.quarantineMs = opts.quarantineMs ?? QUARANTINE_MS;
    this.podLister = ctx.informers.informer({ group: '', version: 'v1', resource: 'pods' }).lister;
    this.nodeLister = ctx.informers.informer({ group: '', version: 'v1', resource: 'nodes' }).lister;
  }

  async run(_workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) return;
    await every(this.periodMs, signal, () => this.gc());
  }

  /** One pass of the four collections. */
  async gc(): Promise<void> {
    const pods = this.podLister.list();
    const nodes = this.nodeLister.list();
    if (this.threshold > 0) await this.gcTerminated(pods);
    await this.gcTerminating(pods);
    await this.gcOrphaned(pods, nodes);
    await this.gcUnscheduledTerminating(pods);
  }

  private async gcTerminated(pods: Pod[]): Promise<void> {
    const terminated = pods.filter(isPodTerminated);
    const deleteCount = terminated.length - this.threshold;
    if (deleteCount <= 0) return;
    this.log({ msg: 'Garbage collecting pods', numPods: deleteCount });
    terminated.sort(byEvictionAndCreation);
    await this.deleteAll(terminated.slice(0, deleteCount));
  }

  private async gcTerminating(pods: Pod[]): Promise<void> {
    const victims = pods.filter((p) => {
      if (!isBeingDeleted(p)) return false;
      const node = this.nodeLister.get('', nodeNameOf(p));
      return node !== undefined && !isNodeReady(node) && hasTaint(node, TAINT_OUT_OF_SERVICE);
    });
    if (victims.length === 0) return;
    this.log({ msg: 'Garbage collecting pods that are terminating on node tainted with node.kubernetes.io/out-of-service', numPods: victims.length });
    victims.sort(byEvictionAndCreation);
    await this.deleteAll(victims);
  }

  private async gcOrphaned(pods: Pod[], nodes: Node[]): Promise<void> {
    const existing = new Set(nodes.map(nameOf));
    const now = this.ctx.now();
    for (const p of pods) {
      const n = nodeNameOf(p);
      if (n !== '' && !existing.has(n) && !this.quarantine.has(n)) this.quarantine.set(n, now + this.quarantineMs);
    }
    const deleted = new Set<string>();
    for (const [n, at] of [...this.quarantine]) {
      if (at > now) continue;
      this.quarantine.delete(n);
      if (existing.has(n)) continue;
      try {
        await this.ctx.clientset.resource({ group: '', version: 'v1', resource: 'nodes' }).get('', n);
      } catch (e) {
        if (isNotFound(e)) deleted.add(n);
        else this.log({ msg: 'Error while getting node', node: n, err: String(e) });
      }
    }
    if (deleted.size === 0) return;
    const orphans = pods.filter((p) => deleted.has(nodeNameOf(p)));
    await this.deleteAll(orphans, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' }, 'Forced deletion of orphaned Pod succeeded');
  }

  private async gcUnscheduledTerminating(pods: Pod[]): Promise<void> {
    const victims = pods.filter((p) => isBeingDeleted(p) && nodeNameOf(p) === '');
    await this.deleteAll(victims, undefined, 'Forced deletion of unscheduled terminating Pod succeeded');
  }

  private async deleteAll(pods: Pod[], condition?: PodCondition, success?: string): Promise<void> {
    await Promise.all(
      pods.map(async (p) => {
        try {
          await this.markFailedAndDelete(p, condition);
          if (success) this.log({ msg: success, pod: `${namespaceOf(p)}/${nameOf(p)}` });
        } catch (e) {
          if (!isNotFound(e)) this.log({ msg: 'failed to delete pod', pod: `${namespaceOf(p)}/${nameOf(p)}`, err: String(e) });
        }
      }),
    );
  }

  /** Patches a non-terminal pod to Failed (Kubernetes ≥ 1.26, for Job pod replacement), then force-deletes it. */
  async markFailedAndDelete(pod: Pod, condition?: PodCondition): Promise<void> {
    const pods = this.ctx.clientset.resource({ group: '', version: 'v1', resource: 'pods' });
    this.log({ msg: 'PodGC is force deleting Pod', pod: `${namespaceOf(pod)}/${nameOf(pod)}` });
    const phase = phaseOf(pod);
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      const status: PodStatus = { phase: 'Failed' };
      if (condition) status.conditions = [{ ...condition, lastTransitionTime: new Date(this.ctx.now()).toISOString().replace(/\.\d+Z$/, 'Z') }];
      await pods.patch(namespaceOf(pod), nameOf(pod), 'strategic', { metadata: { uid: uidOf(pod) }, status }, { subresource: 'status' });
    }
    await pods.delete(namespaceOf(pod), nameOf(pod), { gracePeriodSeconds: 0 });
  }

  private log(fields: Record<string, unknown>): void {
    this.ctx.log({ controller: this.name, ...fields });
  }
}

