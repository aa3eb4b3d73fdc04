// The node lifecycle controller's metrics (Kubernetes' node_collector_* subsystem): per zone its size,
// the percentage of Ready nodes, the number of unhealthy nodes and the NoExecute taints applied.
// Kept here as plain numbers; the controller manager's /metrics reads them at scrape time.

export interface ZoneMetrics {
  size: number;
  /** Percentage of the zone's nodes that are Ready. */
  health: number;
  unhealthy: number;
}

export class NodeCollectorMetrics {
  readonly zones = new Map<string, ZoneMetrics>();
  readonly evictions = new Map<string, number>();

  evicted(zone: string): void {
    this.evictions.set(zone, (this.evictions.get(zone) ?? 0) + 1);
  }
}

const live = new Set<NodeCollectorMetrics>();

/** The metrics of every node lifecycle controller of this process. */
export function nodeCollectorMetrics(): readonly NodeCollectorMetrics[] {
  return [...live];
}

export function newNodeCollectorMetrics(): NodeCollectorMetrics {
  const m = new NodeCollectorMetrics();
  live.add(m);
  return m;
}

export function releaseNodeCollectorMetrics(m: NodeCollectorMetrics): void {
  live.delete(m);
}
