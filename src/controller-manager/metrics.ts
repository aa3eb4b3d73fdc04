// The daemon's Prometheus metrics beyond prom-client's process metrics: client-go's workqueue_*
// metrics of every named work queue of the process (read from src/client/workqueue.ts' counters
// at scrape time).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { RestClientMetrics } from '../client/rest.js';
import { workQueueMetrics, type WorkQueueMetricsSet } from '../client/workqueue.js';
import { nodeCollectorMetrics, type NodeCollectorMetricsSet, type ZoneMetrics } from '../controllers/nodelifecycle/metrics.js';

/** A summary-typed metric whose _sum and _count are read at scrape time. */
function summary(registry: Registry, name: string, help: string, read: () => { labels: Record<string, string>; sum: number; count: number }[]): void {
  const metric = {
    name,
    help,
    type: 'summary',
    aggregator: 'sum',
    get: async () => ({
      name,
      help,
      type: 'summary',
      aggregator: 'sum',
      values: read().flatMap((v) => [
        { labels: v.labels, value: v.sum, metricName: `${name}_sum` },
        { labels: v.labels, value: v.count, metricName: `${name}_count` },
      ]),
    }),
    reset: () => {},
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}

/** The workqueue_* metrics of `queues` (default: the process's queues made outside a controller manager). */
export function registerWorkQueueMetrics(registry: Registry, queues?: WorkQueueMetricsSet): void {
  new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    labelNames: ['name'],
    registers: [registry],
    collect() {
      this.reset();
      for (const m of workQueueMetrics(queues)) this.set({ name: m.name }, m.depth);
    },
  });
  new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames: ['name'],
    registers: [registry],
    collect() {
      this.reset();
      for (const m of workQueueMetrics(queues)) this.inc({ name: m.name }, m.adds);
    },
  });
  new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames: ['name'],
    registers: [registry],
    collect() {
      this.reset();
      for (const m of workQueueMetrics(queues)) this.inc({ name: m.name }, m.retries);
    },
  });
  summary(registry, 'workqueue_queue_duration_seconds', 'How long in seconds an item stays in workqueue before being requested.', () =>
    workQueueMetrics(queues).map((m) => ({ labels: { name: m.name }, sum: m.queueLatencyMsSum / 1000, count: m.queueLatencyCount })),
  );
  summary(registry, 'workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes.', () =>
    workQueueMetrics(queues).map((m) => ({ labels: { name: m.name }, sum: m.workDurationMsSum / 1000, count: m.workDurationCount })),
  );
}

/** client-go's rest_client_requests_total and rest_client_request_duration_seconds, from the REST client's counters. */
export function registerRestClientMetrics(registry: Registry, metrics: RestClientMetrics, host: string): void {
  new Counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [key, n] of metrics.requests) {
        const [code = '', method = ''] = key.split(' ');
        this.inc({ code, method, host }, n);
      }
    },
  });
  summary(registry, 'rest_client_request_duration_seconds', 'Request latency in seconds.', () => [{ labels: { host }, sum: metrics.latencyMsSum / 1000, count: metrics.latencyCount }]);
  new Counter({
    name: 'rest_client_request_retries_total',
    help: 'Number of request retries.',
    labelNames: ['host'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ host }, metrics.retries);
    },
  });
}

/** The node lifecycle controller's node_collector_* metrics, per zone. */
export function registerNodeCollectorMetrics(registry: Registry, controllers?: NodeCollectorMetricsSet): void {
  const perZone = (name: string, help: string, read: (z: ZoneMetrics) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['zone'],
      registers: [registry],
      collect() {
        this.reset();
        for (const m of nodeCollectorMetrics(controllers)) for (const [zone, z] of m.zones) this.set({ zone }, read(z));
      },
    });
  perZone('node_collector_zone_size', 'Gauge measuring number of registered Nodes per zones.', (z) => z.size);
  perZone('node_collector_zone_health', 'Gauge measuring percentage of healthy nodes per zone.', (z) => z.health);
  perZone('node_collector_unhealthy_nodes_in_zone', 'Gauge measuring number of not Ready Nodes per zones.', (z) => z.unhealthy);
  new Counter({
    name: 'node_collector_evictions_total',
    help: 'Number of Node evictions that happened since current instance of NodeController started.',
    labelNames: ['zone'],
    registers: [registry],
    collect() {
      this.reset();
      for (const m of nodeCollectorMetrics(controllers)) for (const [zone, n] of m.evictions) this.inc({ zone }, n);
    },
  });
}
