// The node lifecycle controller's metrics (Kubernetes' node_collector_* subsystem): per zone its size,
// the percentage of Ready nodes, the number of unhealthy nodes and the NoExecute taints applied.
// Kept here as plain numbers; the controller manager's /metrics reads them at scrape time.
import { RegistrationScope } from '../../machinery/registration-scope.js';

export interface ZoneMetrics {
  size: number;
  /** Percentage of the zone's nodes that are Ready. */
  health: number;
  unhealthy: number;
}

export class NodeCollectorMetrics {
  readonly zones = new Map<string, ZoneMetrics>();
  readonly evictions = new Map<string, number>();

  /** Removes them from the set they were made in (newNodeCollectorMetrics). */
  release: () => void = () => {};

  evicted(zone: string): void {
    this.evictions.set(zone, (this.evictions.get(zone) ?? 0) + 1);
  }
}

/** The metrics of a controller manager's node lifecycle controllers. */
export type NodeCollectorMetricsSet = Set<NodeCollectorMetrics>;

const metricSets = new RegistrationScope<NodeCollectorMetricsSet>(new Set());

/**
 * Runs `construct` with the metrics it makes kept in `into` rather than the process's set, so
 * that each controller manager reports its own when several share a process (synchronous: the
 * controller makes them in its constructor).
 */
export function registeringNodeCollectorMetricsIn<T>(into: NodeCollectorMetricsSet, construct: () => T): T {
  return metricSets.within(into, construct);
}

/** The metrics of every node lifecycle controller of `from` (default: those made outside any set). */
export function nodeCollectorMetrics(from: NodeCollectorMetricsSet = metricSets.processDefault): readonly NodeCollectorMetrics[] {
  return [...from];
}

/** New metrics, kept in the set being registered into until released. */
export function newNodeCollectorMetrics(): NodeCollectorMetrics {
  const m = new NodeCollectorMetrics();
  const set = metricSets.target;
  set.add(m);
  m.release = () => set.delete(m);
  return m;
}

export function releaseNodeCollectorMetrics(m: NodeCollectorMetrics): void {
  m.release();
}
