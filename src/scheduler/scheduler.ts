// The default scheduler's loop (kube-scheduler's scheduleOne): pods from the queue, one cycle each
// against the cache, the pod assumed on its node at once and bound in the background (many binds
// in flight), unschedulable pods marked PodScheduled=False and requeued by cluster events.
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { EventBroadcaster } from '../client/events.js';
import { SharedInformerFactory } from '../client/informers.js';
import { keyOf, objectOf } from '../client/cache.js';
import { isConflict, isNotFound } from '../client/errors.js';
import type { Clock } from '../client/clock.js';
import type { Clientset, EventRecorder, InformerFactory, KubeObject, Tombstone } from '../client/types.js';
import { isBeingDeleted, labelsOf, nameOf, namespaceOf, uidOf, type MetaObject } from '../api/meta/object.js';
import type { Node, Pod, ReplicaSet, Service, StatefulSet } from '../api/types.js';
import { SchedulerCache, isTerminal } from './cache.js';
import { schedulePod } from './framework.js';
import { newPodInfo, type PodInfo } from './model.js';
import { DefaultSpreads, selectorOf } from './default-spread.js';
import { SchedulingQueue } from './queue.js';
import { bindPodVolumes, findPodVolumes, volumePreFilter, type NodeVolumeDecision, type VolumeListers } from './volume-binding.js';
import type { VolumeCycle } from './framework.js';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const SERVICES = { group: '', version: 'v1', resource: 'services' };
const REPLICASETS = { group: 'apps', version: 'v1', resource: 'replicasets' };
const STATEFULSETS = { group: 'apps', version: 'v1', resource: 'statefulsets' };
const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };
const STORAGE_CLASSES = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' };

export interface SchedulerOptions {
  clientset: Clientset;
  /** Shared informers (started by the scheduler when it created them, or when `startInformers`). */
  informers?: InformerFactory;
  /** Start `informers` (default: only when the scheduler created them). */
  startInformers?: boolean;
  schedulerName?: string;
  recorder?: EventRecorder;
  clock?: Clock;
  /** Binds in flight at once (default 64). */
  parallelBinds?: number;
  log?: (fields: Record<string, unknown>) => void;
  /** Back-off and flush timings (tests). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  unschedulableFlushMs?: number;
  random?: () => number;
  /** How long PreBind waits for a pod's claims to be bound (VolumeBinding's bindTimeoutSeconds, default 600 s). */
  volumeBindTimeoutMs?: number;
}

export interface SchedulerStats {
  scheduled: number;
  bound: number;
  unschedulable: number;
  bindErrors: number;
}

