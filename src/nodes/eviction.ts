// The kubelet's eviction decisions (pkg/kubelet/eviction), pure: the eviction thresholds
// (--eviction-hard, its defaults), the signals a node's simulated usage gives, which pressure
// conditions they raise, the order pods are evicted in, the messages the evicted pods carry, and
// the pods over their ephemeral-storage limits (evicted whatever the node's state).
import { annotationsOf } from '../api/meta/object.js';
import { Quantity, parseQuantity } from '../api/meta/quantity.js';
import { podUsage } from '../api/metrics/usage.js';
import type { Container, Pod } from '../api/types.js';
import { ANNOTATION_PREFIX } from './behaviour.js';

export type Signal = 'memory.available' | 'nodefs.available' | 'nodefs.inodesFree' | 'imagefs.available' | 'imagefs.inodesFree' | 'pid.available';
/** The signals, in the order the kubelet reclaims their resources: memory, then disk, then processes. */
export const SIGNALS: readonly Signal[] = ['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'pid.available'];

/** A threshold: the signal below a quantity, or below a percentage of its capacity. */
export interface Threshold {
  signal: Signal;
  quantity?: Quantity;
  percentage?: number;
}

/** The kubelet's --eviction-hard default on Linux. */
export const DEFAULT_EVICTION_HARD = 'memory.available<100Mi,nodefs.available<10%,imagefs.available<15%,nodefs.inodesFree<5%';

export interface EvictionOptions {
  /** --eviction-hard (default the kubelet's: DEFAULT_EVICTION_HARD). */
  hard: string;
  /** How often each node's eviction manager runs (the kubelet's 10 s). */
  monitoringIntervalMs: number;
  /** How long a pressure condition stays True after its threshold was last met (--eviction-pressure-transition-period, 5 m). */
  pressureTransitionPeriodMs: number;
}

export const DEFAULT_EVICTION: EvictionOptions = { hard: DEFAULT_EVICTION_HARD, monitoringIntervalMs: 10_000, pressureTransitionPeriodMs: 300_000 };

/** `memory.available<100Mi,nodefs.available<10%` → thresholds; throws an Error saying what is wrong. */
export function parseThresholds(text: string): Threshold[] {
  const out: Threshold[] = [];
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const m = /^([a-z.A-Z]+)<(.+)$/.exec(item);
    if (!m) throw new Error(`${JSON.stringify(item)} is not <signal><<quantity or percentage>`);
    const signal = m[1] as Signal;
    if (!SIGNALS.includes(signal)) throw new Error(`unknown eviction signal ${JSON.stringify(m[1])}`);
    if (out.some((t) => t.signal === signal)) throw new Error(`${signal} is given twice`);
    const v = m[2]!.trim();
    if (v.endsWith('%')) {
      const p = Number(v.slice(0, -1));
      if (!Number.isFinite(p) || p < 0 || p > 100) throw new Error(`${signal}: ${JSON.stringify(v)} is not a percentage`);
      out.push({ signal, percentage: p });
    } else {
      const q = parseQuantity(v);
      if (!q || q.sign() < 0) throw new Error(`${signal}: ${JSON.stringify(v)} is not a quantity`);
      out.push({ signal, quantity: q });
    }
  }
  return out;
}

/** What a node observes: each signal's available amount and capacity (absent: not observed). */
export type Observations = Partial<Record<Signal, { available: number; capacity: number }>>;

/** A pod's ephemeral-storage and process use, from annotations: `kubelite.dev/[<container>.]ephemeral-storage-usage`, `kubelite.dev/pids`. */
export const EPHEMERAL_USAGE_KEY = 'ephemeral-storage-usage';
export const PIDS_ANNOTATION = `${ANNOTATION_PREFIX}pids`;

const quantityOf = (v: string | undefined): Quantity | undefined => (v === undefined ? undefined : parseQuantity(v.trim()) ?? undefined);
const bytes = (q: Quantity | undefined): number => (q ? q.value() : 0);

