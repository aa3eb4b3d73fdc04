// One scheduling cycle (kube-scheduler's default profile): pre-filters computed once per pod,
// filters per node (in the default plugin order, stopping at the first failure), scores of the
// feasible nodes normalized and weighted as the default plugins are, the best node picked (ties at
// random), and on failure the FitError message Kubernetes writes.
import type { PersistentVolume } from '../api/types.js';
import type { SchedulerCache } from './cache.js';
import { findPodVolumes, type PodVolumes } from './volume-binding.js';
import {
  nodeAffinityMatches,
  termMatchesPod,
  tolerated,
  MEMORY,
  EPHEMERAL,
  type NodeInfo,
  type PodInfo,
  type SpreadConstraint,
  type Taint,
  type NamespaceLabels,
} from './model.js';

export const ERR_NOT_READY = 'node(s) were not ready';
export const ERR_UNSCHEDULABLE = 'node(s) were unschedulable';
export const ERR_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const ERR_PORTS = "node(s) didn't have free ports for the requested pod ports";
export const ERR_SPREAD = "node(s) didn't match pod topology spread constraints";
export const ERR_SPREAD_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
export const ERR_AFFINITY = "node(s) didn't match pod affinity rules";
export const ERR_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const ERR_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
export const NO_NODES = 'no nodes available to schedule pods';
const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const NO_VICTIMS = 'No preemption victims found for incoming pod';

/** A node's filter failure: its reasons, and whether preemption could not help (UnschedulableAndUnresolvable). */
export interface FilterStatus {
  reasons: string[];
  unresolvable: boolean;
}

const fail = (reason: string, unresolvable = false): FilterStatus => ({ reasons: [reason], unresolvable });

const pair = (key: string, value: string): string => `${key}\u0000${value}`;

interface SpreadState {
  c: SpreadConstraint;
  counts: Map<string, number>;
  minMatch: number;
  selfMatch: number;
}

/** What the pre-filters computed for one pod. */
export interface CycleState {
  pod: PodInfo;
  nsl: NamespaceLabels;
  /** Topology pairs where existing pods' required anti-affinity forbids this pod. */
  existingAnti: Map<string, number> | undefined;
  /** Per topology pair, how many pods match all the pod's affinity terms. */
  affinityCounts: Map<string, number> | undefined;
  /** Per topology pair, how many pods match one of the pod's anti-affinity terms. */
  antiCounts: Map<string, number> | undefined;
  spread: SpreadState[];
  /** VolumeBinding's PreFilter result, for pods with claims. */
  volumes?: VolumeCycle;
}

/** The pod's claims, with the volumes and reservations they are matched against. */
export interface VolumeCycle {
  claims: PodVolumes;
  allVolumes: readonly PersistentVolume[];
  reserved: ReadonlySet<string>;
}

function untoleratedTaint(ni: NodeInfo, p: PodInfo, effects: (e: string) => boolean): Taint | undefined {
  for (const t of ni.taints) if (effects(t.effect) && !tolerated(t, p.tolerations)) return t;
  return undefined;
}

const hardEffect = (e: string): boolean => e === 'NoSchedule' || e === 'NoExecute';

function spreadEligible(ni: NodeInfo, p: PodInfo, c: SpreadConstraint, keys: string[]): boolean {
  if (c.nodeAffinityPolicy === 'Honor' && !nodeAffinityMatches(p, ni.labels, ni.name)) return false;
  if (c.nodeTaintsPolicy === 'Honor' && untoleratedTaint(ni, p, hardEffect)) return false;
  for (const k of keys) if (!(k in ni.labels)) return false;
  return true;
}

function spreadCounts(cache: SchedulerCache, p: PodInfo, constraints: SpreadConstraint[]): SpreadState[] {
  const keys = constraints.map((c) => c.topologyKey);
  return constraints.map((c) => {
    const counts = new Map<string, number>();
    const matching = cache.matchingPodCounts(p.namespace, c.matches);
    for (const ni of cache.nodes()) {
      if (!spreadEligible(ni, p, c, keys)) continue;
      const d = ni.labels[c.topologyKey]!;
      counts.set(d, (counts.get(d) ?? 0) + (matching.get(ni) ?? 0));
    }
    let minMatch = counts.size === 0 ? 0 : Infinity;
    for (const v of counts.values()) if (v < minMatch) minMatch = v;
    if (c.whenUnsatisfiable === 'DoNotSchedule' && counts.size < c.minDomains) minMatch = 0;
    return { c, counts, minMatch, selfMatch: c.matches(p.labels) ? 1 : 0 };
  });
}

