// A simulated node's resource statistics, from the usage model metrics.k8s.io serves
// (api/metrics/usage.ts: the same numbers `kubectl top` shows): the kubelet's /stats/summary
// (stats/v1alpha1 Summary, what metrics-server scraped before /metrics/resource) and
// /metrics/resource (Prometheus text, what metrics-server scrapes). CPU time is the usage rate
// over the time since the container (or the node) started, so counters grow as a real one would.
import { nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import { isMeasured, limitOf, nodeUsage, podDemand, podUsage, totalOf, type Usage } from '../../api/metrics/usage.js';
import type { Pod } from '../../api/types.js';

export interface StatsInput {
  node: string;
  /** When the node (this agent) started, ms. */
  nodeStart: number;
  now: number;
  pods: readonly Pod[];
  /** The node's memory capacity in bytes. */
  memoryCapacity: number;
}

const cores = (u: Usage): number => u.cpu.milliValue() / 1000;
const bytes = (u: Usage): number => u.memory.value();
const startOf = (pod: Pod): number => {
  const t = Date.parse(pod.status?.startTime ?? '');
  return Number.isNaN(t) ? 0 : t;
};
const containerStart = (pod: Pod, name: string): number => {
  const st = (pod.status?.containerStatuses ?? []).find((s) => s.name === name);
  const t = Date.parse(st?.state?.running?.startedAt ?? '');
  return Number.isNaN(t) ? startOf(pod) : t;
};

function nodeUsageOf(input: StatsInput): Usage {
  return nodeUsage({ metadata: { name: input.node } }, input.pods);
}

/** /stats/summary. */
export function summary(input: StatsInput): Record<string, unknown> {
  const time = new Date(input.now).toISOString();
  const cpu = (u: Usage, since: number) => ({ time, usageNanoCores: Math.round(cores(u) * 1e9), usageCoreNanoSeconds: Math.round(cores(u) * Math.max(0, input.now - since) * 1e6) });
  const memory = (u: Usage, capacity?: number) => ({
    time,
    ...(capacity !== undefined ? { availableBytes: Math.max(0, capacity - bytes(u)) } : {}),
    usageBytes: bytes(u),
    workingSetBytes: bytes(u),
    rssBytes: bytes(u),
    pageFaults: 0,
    majorPageFaults: 0,
  });
  const node = nodeUsageOf(input);
  return {
    node: {
      nodeName: input.node,
      startTime: new Date(input.nodeStart).toISOString(),
      cpu: cpu(node, input.nodeStart),
      memory: memory(node, input.memoryCapacity),
      systemContainers: [],
    },
    pods: input.pods.filter(isMeasured).map((pod) => {
      const containers = podUsage(pod).containers;
      const start = startOf(pod);
      return {
        podRef: { name: nameOf(pod), namespace: namespaceOf(pod), uid: uidOf(pod) },
        startTime: new Date(start).toISOString(),
        containers: containers.map((c) => {
          const since = containerStart(pod, c.name);
          return { name: c.name, startTime: new Date(since).toISOString(), cpu: cpu(c.usage, since), memory: memory(c.usage) };
        }),
        cpu: cpu(totalOf(containers), start),
        memory: memory(totalOf(containers)),
      };
    }),
  };
}

const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** /metrics/resource, as the kubelet's resource metrics collector writes it. */
export function resourceMetrics(input: StatsInput): string {
  const ts = input.now;
  const node = nodeUsageOf(input);
  const seconds = (u: Usage, since: number) => (cores(u) * Math.max(0, ts - since)) / 1000;
  const lines: string[] = [];
  const family = (name: string, help: string, type: string, samples: string[]) => {
    lines.push(`# HELP ${name} [STABLE] ${help}`, `# TYPE ${name} ${type}`, ...samples);
  };
  const pods = input.pods.filter(isMeasured);
  const per = pods.flatMap((pod) => podUsage(pod).containers.map((c) => ({ pod, c, labels: `container="${label(c.name)}",namespace="${label(namespaceOf(pod))}",pod="${label(nameOf(pod))}"` })));
  family('container_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the container in core-seconds', 'counter', per.map(({ pod, c, labels }) => `container_cpu_usage_seconds_total{${labels}} ${seconds(c.usage, containerStart(pod, c.name))} ${ts}`));
  family('container_memory_working_set_bytes', 'Current working set of the container in bytes', 'gauge', per.map(({ c, labels }) => `container_memory_working_set_bytes{${labels}} ${bytes(c.usage)} ${ts}`));
  family('container_start_time_seconds', 'Start time of the container since unix epoch in seconds', 'gauge', per.map(({ pod, c, labels }) => `container_start_time_seconds{${labels}} ${containerStart(pod, c.name) / 1000} ${ts}`));
  family('node_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the node in core-seconds', 'counter', [`node_cpu_usage_seconds_total ${seconds(node, input.nodeStart)} ${ts}`]);
  family('node_memory_working_set_bytes', 'Current working set of the node in bytes', 'gauge', [`node_memory_working_set_bytes ${bytes(node)} ${ts}`]);
  const podLabels = (pod: Pod) => `namespace="${label(namespaceOf(pod))}",pod="${label(nameOf(pod))}"`;
  family('pod_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the pod in core-seconds', 'counter', pods.map((pod) => `pod_cpu_usage_seconds_total{${podLabels(pod)}} ${seconds(totalOf(podUsage(pod).containers), startOf(pod))} ${ts}`));
  family('pod_memory_working_set_bytes', 'Current working set of the pod in bytes', 'gauge', pods.map((pod) => `pod_memory_working_set_bytes{${podLabels(pod)}} ${bytes(totalOf(podUsage(pod).containers))} ${ts}`));
  family('resource_scrape_error', '1 if there was an error while getting container metrics, 0 otherwise', 'gauge', ['resource_scrape_error 0']);
  return `${lines.join('\n')}\n`;
}

/** The CFS period the kernel enforces a CPU limit over (cpu.cfs_period_us, 100 ms). */
const CFS_PERIOD_SECONDS = 0.1;

/**
 * /metrics/cadvisor's CPU throttling families, for each running container with a CPU limit: the
 * periods it ran, those in which it used up its quota (every one while it would use more than its
 * limit: `kubelite.dev/usage`), and the time it spent throttled (its share of each period it
 * waited: 1 − limit/demand).
 */
export function cadvisorMetrics(input: StatsInput): string {
  const ts = input.now;
  const periods: string[] = [];
  const throttledPeriods: string[] = [];
  const throttledSeconds: string[] = [];
  for (const pod of input.pods.filter(isMeasured)) {
    const demand = podDemand(pod).containers;
    for (const c of pod.spec?.containers ?? []) {
      const limit = limitOf(c, 'cpu');
      const wants = demand.find((d) => d.name === c.name)?.usage.cpu;
      if (!limit || limit.isZero() || !wants) continue;
      const seconds = Math.max(0, ts - containerStart(pod, c.name ?? '')) / 1000;
      const n = Math.floor(seconds / CFS_PERIOD_SECONDS);
      const over = wants.cmp(limit) > 0;
      const labels = `container="${label(c.name ?? '')}",image="${label(c.image ?? '')}",namespace="${label(namespaceOf(pod))}",pod="${label(nameOf(pod))}"`;
      periods.push(`container_cpu_cfs_periods_total{${labels}} ${n} ${ts}`);
      throttledPeriods.push(`container_cpu_cfs_throttled_periods_total{${labels}} ${over ? n : 0} ${ts}`);
      throttledSeconds.push(`container_cpu_cfs_throttled_seconds_total{${labels}} ${over ? seconds * (1 - limit.milliValue() / wants.milliValue()) : 0} ${ts}`);
    }
  }
  const family = (name: string, help: string, samples: string[]) => [`# HELP ${name} ${help}`, `# TYPE ${name} counter`, ...samples];
  return `${[
    ...family('container_cpu_cfs_periods_total', 'Number of elapsed enforcement period intervals.', periods),
    ...family('container_cpu_cfs_throttled_periods_total', 'Number of throttled period intervals.', throttledPeriods),
    ...family('container_cpu_cfs_throttled_seconds_total', 'Total time duration the container has been throttled.', throttledSeconds),
  ].join('\n')}\n`;
}