/** Each container's ephemeral-storage use: its annotation, else half its request, else nothing written. */
export function ephemeralUsage(pod: Pod): { name: string; bytes: number }[] {
  const a = annotationsOf(pod);
  return (pod.spec?.containers ?? []).map((c) => {
    const name = c.name ?? '';
    const given = quantityOf(a[`${ANNOTATION_PREFIX}${name}.${EPHEMERAL_USAGE_KEY}`] ?? a[`${ANNOTATION_PREFIX}${EPHEMERAL_USAGE_KEY}`]);
    return { name, bytes: given ? bytes(given) : Math.floor(bytes(requestOf(c, 'ephemeral-storage')) / 2) };
  });
}

/** The processes a pod runs: its annotation, else one per container. */
export function pidUsage(pod: Pod): number {
  const n = Number(annotationsOf(pod)[PIDS_ANNOTATION]);
  return Number.isInteger(n) && n >= 0 ? n : (pod.spec?.containers ?? []).length;
}

function requestOf(c: Container, r: string): Quantity | undefined {
  return quantityOf(c.resources?.requests?.[r] ?? undefined);
}

function limitOf(c: Container, r: string): Quantity | undefined {
  return quantityOf(c.resources?.limits?.[r] ?? undefined);
}

/** The amount a threshold stands for, given the signal's capacity. */
export function thresholdValue(t: Threshold, capacity: number): number {
  return t.quantity ? t.quantity.value() : Math.floor((capacity * (t.percentage ?? 0)) / 100);
}

/** The thresholds whose signal is below them. */
export function thresholdsMet(thresholds: readonly Threshold[], obs: Observations): Threshold[] {
  return thresholds.filter((t) => {
    const o = obs[t.signal];
    return o !== undefined && o.available < thresholdValue(t, o.capacity);
  });
}

export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

export function conditionOf(signal: Signal): PressureCondition {
  return signal === 'memory.available' ? 'MemoryPressure' : signal === 'pid.available' ? 'PIDPressure' : 'DiskPressure';
}

/** The resource a signal reclaims (what its eviction message names and its ranking measures). */
function resourceOf(signal: Signal): 'memory' | 'ephemeral-storage' | 'pids' {
  return signal === 'memory.available' ? 'memory' : signal === 'pid.available' ? 'pids' : 'ephemeral-storage';
}

/** One pod's use of each resource the eviction manager ranks by, with its requests. */
interface PodUse {
  pod: Pod;
  priority: number;
  usage: number;
  request: number;
}

function useOf(pod: Pod, resource: 'memory' | 'ephemeral-storage' | 'pids'): PodUse {
  const priority = typeof pod.spec?.priority === 'number' ? pod.spec.priority : 0;
  const containers = pod.spec?.containers ?? [];
  if (resource === 'pids') return { pod, priority, usage: pidUsage(pod), request: 0 };
  const usage = resource === 'memory' ? podUsage(pod).containers.reduce((s, c) => s + c.usage.memory.value(), 0) : ephemeralUsage(pod).reduce((s, c) => s + c.bytes, 0);
  const request = containers.reduce((s, c) => s + bytes(requestOf(c, resource)), 0);
  return { pod, priority, usage, request };
}

/**
 * The pods in the order the kubelet evicts them under `signal`: those using more than they
 * request first, then lower priority first, then the larger use over request (for processes:
 * lower priority, then more processes).
 */
export function rankForEviction(pods: readonly Pod[], signal: Signal): Pod[] {
  const resource = resourceOf(signal);
  const uses = pods.map((p) => useOf(p, resource));
  uses.sort((a, b) => {
    if (resource !== 'pids') {
      const ea = a.usage > a.request ? 1 : 0;
      const eb = b.usage > b.request ? 1 : 0;
      if (ea !== eb) return eb - ea;
    }
    if (a.priority !== b.priority) return a.priority - b.priority;
    return b.usage - b.request - (a.usage - a.request);
  });
  return uses.map((u) => u.pod);
}