export function preFilter(cache: SchedulerCache, p: PodInfo): CycleState {
  const nsl = cache.namespaceLabels;
  const state: CycleState = { pod: p, nsl, existingAnti: undefined, affinityCounts: undefined, antiCounts: undefined, spread: [] };
  if (cache.podsWithAntiAffinity.size > 0) {
    const m = new Map<string, number>();
    for (const ep of cache.podsWithAntiAffinity) {
      const ni = cache.nodeInfo(cache.nodeOf(ep.key));
      if (!ni) continue;
      for (const t of ep.antiAffinity) {
        if (!termMatchesPod(t, p, nsl)) continue;
        const v = ni.labels[t.topologyKey];
        if (v !== undefined) m.set(pair(t.topologyKey, v), (m.get(pair(t.topologyKey, v)) ?? 0) + 1);
      }
    }
    if (m.size > 0) state.existingAnti = m;
  }
  if (p.affinity.length > 0 || p.antiAffinity.length > 0) {
    const aff = new Map<string, number>();
    const anti = new Map<string, number>();
    for (const ni of cache.nodes()) {
      for (const ep of ni.pods.values()) {
        if (p.affinity.length > 0 && p.affinity.every((t) => termMatchesPod(t, ep, nsl)))
          for (const t of p.affinity) {
            const v = ni.labels[t.topologyKey];
            if (v !== undefined) aff.set(pair(t.topologyKey, v), (aff.get(pair(t.topologyKey, v)) ?? 0) + 1);
          }
        for (const t of p.antiAffinity) {
          if (!termMatchesPod(t, ep, nsl)) continue;
          const v = ni.labels[t.topologyKey];
          if (v !== undefined) anti.set(pair(t.topologyKey, v), (anti.get(pair(t.topologyKey, v)) ?? 0) + 1);
        }
      }
    }
    state.affinityCounts = aff;
    state.antiCounts = anti;
  }
  const hard = p.spread.filter((c) => c.whenUnsatisfiable === 'DoNotSchedule');
  if (hard.length > 0) state.spread = spreadCounts(cache, p, hard);
  return state;
}

function fitsResources(ni: NodeInfo, p: PodInfo): FilterStatus | undefined {
  const reasons: string[] = [];
  if (ni.pods.size + 1 > ni.allowedPods) reasons.push('Too many pods');
  const req = p.requests;
  const check = (r: string, label: string) => {
    const q = req[r] ?? 0;
    if (q > 0 && q > (ni.allocatable[r] ?? 0) - (ni.requested[r] ?? 0)) reasons.push(`Insufficient ${label}`);
  };
  check('cpu', 'cpu');
  check(MEMORY, 'memory');
  check(EPHEMERAL, 'ephemeral-storage');
  for (const r in req) {
    if (r === 'cpu' || r === MEMORY || r === EPHEMERAL || r === 'pods') continue;
    check(r, r);
  }
  return reasons.length > 0 ? { reasons, unresolvable: false } : undefined;
}

function portsFree(ni: NodeInfo, p: PodInfo): boolean {
  for (const hp of p.hostPorts) {
    const ips = ni.usedPorts.get(`${hp.protocol}/${hp.port}`);
    if (!ips) continue;
    for (const ip of ips) if (ip === hp.ip || ip === '0.0.0.0' || hp.ip === '0.0.0.0') return false;
  }
  return true;
}