export interface SchedulerHandle {
  readonly stats: SchedulerStats;
  readonly cache: SchedulerCache;
  readonly queue: SchedulingQueue;
  /** Resolves once the informers have synced. */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

// The informers' objects are the API server's, validated against the schema the types of
// api/types.ts are inferred from: the handlers read them as Pods, Nodes, Services and workloads.

function assigned(pod: Pod): boolean {
  const n = pod.spec?.nodeName;
  return typeof n === 'string' && n !== '';
}

const deleting = (pod: Pod): boolean => isBeingDeleted(pod);

/** metadata.labels as served (absent stays absent), for telling a change of labels. */
function labelsAsServed(o: MetaObject): unknown {
  return o.metadata?.labels;
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Scheduling-relevant parts of a node (heartbeats change none of them). */
function nodeSignature(node: Node): string {
  const spec = node.spec ?? {};
  const status = node.status ?? {};
  const ready = (status.conditions ?? []).find((c) => c.type === 'Ready')?.status;
  return JSON.stringify([node.metadata?.labels, spec.taints, spec.unschedulable, ready, status.allocatable]);
}

export function startScheduler(opts: SchedulerOptions): SchedulerHandle {
  const schedulerName = opts.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  const log = opts.log ?? (() => {});
  const ownInformers = !opts.informers;
  // Caches without managedFields, as kube-scheduler's: scheduling never reads them.
  const informers = opts.informers ?? new SharedInformerFactory(opts.clientset, { log, dropManagedFields: true });
  let broadcaster: EventBroadcaster | undefined;
  const recorder = opts.recorder ?? (broadcaster = new EventBroadcaster({ clientset: opts.clientset, host: hostname(), log })).newRecorder(schedulerName);
  const clock = opts.clock;
  const now = () => (clock ? clock.now() : Date.now());
  const cache = new SchedulerCache();
  const queue = new SchedulingQueue({ clock, initialBackoffMs: opts.initialBackoffMs, maxBackoffMs: opts.maxBackoffMs, unschedulableFlushMs: opts.unschedulableFlushMs });
  const stats: SchedulerStats = { scheduled: 0, bound: 0, unschedulable: 0, bindErrors: 0 };
  const pods = opts.clientset.resource(PODS);
  const abort = new AbortController();
  // one listener per informer and per bind in flight (up to parallelBinds): not a leak
  setMaxListeners(0, abort.signal);
  const parallelBinds = opts.parallelBinds ?? 64;
  const random = opts.random ?? Math.random;

  const responsible = (pod: Pod): boolean => {
    const n = pod.spec?.schedulerName;
    return (typeof n === 'string' && n !== '' ? n : DEFAULT_SCHEDULER_NAME) === schedulerName && !deleting(pod) && !isTerminal(pod);
  };

  // Cluster events are coalesced: one move of the unschedulable pods per turn of the event loop.
  let movePending = false;
  const clusterEvent = () => {
    if (movePending) return;
    movePending = true;
    setImmediate(() => {
      movePending = false;
      queue.moveAllToActiveOrBackoff();
    });
  };

  const podInformer = informers.informer(PODS);
  const nodeInformer = informers.informer(NODES);
  podInformer.addEventHandler({
    onAdd(pod) {
      if (assigned(pod)) {
        cache.addOrUpdatePod(pod);
        clusterEvent();
      } else if (responsible(pod)) queue.add(pod);
    },
    onUpdate(old, pod) {
      if (assigned(pod)) {
        const key = keyOf(pod);
        if (!assigned(old)) queue.delete(key);
        cache.addOrUpdatePod(pod);
        // Only what can make another pod fit: a pod newly bound or ending, labels (affinity, spread).
        if (!assigned(old) || isTerminal(pod) !== isTerminal(old) || deleting(pod) !== deleting(old) || JSON.stringify(labelsAsServed(old)) !== JSON.stringify(labelsAsServed(pod))) clusterEvent();
      } else if (responsible(pod)) {
        if (old !== pod) queue.add(pod, old);
      } else {
        queue.delete(keyOf(pod));
      }
    },
    onDelete(obj: KubeObject | Tombstone) {
      const key = keyOf(obj);
      queue.delete(key);
      if (cache.nodeOf(key) !== '') {
        cache.removePod(key);
        clusterEvent();
      }
      void objectOf;
    },
  });
  const nodeSigs = new Map<string, string>();
  nodeInformer.addEventHandler({
    onAdd(node) {
      cache.addOrUpdateNode(node);
      nodeSigs.set(keyOf(node), nodeSignature(node));
      clusterEvent();
    },
    onUpdate(_old, node) {
      cache.addOrUpdateNode(node);
      const sig = nodeSignature(node);
      if (nodeSigs.get(keyOf(node)) !== sig) {
        nodeSigs.set(keyOf(node), sig);
        clusterEvent();
      }
    },
    onDelete(obj) {
      const key = keyOf(obj);
      cache.removeNode(key);
      nodeSigs.delete(key);
    },
  });
  // What selects a pod, for PodTopologySpread's system default constraints (helper.DefaultSelector).
  const serviceInformer = informers.informer(SERVICES);
  const workloadInformers = [informers.informer(REPLICASETS), informers.informer(STATEFULSETS)];
  const defaultSpreads = new DefaultSpreads(serviceInformer.lister, workloadInformers.map((inf) => inf.lister));
  const forgetDefaultSpreads = (): void => defaultSpreads.forget();
  for (const inf of [serviceInformer, ...workloadInformers]) {
    inf.addEventHandler({
      onAdd: forgetDefaultSpreads,
      onUpdate: (old, cur) => {
        if (JSON.stringify(selectorOf(old)) !== JSON.stringify(selectorOf(cur))) forgetDefaultSpreads();
      },
      onDelete: forgetDefaultSpreads,
    });
  }
  const defaultSpread = (p: PodInfo): void => {
    const spread = defaultSpreads.of(p);
    if (spread === null) return;
    p.spread = spread;
    p.spreadSystemDefaulted = true;
  };
  // Namespace labels, for namespaceSelectors of pod affinity terms.
  informers.informer(NAMESPACES).addEventHandler({
    onAdd(ns) {
      cache.setNamespace(keyOf(ns), labelsOf(ns));
    },
    onUpdate(old, ns) {
      cache.setNamespace(keyOf(ns), labelsOf(ns));
      if (JSON.stringify(labelsAsServed(old)) !== JSON.stringify(labelsAsServed(ns))) clusterEvent();
    },
    onDelete(ns) {
      cache.setNamespace(keyOf(ns), undefined);
    },
  });
  // VolumeBinding: claims, volumes and classes; a change to any may make a waiting pod fit.
  const volumeListers: VolumeListers = {
    claims: informers.informer(PVCS).lister,
    volumes: informers.informer(PVS).lister,
    classes: informers.informer(STORAGE_CLASSES).lister,
  };
  for (const ref of [PVCS, PVS, STORAGE_CLASSES]) informers.informer(ref).addEventHandler({ onAdd: clusterEvent, onUpdate: clusterEvent, onDelete: clusterEvent });
  const volumeClients = { claims: opts.clientset.resource(PVCS), volumes: opts.clientset.resource(PVS) };
  /** Volumes promised to pods whose PreBind is in flight. */
  const reservedVolumes = new Set<string>();
  const volumeBindTimeoutMs = opts.volumeBindTimeoutMs ?? 600_000;
  if (ownInformers || opts.startInformers) informers.start(abort.signal);

  let startIndex = 0;
  let inFlight = 0;
  let slotWaiter: (() => void) | undefined;
  const binds = new Set<Promise<void>>();

  const podRef = (pod: Pod): Pod => ({ ...pod, apiVersion: 'v1', kind: 'Pod' });

  async function markUnschedulable(pod: Pod, message: string): Promise<void> {
    recorder.event(podRef(pod), 'Warning', 'FailedScheduling', message);
    const conds = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
    if (conds && conds.status === 'False' && conds.reason === 'Unschedulable' && conds.message === message) return;
    const lastTransitionTime = conds && conds.status === 'False' && typeof conds.lastTransitionTime === 'string' ? conds.lastTransitionTime : rfc3339(now());
    try {
      await pods.patch(
        namespaceOf(pod),
        nameOf(pod),
        'strategic',
        { status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null, lastTransitionTime }] } },
        { subresource: 'status' },
      );
    } catch (e) {
      if (!isNotFound(e)) log({ msg: 'failed to update pod status', pod: `${namespaceOf(pod)}/${nameOf(pod)}`, error: e instanceof Error ? e.message : String(e) });
    }
  }

  async function bind(pod: Pod, key: string, node: string, volumes: NodeVolumeDecision | undefined): Promise<void> {
    const [namespace, name, uid] = [namespaceOf(pod), nameOf(pod), uidOf(pod)];
    if (volumes && (volumes.staticBindings.length > 0 || volumes.provisions.length > 0)) {
      try {
        await bindPodVolumes(volumes, node, volumeListers, volumeClients, volumeBindTimeoutMs, abort.signal);
      } catch (e) {
        cache.forget(key);
        const message = e instanceof Error ? e.message : String(e);
        log({ msg: 'binding volumes failed', pod: key, node, error: message });
        recorder.event(podRef(pod), 'Warning', 'FailedScheduling', `running PreBind plugin "VolumeBinding": ${message}`);
        queue.addUnschedulable(key, true);
        clusterEvent();
        return;
      } finally {
        for (const s of volumes.staticBindings) reservedVolumes.delete(nameOf(s.volume));
      }
    }
    try {
      await pods.createSubresource(namespace, name, 'binding', {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace, ...(uid ? { uid } : {}) },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      });
      stats.bound++;
      queue.done(key);
      recorder.event(podRef(pod), 'Normal', 'Scheduled', `Successfully assigned ${namespace}/${name} to ${node}`);
    } catch (e) {
      cache.forget(key);
      if (isNotFound(e) || (isConflict(e) && /already assigned|being deleted/.test(e instanceof Error ? e.message : ''))) {
        queue.done(key);
        return;
      }
      stats.bindErrors++;
      log({ msg: 'binding failed', pod: key, node, error: e instanceof Error ? e.message : String(e) });
      recorder.event(podRef(pod), 'Warning', 'FailedScheduling', `Binding rejected: ${e instanceof Error ? e.message : String(e)}`);
      queue.addUnschedulable(key, true);
      clusterEvent();
    }
  }

  function scheduleOne(entry: { key: string; pod: Pod }): void {
    const [ns, name] = [entry.key.slice(0, entry.key.indexOf('/')), entry.key.slice(entry.key.indexOf('/') + 1)];
    const current: Pod = podInformer.lister.get(ns, name) ?? entry.pod;
    // (An assumed pod is bound or being bound: an older update of it must not schedule it again.)
    if (assigned(current) || !responsible(current) || cache.isAssumed(entry.key) || (podInformer.hasSynced() && !podInformer.lister.get(ns, name))) {
      queue.done(entry.key);
      return;
    }
    const p = newPodInfo(current);
    if (p.spread.length === 0) defaultSpread(p);
    stats.scheduled++;
    const vpf = volumePreFilter(current, volumeListers);
    const volumes: VolumeCycle | { error: string } | undefined = vpf.error !== undefined ? { error: vpf.error } : vpf.volumes ? { claims: vpf.volumes, allVolumes: volumeListers.volumes.list(), reserved: reservedVolumes } : undefined;
    const r = schedulePod(cache, p, startIndex, random, volumes);
    const n = cache.nodes().length;
    startIndex = n > 0 ? (startIndex + r.evaluated) % n : 0;
    if (r.node) {
      let decision: NodeVolumeDecision | undefined;
      if (volumes && 'claims' in volumes) {
        const ni = cache.nodeInfo(r.node)!;
        decision = findPodVolumes(volumes.claims, ni, volumes.allVolumes, reservedVolumes);
        for (const s of decision.staticBindings) reservedVolumes.add(nameOf(s.volume));
      }
      cache.assume(p, r.node);
      inFlight++;
      const b = bind(current, entry.key, r.node, decision).finally(() => {
        inFlight--;
        binds.delete(b);
        const w = slotWaiter;
        slotWaiter = undefined;
        w?.();
      });
      binds.add(b);
      return;
    }
    stats.unschedulable++;
    queue.addUnschedulable(entry.key);
    const message = r.message ?? 'unschedulable';
    log({ msg: 'unable to schedule pod', pod: entry.key, reason: message });
    void markUnschedulable(current, message);
  }

  async function loop(): Promise<void> {
    await informers.waitForCacheSync(abort.signal);
    let sinceYield = 0;
    while (!abort.signal.aborted) {
      if (inFlight >= parallelBinds) {
        await new Promise<void>((r) => (slotWaiter = r));
        continue;
      }
      let e = queue.tryPop();
      if (!e) {
        sinceYield = 0;
        e = await queue.pop();
        if (!e) break;
      }
      if (abort.signal.aborted) break;
      try {
        scheduleOne(e);
      } catch (err) {
        log({ msg: 'scheduling cycle failed', pod: e.key, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        queue.addUnschedulable(e.key, true);
      }
      // Let the informers' events and the binds' answers in now and then.
      if (++sinceYield >= 32) {
        sinceYield = 0;
        await new Promise<void>((r) => setImmediate(r));
      }
    }
  }

  const ready = informers.waitForCacheSync(abort.signal).then(() => undefined);
  const running = loop().catch((err) => log({ msg: 'scheduler loop failed', error: err instanceof Error ? err.message : String(err) }));

  return {
    stats,
    cache,
    queue,
    ready,
    async stop() {
      abort.abort();
      queue.close();
      slotWaiter?.();
      await running;
      await Promise.allSettled([...binds]);
      broadcaster?.shutDown();
    },
  };
}
