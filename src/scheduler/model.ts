// The scheduler's view of pods and nodes: each pod and node parsed once into what the filters and
// scores read (kube-scheduler's framework.PodInfo / NodeInfo), so the per-node loop touches plain
// numbers and precompiled matchers only.
import { compileLabelSelector, type LabelSelectorObject } from '../machinery/selectors/index.js';
import { deletionTimestampOf, labelsOf, nameOf, namespaceOf, uidOf } from '../api/meta/object.js';
import { parseQuantity } from '../api/meta/quantity.js';
import type * as api from '../api/types.js';
import { compileNodeSelectorTerm as compileTerm, compileNodeSelectorTerms as compileTerms, toleratesTaint, type NodeMatcher, type Taint, type Toleration } from '../machinery/selectors/node-affinity.js';

// ------------------------------------------------------------------------------ resources

/** Resource amounts: `cpu` in millicores, everything else in units (bytes for memory). */
export type Resources = Record<string, number>;

const CPU = 'cpu';
export const MEMORY = 'memory';
export const EPHEMERAL = 'ephemeral-storage';
/** kube-scheduler's defaults for a container without a cpu/memory request, when scoring. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

const quantityCache = new Map<string, number>();
/** A quantity string as the scheduler counts it (milli for cpu); unparsable → 0. */
export function amountOf(resource: string, q: unknown): number {
  if (typeof q === 'number') return resource === CPU ? q * 1000 : q;
  if (typeof q !== 'string') return 0;
  const k = resource === CPU ? `m${q}` : q;
  let v = quantityCache.get(k);
  if (v === undefined) {
    const parsed = parseQuantity(q);
    v = parsed === undefined ? 0 : resource === CPU ? parsed.milliValue() : parsed.value();
    if (quantityCache.size > 10_000) quantityCache.clear();
    quantityCache.set(k, v);
  }
  return v;
}

export function resourcesOf(list: Readonly<Record<string, string>> | null | undefined): Resources {
  const out: Resources = {};
  if (typeof list !== 'object' || list === null) return out;
  for (const [name, q] of Object.entries(list)) out[name] = amountOf(name, q);
  return out;
}

function addInto(into: Resources, r: Resources, sign = 1): void {
  for (const k in r) into[k] = (into[k] ?? 0) + sign * r[k]!;
}

function maxInto(into: Resources, r: Resources): void {
  for (const k in r) if ((into[k] ?? 0) < r[k]!) into[k] = r[k]!;
}

/**
 * resourcehelper.PodRequests: max(sum of the containers (plus restartable init containers, which
 * run beside them), each init container plus the sidecars started before it) plus the overhead.
 * `nonZero` replaces a missing cpu/memory request of a container by the scoring defaults.
 */
export function podRequests(spec: api.PodSpec, nonZero = false): Resources {
  const reqsOf = (c: api.Container): Resources => {
    const r = resourcesOf(c.resources?.requests);
    if (nonZero) {
      if (!(CPU in r)) r[CPU] = DEFAULT_MILLI_CPU_REQUEST;
      if (!(MEMORY in r)) r[MEMORY] = DEFAULT_MEMORY_REQUEST;
    }
    return r;
  };
  const reqs: Resources = {};
  for (const c of spec.containers ?? []) addInto(reqs, reqsOf(c));
  const restartable: Resources = {};
  const initMax: Resources = {};
  for (const c of spec.initContainers ?? []) {
    const r = reqsOf(c);
    if (c.restartPolicy === 'Always') {
      addInto(reqs, r);
      addInto(restartable, r);
      maxInto(initMax, { ...restartable });
    } else {
      const tmp = { ...r };
      addInto(tmp, restartable);
      maxInto(initMax, tmp);
    }
  }
  maxInto(reqs, initMax);
  addInto(reqs, resourcesOf(spec.overhead));
  return reqs;
}

// ------------------------------------------------------------------------------ matching helpers

export type { NodeMatcher, Taint, Toleration } from '../machinery/selectors/node-affinity.js';
export { toleratesTaint, compileNodeSelectorTerm as compileTerm, compileNodeSelectorTerms as compileTerms } from '../machinery/selectors/node-affinity.js';

