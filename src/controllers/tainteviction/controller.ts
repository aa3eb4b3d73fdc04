// The taint eviction controller (kube-controller-manager's pkg/controller/tainteviction): a pod on
// a node with NoExecute taints it does not all tolerate is deleted at once; one that tolerates them
// for a while (tolerationSeconds, the smallest of the matching tolerations) is deleted when that
// time has passed since the taints were seen, unless they go first. The pod gets the
// DisruptionTarget condition (DeletionByTaintManager) before its delete.
import { isBeingDeleted, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { Node, Pod, PodCondition, Taint, Toleration } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone } from '../../client/types.js';
import { untilAborted } from '../../client/wait.js';
import { toleratesTaint } from '../../machinery/selectors/node-affinity.js';
import { rfc3339 } from '../common/time.js';

export const NODES = { group: '', version: 'v1', resource: 'nodes' };
export const PODS = { group: '', version: 'v1', resource: 'pods' };

const noExecuteTaints = (node: Node | undefined): Taint[] => (node?.spec?.taints ?? []).filter((t): t is Taint => t?.effect === 'NoExecute');

/**
 * GetMatchingTolerations + getMinTolerationTime: undefined when some taint is not tolerated;
 * otherwise how long the pod may stay (ms), or -1 for ever.
 */
export function tolerationTime(taints: readonly Taint[], tolerations: readonly Toleration[]): number | undefined {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const matching = tolerations.filter((t) => toleratesTaint(t, taint));
    if (matching.length === 0) return undefined;
    used.push(...matching);
  }
  let min = -1;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    const ms = Math.max(0, t.tolerationSeconds) * 1000;
    if (min < 0 || ms < min) min = ms;
  }
  return taints.length === 0 ? -1 : min;
}

interface Scheduled {
  createdAt: number;
  fireAt: number;
  timer: ReturnType<typeof setTimeout>;
}

export class TaintEvictionController implements Controller {
  readonly name = 'taint-eviction';
  /** The deletions scheduled, by pod key. */
  readonly scheduled = new Map<string, Scheduled>();
  private readonly podLister: Lister;
  private readonly nodeLister: Lister;
  private readonly podClient: ResourceClient;
  private readonly recorder: EventRecorder;
  private running = false;

  constructor(private readonly ctx: ControllerContext) {
    const pods = ctx.informers.informer(PODS);
    const nodes = ctx.informers.informer(NODES);
    this.podLister = pods.lister;
    this.nodeLister = nodes.lister;
    this.podClient = ctx.clientset.resource(PODS);
    this.recorder = ctx.recorder('taint-eviction-controller');
    pods.addEventHandler({
      onAdd: (p) => this.podChanged(p as Pod),
      onUpdate: (_o, p) => this.podChanged(p as Pod),
      onDelete: (p) => this.cancel(keyOf(objectOf(p as KubeObject | Tombstone)), false),
    });
    nodes.addEventHandler({
      onAdd: (n) => this.nodeChanged(undefined, n as Node),
      onUpdate: (o, n) => this.nodeChanged(o as Node, n as Node),
      onDelete: () => {},
    });
  }

  async run(_workers: number, signal: AbortSignal): Promise<void> {
    if (this.ctx.options.enableTaintManager === false) {
      this.ctx.log({ controller: this.name, msg: 'not evicting pods from tainted nodes: --enable-taint-manager=false' });
    } else this.running = true;
    for (const node of this.nodeLister.list() as Node[]) this.nodeChanged(undefined, node);
    await untilAborted(signal);
    this.running = false;
    for (const s of this.scheduled.values()) clearTimeout(s.timer);
    this.scheduled.clear();
  }

  private podChanged(pod: Pod): void {
    if (!this.running) return;
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || isBeingDeleted(pod)) return this.cancel(keyOf(pod as KubeObject), false);
    this.processPod(pod, noExecuteTaints(this.nodeLister.get('', nodeName) as Node | undefined));
  }

  private nodeChanged(old: Node | undefined, node: Node): void {
    if (!this.running) return;
    const taints = noExecuteTaints(node);
    if (old && JSON.stringify(noExecuteTaints(old)) === JSON.stringify(taints)) return;
    for (const pod of this.podLister.byIndex('nodeName', nameOf(node)) as Pod[]) {
      if (isBeingDeleted(pod)) continue;
      this.processPod(pod, taints);
    }
  }

  /** processPodOnNode. */
  processPod(pod: Pod, taints: Taint[]): void {
    const key = keyOf(pod as KubeObject);
    if (taints.length === 0) return this.cancel(key, true);
    const now = this.ctx.now();
    const allowedMs = tolerationTime(taints, pod.spec?.tolerations ?? []);
    if (allowedMs === undefined) {
      this.cancel(key, true);
      this.schedule(key, now, now);
      return;
    }
    if (allowedMs < 0) return this.cancel(key, true);
    const existing = this.scheduled.get(key);
    let start = now;
    if (existing) {
      start = existing.createdAt;
      // an earlier deletion stays
      if (start + allowedMs < now + allowedMs) return;
      this.cancel(key, true);
    }
    this.schedule(key, start, start + allowedMs);
  }

  private schedule(key: string, createdAt: number, fireAt: number): void {
    const timer = setTimeout(() => void this.evict(key, fireAt), Math.max(0, fireAt - this.ctx.now()));
    this.scheduled.set(key, { createdAt, fireAt, timer });
  }

  private cancel(key: string, withEvent: boolean): void {
    const s = this.scheduled.get(key);
    if (!s) return;
    clearTimeout(s.timer);
    this.scheduled.delete(key);
    if (!withEvent) return;
    const [namespace, name] = splitKey(key);
    this.recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  /** deletePodHandler: the DisruptionTarget condition, then the delete (retried a few times). */
  async evict(key: string, _fireAt: number): Promise<void> {
    this.scheduled.delete(key);
    const [namespace, name] = splitKey(key);
    this.recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const pod = (await this.podClient.get(namespace, name)) as Pod;
        const conditions = pod.status?.conditions ?? [];
        const target = conditions.find((c) => c?.type === 'DisruptionTarget');
        if (target?.status !== 'True' || target.reason !== 'DeletionByTaintManager') {
          const cond: PodCondition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: target?.status === 'True' ? target.lastTransitionTime : rfc3339(this.ctx.now()) };
          const next = structuredClone(pod);
          next.status!.conditions = [...conditions.filter((c) => c?.type !== 'DisruptionTarget'), cond];
          await this.podClient.update(namespaceOf(pod), next as KubeObject, { subresource: 'status' });
        }
        await this.podClient.delete(namespace, name);
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (attempt === 4) this.ctx.log({ controller: this.name, msg: 'failed to evict pod', pod: key, err: (err as Error).message });
      }
    }
  }
}