/** The message (and the Evicted event's) of a pod evicted under `signal`: the threshold, the available amount, each container over its request. */
export function evictionMessage(pod: Pod, t: Threshold, obs: Observations): string {
  const resource = resourceOf(t.signal);
  let msg = `The node was low on resource: ${resource}. `;
  const o = obs[t.signal];
  if (o) {
    const threshold = t.quantity ? t.quantity.toString() : `${t.percentage}%`;
    const available = resource === 'pids' ? String(o.available) : Quantity.fromValue(Math.max(0, o.available), 'BinarySI').toString();
    msg += `Threshold quantity: ${threshold}, available: ${available}. `;
  }
  if (resource === 'pids') return msg;
  const usages = resource === 'memory' ? podUsage(pod).containers.map((c) => ({ name: c.name, bytes: c.usage.memory.value() })) : ephemeralUsage(pod);
  for (const c of pod.spec?.containers ?? []) {
    const used = usages.find((u) => u.name === c.name)?.bytes ?? 0;
    const request = requestOf(c, resource);
    if (used > bytes(request)) msg += `Container ${c.name} was using ${Quantity.fromValue(used, 'BinarySI').toString()}, request is ${request ? request.toString() : '0'}, has larger consumption of ${resource}. `;
  }
  return msg;
}

/**
 * Why the kubelet evicts `pod` for its local storage, whatever the node's state: a container over
 * its ephemeral-storage limit, or the pod over the sum of its containers' limits (all limited).
 */
export function localStorageViolation(pod: Pod): string | undefined {
  const usage = ephemeralUsage(pod);
  const containers = pod.spec?.containers ?? [];
  for (const c of containers) {
    const limit = limitOf(c, 'ephemeral-storage');
    const used = usage.find((u) => u.name === c.name)?.bytes ?? 0;
    if (limit && used > limit.value()) return `Container ${c.name} exceeded its local ephemeral storage limit "${limit.toString()}". `;
  }
  const limits = containers.map((c) => limitOf(c, 'ephemeral-storage'));
  if (containers.length > 0 && limits.every((l) => l !== undefined)) {
    const total = limits.reduce((s, l) => s.add(l!), Quantity.fromValue(0, 'BinarySI'));
    if (usage.reduce((s, u) => s + u.bytes, 0) > total.value()) return `Pod ephemeral local storage usage exceeds the total limit of containers ${total.toString()}. `;
  }
  return undefined;
}

/** The kubelet never evicts critical pods (priority of system-cluster-critical and above). */
export const isCriticalPod = (pod: Pod): boolean => typeof pod.spec?.priority === 'number' && pod.spec.priority >= 2_000_000_000;

function isBestEffort(pod: Pod): boolean {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return all.every((c) => ['requests', 'limits'].every((k) => {
    const list = (k === 'requests' ? c.resources?.requests : c.resources?.limits) ?? {};
    return !['cpu', 'memory'].some((r) => list[r] !== undefined && !parseQuantity(list[r]!)?.isZero());
  }));
}

function toleratesMemoryPressure(pod: Pod): boolean {
  return (pod.spec?.tolerations ?? []).some((t) => {
    const effectOk = !t.effect || t.effect === 'NoSchedule';
    if (!t.key) return t.operator === 'Exists' && effectOk;
    return t.key === 'node.kubernetes.io/memory-pressure' && effectOk && (t.operator === 'Exists' || !t.value);
  });
}

/**
 * Why the kubelet refuses a new pod under pressure (its eviction admit handler), undefined when it
 * admits it: under MemoryPressure only BestEffort pods that do not tolerate the memory-pressure
 * taint are refused, under DiskPressure every pod; critical pods always enter.
 */
export function admissionRejection(pod: Pod, conditions: readonly PressureCondition[]): string | undefined {
  const active = conditions.filter((c) => c !== 'PIDPressure');
  if (active.length === 0 || isCriticalPod(pod)) return undefined;
  if (!active.includes('DiskPressure') && (!isBestEffort(pod) || toleratesMemoryPressure(pod))) return undefined;
  return `The node had condition: [${conditions.join(' ')}]. `;
}