/** The filters of the default profile, in its order; undefined when the node fits. */
export function filter(state: CycleState, ni: NodeInfo): FilterStatus | undefined {
  const p = state.pod;
  const nsl = state.nsl;
  // NodeUnschedulable (plus the Ready condition, for nodes without the node lifecycle's taints).
  if (!ni.ready && !ni.taints.some((t) => t.key === 'node.kubernetes.io/not-ready' || t.key === 'node.kubernetes.io/unreachable')) {
    if (!tolerated({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }, p.tolerations)) return fail(ERR_NOT_READY, true);
  }
  if (ni.unschedulable && !tolerated({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }, p.tolerations)) return fail(ERR_UNSCHEDULABLE, true);
  // TaintToleration
  const taint = untoleratedTaint(ni, p, hardEffect);
  if (taint) return fail(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`, true);
  // NodeAffinity
  if (!nodeAffinityMatches(p, ni.labels, ni.name)) return fail(ERR_NODE_AFFINITY, true);
  // NodePorts
  if (p.hostPorts.length > 0 && !portsFree(ni, p)) return fail(ERR_PORTS);
  // NodeResourcesFit
  const fit = fitsResources(ni, p);
  if (fit) return fit;
  // VolumeBinding
  if (state.volumes) {
    const v = state.volumes;
    const d = findPodVolumes(v.claims, ni, v.allVolumes, v.reserved);
    if (d.reasons.length > 0) return { reasons: d.reasons, unresolvable: true };
  }
  // PodTopologySpread
  for (const s of state.spread) {
    const d = ni.labels[s.c.topologyKey];
    if (d === undefined) return fail(ERR_SPREAD_LABEL, true);
    for (const o of state.spread) if (!(o.c.topologyKey in ni.labels)) return fail(ERR_SPREAD_LABEL, true);
    const skew = (s.counts.get(d) ?? 0) + s.selfMatch - s.minMatch;
    if (skew > s.c.maxSkew) return fail(ERR_SPREAD);
  }
  // InterPodAffinity
  if (state.affinityCounts) {
    let ok = true;
    for (const t of p.affinity) {
      const v = ni.labels[t.topologyKey];
      if (v === undefined || !(state.affinityCounts.get(pair(t.topologyKey, v)) ?? 0)) {
        ok = false;
        break;
      }
    }
    if (!ok) {
      // The first pod of a group that matches its own affinity terms may go anywhere with the keys.
      const selfOk = state.affinityCounts.size === 0 && p.affinity.every((t) => termMatchesPod(t, p, nsl) && t.topologyKey in ni.labels);
      if (!selfOk) return fail(ERR_AFFINITY, true);
    }
  }
  if (state.antiCounts && state.antiCounts.size > 0) {
    for (const t of p.antiAffinity) {
      const v = ni.labels[t.topologyKey];
      if (v !== undefined && (state.antiCounts.get(pair(t.topologyKey, v)) ?? 0) > 0) return fail(ERR_ANTI_AFFINITY);
    }
  }
  if (state.existingAnti) {
    for (const k in ni.labels) if (state.existingAnti.has(pair(k, ni.labels[k]!))) return fail(ERR_EXISTING_ANTI_AFFINITY);
  }
  return undefined;
}

// ------------------------------------------------------------------------------ scores

const MAX = 100;

/** NodeResourcesFit (LeastAllocated, cpu and memory weighted 1). */
export function leastAllocatedScore(ni: NodeInfo, p: PodInfo): number {
  let sum = 0;
  for (const r of ['cpu', MEMORY]) {
    const cap = ni.allocatable[r] ?? 0;
    const req = (ni.nonZeroRequested[r] ?? 0) + (p.nonZero[r] ?? 0);
    sum += cap === 0 || req > cap ? 0 : Math.floor(((cap - req) * MAX) / cap);
  }
  return Math.floor(sum / 2);
}

/** NodeResourcesBalancedAllocation (cpu and memory). */
export function balancedAllocationScore(ni: NodeInfo, p: PodInfo): number {
  const fr: number[] = [];
  for (const r of ['cpu', MEMORY]) {
    const cap = ni.allocatable[r] ?? 0;
    if (cap === 0) continue;
    const req = (ni.requested[r] ?? 0) + (p.requests[r] ?? 0);
    fr.push(Math.min(1, req / cap));
  }
  let std = 0;
  if (fr.length === 2) std = Math.abs((fr[0]! - fr[1]!) / 2);
  return Math.floor((1 - std) * MAX);
}

function normalize(scores: number[], reverse: boolean): void {
  let max = 0;
  for (const s of scores) if (s > max) max = s;
  if (max === 0) {
    if (reverse) scores.fill(MAX);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    const s = Math.floor((MAX * scores[i]!) / max);
    scores[i] = reverse ? MAX - s : s;
  }
}

/** Weighted scores of the feasible nodes (weights of the default profile). */
export function score(cache: SchedulerCache, state: CycleState, nodes: NodeInfo[]): number[] {
  const p = state.pod;
  const n = nodes.length;
  const total = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) total[i] = leastAllocatedScore(nodes[i]!, p) + balancedAllocationScore(nodes[i]!, p);
  // NodeAffinity (weight 2)
  if (p.preferredNodeAffinity.length > 0) {
    const s = nodes.map((ni) => p.preferredNodeAffinity.reduce((acc, t) => acc + (t.matches(ni.labels, ni.name) ? t.weight : 0), 0));
    normalize(s, false);
    for (let i = 0; i < n; i++) total[i]! += 2 * s[i]!;
  }
  // TaintToleration (weight 3)
  {
    const prefer = p.tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    const s = nodes.map((ni) => ni.taints.reduce((acc, t) => acc + (t.effect === 'PreferNoSchedule' && !tolerated(t, prefer) ? 1 : 0), 0));
    normalize(s, true);
    for (let i = 0; i < n; i++) total[i]! += 3 * s[i]!;
  }
  // InterPodAffinity (weight 2)
  const ipa = interPodAffinityScores(cache, p, nodes);
  if (ipa) for (let i = 0; i < n; i++) total[i]! += 2 * ipa[i]!;
  // PodTopologySpread (weight 2)
  const soft = p.spread.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
  if (soft.length > 0) {
    const sp = spreadScores(cache, p, soft, nodes, !p.spreadSystemDefaulted);
    for (let i = 0; i < n; i++) total[i]! += 2 * sp[i]!;
  }
  return total;
}

function interPodAffinityScores(cache: SchedulerCache, p: PodInfo, nodes: NodeInfo[]): number[] | undefined {
  const nsl = cache.namespaceLabels;
  const incoming = p.preferredAffinity.length + p.preferredAntiAffinity.length > 0;
  if (!incoming && cache.podsWithAffinity.size === 0) return undefined;
  const pairs = new Map<string, Map<string, number>>();
  const add = (key: string, ni: NodeInfo, w: number) => {
    const v = ni.labels[key];
    if (v === undefined || w === 0) return;
    let m = pairs.get(key);
    if (!m) pairs.set(key, (m = new Map()));
    m.set(v, (m.get(v) ?? 0) + w);
  };
  const visit = (ep: PodInfo, ni: NodeInfo) => {
    for (const t of p.preferredAffinity) if (termMatchesPod(t, ep, nsl)) add(t.topologyKey, ni, t.weight);
    for (const t of p.preferredAntiAffinity) if (termMatchesPod(t, ep, nsl)) add(t.topologyKey, ni, -t.weight);
    for (const t of ep.affinity) if (termMatchesPod(t, p, nsl)) add(t.topologyKey, ni, 1);
    for (const t of ep.preferredAffinity) if (termMatchesPod(t, p, nsl)) add(t.topologyKey, ni, t.weight);
    for (const t of ep.preferredAntiAffinity) if (termMatchesPod(t, p, nsl)) add(t.topologyKey, ni, -t.weight);
  };
  if (incoming) {
    for (const ni of cache.nodes()) for (const ep of ni.pods.values()) visit(ep, ni);
  } else {
    for (const ep of cache.podsWithAffinity) {
      const ni = cache.nodeInfo(cache.nodeOf(ep.key));
      if (ni) visit(ep, ni);
    }
  }
  if (pairs.size === 0) return undefined;
  const raw = nodes.map((ni) => {
    let s = 0;
    for (const [key, m] of pairs) {
      const v = ni.labels[key];
      if (v !== undefined) s += m.get(v) ?? 0;
    }
    return s;
  });
  let min = Infinity;
  let max = -Infinity;
  for (const s of raw) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const diff = max - min;
  return raw.map((s) => (diff > 0 ? Math.floor((MAX * (s - min)) / diff) : 0));
}

function spreadScores(cache: SchedulerCache, p: PodInfo, constraints: SpreadConstraint[], nodes: NodeInfo[], requireAll: boolean): number[] {
  const keys = constraints.map((c) => c.topologyKey);
  // Constraints sharing a selector (the system defaults do) count each node's pods once.
  const memo = new Map<SpreadConstraint['matches'], Map<NodeInfo, number>>();
  const states = constraints.map((c) => {
    const counts = new Map<string, number>();
    const hostname = c.topologyKey === 'kubernetes.io/hostname';
    const own = requireAll ? keys : [c.topologyKey];
    let perNode = memo.get(c.matches);
    if (!perNode) memo.set(c.matches, (perNode = cache.matchingPodCounts(p.namespace, c.matches)));
    for (const ni of hostname ? nodes : cache.nodes()) {
      if (!spreadEligible(ni, p, c, own)) continue;
      const d = ni.labels[c.topologyKey]!;
      counts.set(d, (counts.get(d) ?? 0) + (perNode.get(ni) ?? 0));
    }
    return { c, counts, weight: Math.log(counts.size + 2) };
  });
  const ignored: boolean[] = [];
  const raw = nodes.map((ni, i) => {
    if (requireAll ? !keys.every((k) => k in ni.labels) : !keys.some((k) => k in ni.labels)) {
      ignored[i] = true;
      return 0;
    }
    let s = 0;
    for (const st of states) {
      const v = ni.labels[st.c.topologyKey];
      if (v !== undefined) s += ((st.counts.get(v) ?? 0) + st.c.maxSkew - 1) * st.weight;
    }
    return Math.round(s);
  });
  let min = Infinity;
  let max = 0;
  raw.forEach((s, i) => {
    if (ignored[i]) return;
    if (s < min) min = s;
    if (s > max) max = s;
  });
  return raw.map((s, i) => {
    if (ignored[i]) return 0;
    if (max === 0) return MAX;
    return Math.floor((MAX * (max + min - s)) / max);
  });
}

// ------------------------------------------------------------------------------ the cycle

export interface ScheduleResult {
  node?: string;
  /** When no node fits: FitError's message. */
  message?: string;
  /** Nodes evaluated (for the next cycle's start index). */
  evaluated: number;
}

/** kube-scheduler's numFeasibleNodesToFind with the adaptive percentage. */
export function numFeasibleNodesToFind(numAll: number): number {
  if (numAll < 100) return numAll;
  let pct = 50 - Math.floor(numAll / 125);
  if (pct < 5) pct = 5;
  const n = Math.floor((numAll * pct) / 100);
  return n < 100 ? 100 : n;
}

/** FitError.Error(): `0/N nodes are available: <PreFilter's message, or the sorted reason histogram>. preemption: ...`. */
export function fitErrorMessage(numAll: number, statuses: FilterStatus[], pod?: PodInfo, preFilterMessage?: string): string {
  if (numAll === 0) return NO_NODES;
  const hist = (sts: FilterStatus[]): string => {
    const counts = new Map<string, number>();
    for (const s of sts) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    const strs = [...counts].map(([r, c]) => `${c} ${r}`);
    strs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return strs.join(', ');
  };
  let msg = `0/${numAll} nodes are available:`;
  const h = preFilterMessage ?? hist(statuses);
  if (h) msg += ` ${h}.`;
  let post: string;
  if (pod?.preemptionNever) post = 'preemption: not eligible due to preemptionPolicy=Never.';
  else {
    const pst = statuses.map((s) => ({ reasons: [s.unresolvable ? PREEMPTION_NOT_HELPFUL : NO_VICTIMS], unresolvable: s.unresolvable }));
    post = `preemption: 0/${numAll} nodes are available: ${hist(pst)}.`;
  }
  return `${msg} ${post}`;
}

/** One cycle for one pod over the cache; `start` rotates where the node scan begins. */
export function schedulePod(cache: SchedulerCache, p: PodInfo, start = 0, random: () => number = Math.random, volumes?: VolumeCycle | { error: string }): ScheduleResult {
  const all = cache.nodes();
  const numAll = all.length;
  if (numAll === 0) return { message: NO_NODES, evaluated: 0 };
  if (volumes && 'error' in volumes) {
    // A PreFilter failure: every node is unschedulable and unresolvable for it.
    const statuses = all.map(() => fail(volumes.error, true));
    return { message: fitErrorMessage(numAll, statuses, p, volumes.error), evaluated: 0 };
  }
  const state = preFilter(cache, p);
  if (volumes) state.volumes = volumes;
  const want = numFeasibleNodesToFind(numAll);
  const feasible: NodeInfo[] = [];
  const failed: FilterStatus[] = [];
  let evaluated = 0;
  for (let i = 0; i < numAll && feasible.length < want; i++) {
    const ni = all[(start + i) % numAll]!;
    evaluated++;
    const st = filter(state, ni);
    if (st) failed.push(st);
    else feasible.push(ni);
  }
  if (feasible.length === 0) return { message: fitErrorMessage(numAll, failed, p), evaluated };
  if (feasible.length === 1) return { node: feasible[0]!.name, evaluated };
  const scores = score(cache, state, feasible);
  let best = -Infinity;
  let chosen = 0;
  let ties = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (s > best) {
      best = s;
      chosen = i;
      ties = 1;
    } else if (s === best) {
      ties++;
      if (random() * ties < 1) chosen = i;
    }
  }
  return { node: feasible[chosen]!.name, evaluated };
}
