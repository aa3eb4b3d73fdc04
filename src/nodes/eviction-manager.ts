// The kubelet's eviction manager for each simulated node: every monitoring interval (the kubelet's
// 10 s) it evicts the pods over their ephemeral-storage limits, observes the node's signals from
// its pods' simulated usage (eviction.ts), keeps the MemoryPressure / DiskPressure / PIDPressure
// conditions (True while a threshold is met and for the pressure transition period after; or while
// the Node's kubelite.dev/pressure annotation names them) and, while a threshold is met, evicts one
// pod in the kubelet's rank order. The pressure taints follow from the conditions: the node
// lifecycle controller's work (heartbeats.ts does it with `lifecycleTaints`).
import { annotationsOf, isBeingDeleted } from '../api/meta/object.js';
import { parseQuantity } from '../api/meta/quantity.js';
import { NODE_SYSTEM_OVERHEAD, podUsage } from '../api/metrics/usage.js';
import type { Node, Pod } from '../api/types.js';
import { keyOf } from '../client/cache.js';
import { ANNOTATION_PREFIX } from './behaviour.js';
import type { AgentContext } from './context.js';
import {
  conditionOf,
  DEFAULT_EVICTION,
  ephemeralUsage,
  evictionMessage,
  isCriticalPod,
  localStorageViolation,
  parseThresholds,
  pidUsage,
  rankForEviction,
  SIGNALS,
  thresholdsMet,
  type Observations,
  type PressureCondition,
  type EvictionOptions,
  type Threshold,
} from './eviction.js';
import { writableMap, type SimNode } from './sim-node.js';

export const PRESSURE_ANNOTATION = `${ANNOTATION_PREFIX}pressure`;
export const PRESSURE_CONDITIONS: readonly PressureCondition[] = ['MemoryPressure', 'DiskPressure', 'PIDPressure'];
/** The processes a node may run (the kernel's default pid_max), and those of its system. */
export const NODE_MAX_PIDS = 32_768;
const NODE_SYSTEM_PIDS = 200;

export class EvictionManager {
  private readonly thresholds: Threshold[];
  private readonly o: EvictionOptions;
  private stopped = false;
  private readonly timers = new Map<string, { cancel(): void }>();
  /** Each pod's use, computed once per version of it (the informer replaces a pod's object when it changes). */
  private readonly uses = new WeakMap<Pod, { memory: number; disk: number; pids: number }>();
  private readonly systemMemory = parseQuantity(NODE_SYSTEM_OVERHEAD.memory)!.value();

  constructor(
    private readonly ctx: AgentContext,
    /** The pods bound to a node, and the Node as the informer has it. */
    private readonly podsOf: (node: string) => Pod[],
    private readonly nodeObject: (node: string) => Node | undefined,
    private readonly evict: (key: string, message: string) => void,
    /** A pressure condition changed: the node's status is due. */
    private readonly conditionsChanged: (node: SimNode) => void,
  ) {
    this.o = { ...DEFAULT_EVICTION, ...(ctx.opts.eviction ?? {}) };
    this.thresholds = parseThresholds(this.o.hard);
  }

  start(): void {
    const list = [...this.ctx.nodes.values()];
    list.forEach((node, k) => {
      const offset = Math.floor((k / list.length) * this.o.monitoringIntervalMs);
      this.loop(node, offset || this.o.monitoringIntervalMs);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) t.cancel();
  }

  private loop(node: SimNode, afterMs: number): void {
    this.timers.set(
      node.name,
      this.ctx.clock.setTimer(() => {
        if (this.stopped) return;
        if (node.mode === 'ok' && node.registered) this.synchronize(node);
        if (node.mode !== 'gone') this.loop(node, this.o.monitoringIntervalMs);
      }, afterMs),
    );
  }

  /** What the node's signals say now. */
  observe(node: SimNode, pods: readonly Pod[]): Observations {
    const capacity = (q: string | undefined, fallback: string) => (parseQuantity(q ?? fallback) ?? parseQuantity(fallback)!).value();
    const memory = capacity(this.ctx.opts.memory, '8Gi');
    const disk = capacity(this.ctx.opts.ephemeralStorage, '100Gi');
    // The node's memory as kubectl top shows it: the system's and its Running pods'.
    let used = this.systemMemory;
    // One filesystem holds the pods' writable layers, logs and emptyDirs and the images.
    let written = 0;
    let pids = NODE_SYSTEM_PIDS;
    for (const size of node.images.values()) written += size;
    for (const p of pods) {
      const u = this.useOf(p);
      used += u.memory;
      written += u.disk;
      pids += u.pids;
    }
    const fs = { available: disk - written, capacity: disk };
    return { 'memory.available': { available: memory - used, capacity: memory }, 'nodefs.available': fs, 'imagefs.available': fs, 'pid.available': { available: NODE_MAX_PIDS - pids, capacity: NODE_MAX_PIDS } };
  }

  private useOf(pod: Pod): { memory: number; disk: number; pids: number } {
    let u = this.uses.get(pod);
    if (!u) {
      u = { memory: podUsage(pod).containers.reduce((s, c) => s + c.usage.memory.value(), 0), disk: ephemeralUsage(pod).reduce((s, c) => s + c.bytes, 0), pids: pidUsage(pod) };
      this.uses.set(pod, u);
    }
    return u;
  }

  /** One pass of the eviction manager over `node`. */
  synchronize(node: SimNode): void {
    const now = this.ctx.clock.now();
    const pods = this.podsOf(node.name).filter((p) => p.status?.phase === 'Running' && !isBeingDeleted(p));
    let evicted = false;
    for (const p of pods) {
      const why = localStorageViolation(p);
      if (why === undefined) continue;
      this.evict(keyOf(p), why);
      evicted = true;
    }
    const obs = this.observe(node, pods);
    const met = thresholdsMet(this.thresholds, obs);
    for (const t of met) writableMap(node, 'pressureMetAt').set(conditionOf(t.signal), now);
    const forced = new Set((annotationsOf(this.nodeObject(node.name) ?? {})[PRESSURE_ANNOTATION] ?? '').split(',').map((s) => s.trim()));
    let changed = false;
    for (const type of PRESSURE_CONDITIONS) {
      const metAt = node.pressureMetAt.get(type);
      const status = forced.has(type) || (metAt !== undefined && now - metAt < this.o.pressureTransitionPeriodMs);
      const cur = node.pressure.get(type);
      if ((cur?.status ?? false) !== status) {
        writableMap(node, 'pressure').set(type, { status, since: now });
        changed = true;
      }
    }
    if (changed) this.conditionsChanged(node);
    if (evicted || met.length === 0) return;
    // The kubelet reclaims memory first, then disk, then processes; one pod per pass.
    const threshold = [...met].sort((a, b) => SIGNALS.indexOf(a.signal) - SIGNALS.indexOf(b.signal))[0]!;
    const victim = rankForEviction(pods.filter((p) => !isCriticalPod(p)), threshold.signal)[0];
    if (victim) this.evict(keyOf(victim), evictionMessage(victim, threshold, obs));
  }
}
