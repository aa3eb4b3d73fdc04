// The simulated resource usage behind metrics.k8s.io: what each container of a Running pod "uses",
// and what a node uses (its Running pods plus the system's share). No container runs, so usage is
// a model: by default half of what a container requests (a small floor when it requests nothing),
// or what annotations on the pod say, named like the other simulation annotations
// (src/nodes/README.md): `kubelite.dev/usage` on the pod for every container, and
// `kubelite.dev/<container>.usage` for one container, which wins; values `cpu=200m,memory=64Mi`
// (either key may be left out: that resource keeps its default). Pure functions of the objects, so
// the API server (from its watch cache) and the simulated nodes can both compute it.
import { annotationsOf, nameOf } from '../meta/object.js';
import { Quantity, parseQuantity } from '../meta/quantity.js';
import type { Container, Node, Pod } from '../types.js';

export const USAGE_ANNOTATION = 'kubelite.dev/usage';
/** The per-container key: `kubelite.dev/<container>.usage`. */
export const containerUsageAnnotation = (container: string): string => `kubelite.dev/${container}.usage`;

/** The share of a container's request it uses when no annotation says otherwise. */
export const DEFAULT_REQUEST_FRACTION = 0.5;
/** What a container without a request uses (of that resource). */
export const FLOOR_USAGE = { cpu: '1m', memory: '4Mi' } as const;
/** A node's own usage (kubelet, runtime, system daemons), added to its pods'. */
export const NODE_SYSTEM_OVERHEAD = { cpu: '100m', memory: '256Mi' } as const;
/** The window metrics-server reports: the span its CPU rate is measured over. */
export const METRICS_WINDOW = '10s';

export type ResourceName = 'cpu' | 'memory';
export interface Usage {
  cpu: Quantity;
  memory: Quantity;
}

export class UsageAnnotationError extends Error {}

/**
 * `cpu=200m,memory=64Mi` (spaces around items allowed; either key optional) → the quantities it
 * sets. Throws UsageAnnotationError saying what is wrong: an item without `=`, an unknown or
 * repeated resource, a value that is no quantity or is negative.
 */
export function parseUsage(text: string): Partial<Usage> {
  const out: Partial<Usage> = {};
  const items = text.split(',').map((s) => s.trim());
  if (items.every((s) => s === '')) throw new UsageAnnotationError('is empty: expected cpu=<quantity>,memory=<quantity>');
  for (const item of items) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) throw new UsageAnnotationError(`${JSON.stringify(item)} is not <resource>=<quantity>`);
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key !== 'cpu' && key !== 'memory') throw new UsageAnnotationError(`unknown resource ${JSON.stringify(key)}: only cpu and memory have usage`);
    if (out[key] !== undefined) throw new UsageAnnotationError(`${key} is given twice`);
    const q = parseQuantity(value);
    if (!q) throw new UsageAnnotationError(`${key}: ${JSON.stringify(value)} is not a quantity`);
    if (q.sign() < 0) throw new UsageAnnotationError(`${key}: ${JSON.stringify(value)} is negative`);
    out[key] = q;
  }
  return out;
}

function defaultUsage(container: Container): Usage {
  const requests = container.resources?.requests ?? {};
  const of = (r: ResourceName): Quantity => {
    const req = typeof requests[r] === 'string' ? parseQuantity(requests[r]!) : undefined;
    const floor = Quantity.parse(FLOOR_USAGE[r]);
    if (!req || req.isZero()) return floor;
    // Half the request: milli-cores for cpu, whole bytes for memory (rounded down, as a gauge reads).
    const half = r === 'cpu' ? Quantity.fromMilli(Math.floor(req.milliValue() * DEFAULT_REQUEST_FRACTION)) : Quantity.fromValue(Math.floor(req.value() * DEFAULT_REQUEST_FRACTION), 'BinarySI');
    return half.cmp(floor) < 0 ? floor : half;
  };
  return { cpu: of('cpu'), memory: of('memory') };
}

export interface ContainerUsage {
  name: string;
  usage: Usage;
}

/** A problem with a pod's usage annotations; the container then uses its default. */
export interface UsageProblem {
  annotation: string;
  message: string;
}

/** Whether metrics-server would report the pod: only Running pods are measured. */
export const isMeasured = (pod: Pod): boolean => pod.status?.phase === 'Running';

/** A container's limit of `r`, when it has one. */
export function limitOf(container: Container, r: ResourceName): Quantity | undefined {
  const v = container.resources?.limits?.[r];
  return typeof v === 'string' ? parseQuantity(v) ?? undefined : undefined;
}

/**
 * The usage of each container of `pod` as measured: what it would use (`podDemand`) held to its
 * limits — CPU over its limit is throttled to it, and memory never exceeds it (a container that
 * would use more is OOM-killed: src/nodes/behaviour.ts).
 */
export function podUsage(pod: Pod): { containers: ContainerUsage[]; problems: UsageProblem[] } {
  const { containers, problems } = podDemand(pod);
  const specs = pod.spec?.containers ?? [];
  const capped = containers.map((c, i) => {
    const cap = (r: ResourceName): Quantity => {
      const limit = limitOf(specs[i]!, r);
      return limit && c.usage[r].cmp(limit) > 0 ? limit : c.usage[r];
    };
    return { name: c.name, usage: { cpu: cap('cpu'), memory: cap('memory') } };
  });
  return { containers: capped, problems };
}

/** What each container of `pod` would use (annotations or defaults), whatever its limits; and the annotations rejected. */
export function podDemand(pod: Pod): { containers: ContainerUsage[]; problems: UsageProblem[] } {
  const annotations = annotationsOf(pod);
  const problems: UsageProblem[] = [];
  const read = (key: string): Partial<Usage> => {
    const text = annotations[key];
    if (text === undefined) return {};
    try {
      return parseUsage(text);
    } catch (err) {
      if (!(err instanceof UsageAnnotationError)) throw err;
      if (!problems.some((p) => p.annotation === key)) problems.push({ annotation: key, message: err.message });
      return {};
    }
  };
  const podWide = read(USAGE_ANNOTATION);
  const containers = (pod.spec?.containers ?? []).map((c) => {
    const name = c.name ?? '';
    return { name, usage: { ...defaultUsage(c), ...podWide, ...read(containerUsageAnnotation(name)) } };
  });
  return { containers, problems };
}

const sum = (usages: readonly Usage[], base: Usage): Usage =>
  usages.reduce((acc, u) => ({ cpu: acc.cpu.add(u.cpu), memory: acc.memory.add(u.memory) }), base);

/** The usage of one pod: the sum of its containers'. */
export const totalOf = (containers: readonly ContainerUsage[]): Usage =>
  sum(containers.map((c) => c.usage), { cpu: Quantity.fromMilli(0), memory: Quantity.fromValue(0, 'BinarySI') });

/** A node's usage: the system overhead plus the usage of the measured pods bound to it. */
export function nodeUsage(node: Node, pods: readonly Pod[]): Usage {
  const name = nameOf(node);
  const mine = pods.filter((p) => p.spec?.nodeName === name && isMeasured(p));
  return sum(mine.map((p) => totalOf(podUsage(p).containers)), { cpu: Quantity.parse(NODE_SYSTEM_OVERHEAD.cpu), memory: Quantity.parse(NODE_SYSTEM_OVERHEAD.memory) });
}

/** Whether metrics-server could scrape the node: its kubelet reports Ready. */
export const isNodeMeasured = (node: Node): boolean => (node.status?.conditions ?? []).some((c) => c?.type === 'Ready' && c.status === 'True');