export function tolerated(taint: Taint, tolerations: readonly Toleration[]): boolean {
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

export type LabelMatcher = (labels: Readonly<Record<string, string>>) => boolean;

export function labelMatcher(sel: LabelSelectorObject | null | undefined): LabelMatcher {
  try {
    return compileLabelSelector(sel);
  } catch {
    return () => false;
  }
}

// ------------------------------------------------------------------------------ pods

export interface AffinityTerm {
  matches: LabelMatcher;
  /** Namespaces the term selects; undefined: all (an empty namespaceSelector). */
  namespaces: Set<string> | undefined;
  /** A non-empty namespaceSelector: namespaces whose labels it matches are selected too. */
  nsSelector: LabelMatcher | undefined;
  topologyKey: string;
  weight: number;
}

export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  matches: LabelMatcher;
  minDomains: number;
  nodeAffinityPolicy: 'Honor' | 'Ignore';
  nodeTaintsPolicy: 'Honor' | 'Ignore';
}

export interface HostPort {
  port: number;
  protocol: string;
  ip: string;
}

export interface PodInfo {
  key: string;
  namespace: string;
  name: string;
  uid: string;
  pod: api.Pod;
  labels: Readonly<Record<string, string>>;
  nodeName: string;
  requests: Resources;
  nonZero: Resources;
  hostPorts: HostPort[];
  tolerations: Toleration[];
  nodeSelector: Record<string, string> | undefined;
  requiredNodeAffinity: NodeMatcher | undefined;
  preferredNodeAffinity: { weight: number; matches: NodeMatcher }[];
  affinity: AffinityTerm[];
  antiAffinity: AffinityTerm[];
  preferredAffinity: AffinityTerm[];
  preferredAntiAffinity: AffinityTerm[];
  spread: SpreadConstraint[];
  /** `spread` holds the scheduler's default constraints (the pod has none of its own). */
  spreadSystemDefaulted?: boolean;
  priority: number;
  preemptionNever: boolean;
  schedulerName: string;
}

function affinityTerm(namespace: string, t: api.PodAffinityTerm, weight: number): AffinityTerm {
  const listed = t.namespaces ?? [];
  const nsSel = t.namespaceSelector;
  const emptyNsSel = !!nsSel && Object.keys(nsSel.matchLabels ?? {}).length === 0 && (nsSel.matchExpressions ?? []).length === 0;
  return {
    matches: labelMatcher(t.labelSelector ?? null),
    namespaces: emptyNsSel ? undefined : new Set(listed.length > 0 || nsSel ? listed : [namespace]),
    nsSelector: nsSel && !emptyNsSel ? labelMatcher(nsSel) : undefined,
    topologyKey: t.topologyKey ?? '',
    weight,
  };
}

function requiredTerms(namespace: string, terms: readonly api.PodAffinityTerm[] | null | undefined): AffinityTerm[] {
  return (terms ?? []).filter((t) => t).map((t) => affinityTerm(namespace, t, 1));
}

function preferredTerms(namespace: string, terms: readonly api.WeightedPodAffinityTerm[] | null | undefined): AffinityTerm[] {
  const out: AffinityTerm[] = [];
  for (const w of terms ?? []) if (w?.podAffinityTerm) out.push(affinityTerm(namespace, w.podAffinityTerm, Number(w.weight ?? 0)));
  return out;
}

/** The taints the scheduler matches (those with a key; a missing effect matches none). */
function taintsOf(taints: readonly api.Taint[] | null | undefined): Taint[] {
  const out: Taint[] = [];
  for (const t of taints ?? []) if (t && typeof t.key === 'string') out.push({ key: t.key, effect: t.effect ?? '', value: t.value ?? undefined });
  return out;
}

/** Labels of a namespace (from the scheduler's namespace informer), for namespaceSelectors. */
export type NamespaceLabels = (namespace: string) => Readonly<Record<string, string>> | undefined;

