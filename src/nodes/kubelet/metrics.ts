// /metrics of the kubelet listener: a few of the kubelet's own metrics — its node names, running
// pods and containers, and the HTTP requests it served (kubelet_http_requests_total, labelled by method and the path's first segment as the kubelet buckets them).
import type { KubeletHost } from './host.js';

const BUCKETS = new Set(['healthz', 'pods', 'stats', 'metrics', 'metrics/resource', 'containerLogs', 'configz', 'logs', 'exec', 'attach', 'portForward', 'run', 'containerHTTP']);

function bucketOf(url: string): string {
  const path = url.split('?')[0]!.replace(/^\/nodes\/[^/]+/, '');
  const parts = path.split('/').filter((p) => p !== '');
  const root = parts[0] === 'metrics' && parts.length > 1 ? `metrics/${parts[1]}` : (parts[0] ?? '');
  return BUCKETS.has(root) ? root : 'other';
}

export class KubeletMetrics {
  private readonly requests = new Map<string, number>();

  request(method: string, url: string): void {
    const key = `method="${method}",path="${bucketOf(url)}",server_type="readwrite"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  render(host: KubeletHost, node: string): string {
    const nodes = node !== '' ? [node] : host.nodeNames();
    const pods = nodes.flatMap((n) => host.podsOf(n));
    const running = pods.filter((p) => p.status?.phase === 'Running');
    const containers = pods.flatMap((p) => p.status?.containerStatuses ?? []);
    const count = (state: 'running' | 'waiting' | 'terminated') => containers.filter((c) => c.state?.[state] !== undefined && c.state[state] !== null).length;
    const lines = [
      '# HELP kubelet_node_name [ALPHA] The node\'s name. The count is always 1.',
      '# TYPE kubelet_node_name gauge',
      ...nodes.map((n) => `kubelet_node_name{node="${n}"} 1`),
      '# HELP kubelet_running_pods [ALPHA] Number of pods that have a running pod sandbox',
      '# TYPE kubelet_running_pods gauge',
      `kubelet_running_pods ${running.length}`,
      '# HELP kubelet_running_containers [ALPHA] Number of containers currently running',
      '# TYPE kubelet_running_containers gauge',
      ...(['running', 'waiting', 'terminated'] as const).map((s) => `kubelet_running_containers{container_state="${s === 'waiting' ? 'created' : s === 'terminated' ? 'exited' : s}"} ${count(s)}`),
      '# HELP kubelet_http_requests_total [ALPHA] Number of the http requests received since the server started',
      '# TYPE kubelet_http_requests_total counter',
      ...[...this.requests].map(([k, n]) => `kubelet_http_requests_total{${k}} ${n}`),
    ];
    return `${lines.join('\n')}\n`;
  }
}