export function termMatchesPod(term: AffinityTerm, p: PodInfo, nsLabels?: NamespaceLabels): boolean {
  if (term.namespaces !== undefined && !term.namespaces.has(p.namespace)) {
    if (!term.nsSelector) return false;
    const l = nsLabels?.(p.namespace);
    if (!l || !term.nsSelector(l)) return false;
  }
  return term.matches(p.labels);
}

export function newPodInfo(pod: api.Pod): PodInfo {
  const spec = pod.spec ?? {};
  const namespace = namespaceOf(pod);
  const name = nameOf(pod);
  const labels = labelsOf(pod);
  const hostPorts: HostPort[] = [];
  const containers = [...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...(spec.containers ?? [])];
  for (const c of containers)
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      hostPorts.push({ port: p.hostPort, protocol: p.protocol || 'TCP', ip: p.hostIP || '0.0.0.0' });
    }
  const aff = spec.affinity ?? {};
  const na = aff.nodeAffinity;
  const reqNA = na?.requiredDuringSchedulingIgnoredDuringExecution;
  const prefNA = na?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  const spread: SpreadConstraint[] = [];
  for (const c of spec.topologySpreadConstraints ?? []) {
    let sel: LabelSelectorObject | null = c.labelSelector ?? null;
    const keys = c.matchLabelKeys ?? [];
    if (sel && keys.length > 0) {
      const exprs = [...(sel.matchExpressions ?? [])];
      for (const k of keys) if (k in labels) exprs.push({ key: k, operator: 'In', values: [labels[k]!] });
      sel = { ...sel, matchExpressions: exprs };
    }
    spread.push({
      maxSkew: Number(c.maxSkew ?? 1),
      topologyKey: c.topologyKey ?? '',
      whenUnsatisfiable: c.whenUnsatisfiable === 'ScheduleAnyway' ? 'ScheduleAnyway' : 'DoNotSchedule',
      matches: labelMatcher(sel),
      minDomains: typeof c.minDomains === 'number' ? c.minDomains : 1,
      nodeAffinityPolicy: c.nodeAffinityPolicy === 'Ignore' ? 'Ignore' : 'Honor',
      nodeTaintsPolicy: c.nodeTaintsPolicy === 'Honor' ? 'Honor' : 'Ignore',
    });
  }
  return {
    key: `${namespace}/${name}`,
    namespace,
    name,
    uid: uidOf(pod),
    pod,
    labels,
    nodeName: typeof spec.nodeName === 'string' ? spec.nodeName : '',
    requests: podRequests(spec),
    nonZero: podRequests(spec, true),
    hostPorts,
    tolerations: spec.tolerations ?? [],
    nodeSelector: spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0 ? spec.nodeSelector : undefined,
    requiredNodeAffinity: reqNA ? compileTerms(reqNA.nodeSelectorTerms) : undefined,
    preferredNodeAffinity: prefNA.map((p) => ({ weight: Number(p.weight ?? 0), matches: compileTerm(p.preference ?? {}) })),
    affinity: requiredTerms(namespace, aff.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    antiAffinity: requiredTerms(namespace, aff.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    preferredAffinity: preferredTerms(namespace, aff.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAntiAffinity: preferredTerms(namespace, aff.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    spread,
    priority: typeof spec.priority === 'number' ? spec.priority : 0,
    preemptionNever: spec.preemptionPolicy === 'Never',
    schedulerName: typeof spec.schedulerName === 'string' && spec.schedulerName !== '' ? spec.schedulerName : 'default-scheduler',
  };
}

/** The pod matches the node's labels by nodeSelector and required node affinity. */
export function nodeAffinityMatches(p: PodInfo, labels: Readonly<Record<string, string>>, name: string): boolean {
  if (p.nodeSelector) for (const k in p.nodeSelector) if (labels[k] !== p.nodeSelector[k]) return false;
  if (p.requiredNodeAffinity && !p.requiredNodeAffinity(labels, name)) return false;
  return true;
}

// ------------------------------------------------------------------------------ nodes

export interface NodeInfo {
  name: string;
  node: api.Node;
  labels: Readonly<Record<string, string>>;
  taints: Taint[];
  unschedulable: boolean;
  ready: boolean;
  allocatable: Resources;
  allowedPods: number;
  /** Sum of the requests of the pods on the node (assumed ones included). */
  requested: Resources;
  /** The same with the scoring defaults for missing cpu/memory requests. */
  nonZeroRequested: Resources;
  pods: Map<string, PodInfo>;
  /** `protocol/port` → host IPs in use. */
  usedPorts: Map<string, string[]>;
  /** Pods on the node with required anti-affinity terms. */
  podsWithAntiAffinity: Set<PodInfo>;
  /** Pods on the node with any pod (anti-)affinity terms (for scoring symmetry). */
  podsWithAffinity: Set<PodInfo>;
  generation: number;
}

export function emptyNodeInfo(name: string): NodeInfo {
  return {
    name,
    node: { metadata: { name } },
    labels: {},
    taints: [],
    unschedulable: false,
    ready: false,
    allocatable: {},
    allowedPods: 0,
    requested: {},
    nonZeroRequested: {},
    pods: new Map(),
    usedPorts: new Map(),
    podsWithAntiAffinity: new Set(),
    podsWithAffinity: new Set(),
    generation: 0,
  };
}

export function setNode(ni: NodeInfo, node: api.Node): void {
  const spec = node.spec ?? {};
  const status = node.status ?? {};
  ni.node = node;
  ni.labels = labelsOf(node);
  ni.taints = taintsOf(spec.taints);
  ni.unschedulable = spec.unschedulable === true;
  const conds = status.conditions ?? [];
  ni.ready = conds.some((c) => c.type === 'Ready' && c.status === 'True');
  ni.allocatable = resourcesOf(status.allocatable ?? status.capacity);
  ni.allowedPods = ni.allocatable.pods ?? 0;
  ni.generation++;
}

/** The key of a pod's label set, for the pods counted by spread selectors (undefined: a pod being deleted is not counted). */
export function labelSetKey(p: PodInfo): string | undefined {
  if (deletionTimestampOf(p.pod)) return undefined;
  return JSON.stringify(p.labels);
}

export function addPodToNode(ni: NodeInfo, p: PodInfo): void {
  ni.pods.set(p.key, p);
  addInto(ni.requested, p.requests);
  addInto(ni.nonZeroRequested, p.nonZero);
  for (const hp of p.hostPorts) {
    const k = `${hp.protocol}/${hp.port}`;
    const ips = ni.usedPorts.get(k);
    if (ips) ips.push(hp.ip);
    else ni.usedPorts.set(k, [hp.ip]);
  }
  if (p.antiAffinity.length > 0) ni.podsWithAntiAffinity.add(p);
  if (p.affinity.length + p.antiAffinity.length + p.preferredAffinity.length + p.preferredAntiAffinity.length > 0) ni.podsWithAffinity.add(p);
  ni.generation++;
}

export function removePodFromNode(ni: NodeInfo, key: string): PodInfo | undefined {
  const p = ni.pods.get(key);
  if (!p) return undefined;
  ni.pods.delete(key);
  addInto(ni.requested, p.requests, -1);
  addInto(ni.nonZeroRequested, p.nonZero, -1);
  for (const hp of p.hostPorts) {
    const k = `${hp.protocol}/${hp.port}`;
    const ips = ni.usedPorts.get(k);
    if (!ips) continue;
    const i = ips.indexOf(hp.ip);
    if (i >= 0) ips.splice(i, 1);
    if (ips.length === 0) ni.usedPorts.delete(k);
  }
  ni.podsWithAntiAffinity.delete(p);
  ni.podsWithAffinity.delete(p);
  ni.generation++;
  return p;
}

/** PodTopologySpread's system defaults (ScheduleAnyway: hostname maxSkew 3, zone maxSkew 5) for a selector. */
export function systemDefaultSpread(matches: LabelMatcher): SpreadConstraint[] {
  const base = { whenUnsatisfiable: 'ScheduleAnyway' as const, matches, minDomains: 1, nodeAffinityPolicy: 'Honor' as const, nodeTaintsPolicy: 'Ignore' as const };
  return [
    { ...base, maxSkew: 3, topologyKey: 'kubernetes.io/hostname' },
    { ...base, maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone' },
  ];
}
