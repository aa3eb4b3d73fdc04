// `npm run bench -- pod-logs [follow-seconds] [requests]`: container logs and proxies through the
// API server and the simulated nodes' kubelet API, on a `kubelite up` cluster (startCluster, one
// node): (a) log follow latency, from the moment a line is written (its timestamp) to the moment
// the client reads it, for a container printing 100 lines/s (`while true; do echo; sleep 0.01`);
// (b) round trips of pods/log (tailLines=10), pods/proxy and nodes/proxy healthz, one at a time;
// with the CPU of the nodes process and of the API server during the follow, and their RSS.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadRestConfig } from '../src/client/kubeconfig.js';
import { startCluster } from '../src/up/cluster.js';
import { childPids, cpuSeconds, rssMiB } from '../test/support/procs.js';
import { quantile, type BenchReport } from './report.js';

interface Client {
  get(path: string): Promise<{ status: number; body: string }>;
  stream(path: string, onLine: (line: string) => void, signal: AbortSignal): Promise<void>;
  post(path: string, body: unknown): Promise<number>;
}

function client(kubeconfig: string): Client {
  const config = loadRestConfig({ kubeconfig });
  const url = new URL(config.server);
  const agent = new Agent({ keepAlive: true, ...(config.ca ? { ca: config.ca } : {}), ...(config.clientCert ? { cert: config.clientCert } : {}), ...(config.clientKey ? { key: config.clientKey } : {}) });
  const base = { host: url.hostname, port: Number(url.port), agent };
  return {
    get: (path) =>
      new Promise((resolve, reject) => {
        const req = request({ ...base, path }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      }),
    stream: (path, onLine, signal) =>
      new Promise((resolve) => {
        const req = request({ ...base, path, signal }, (res) => {
          let partial = '';
          res.on('data', (d: Buffer) => {
            const lines = (partial + d.toString()).split('\n');
            partial = lines.pop() ?? '';
            for (const l of lines) onLine(l);
          });
          res.on('end', resolve);
          res.on('error', () => resolve());
        });
        req.on('error', () => resolve());
        req.end();
      }),
    post: (path, body) =>
      new Promise((resolve, reject) => {
        const data = JSON.stringify(body);
        const req = request({ ...base, path, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(data);
      }),
  };
}

/** This process's component children by subcommand (apiserver, nodes, ...). */
function components(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of childPids(process.pid)) {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const bin = argv.findIndex((a) => a.endsWith('kubelite.js'));
    if (bin >= 0) out.set(argv[bin + 1] ?? String(pid), pid);
  }
  return out;
}

async function roundTrips(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return ms;
}

export async function run(args: string[]): Promise<BenchReport> {
  const followSeconds = Number(args[0] ?? 10);
  const requests = Number(args[1] ?? 200);
  const cluster = await startCluster({ nodes: 1 });
  try {
    const c = client(cluster.kubeconfig);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'ticker', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo tick; sleep 0.01; done'], ports: [{ containerPort: 8080 }] }] },
    };
    if ((await c.post('/api/v1/namespaces/default/pods', pod)) !== 201) throw new Error('cannot create the pod');
    for (;;) {
      const p = JSON.parse((await c.get('/api/v1/namespaces/default/pods/ticker')).body) as { status?: { phase?: string } };
      if (p.status?.phase === 'Running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const procs = components();
    const cpu0 = new Map([...procs].map(([k, pid]) => [k, cpuSeconds(pid)]));
    const latencies: number[] = [];
    const abort = new AbortController();
    const done = c.stream('/api/v1/namespaces/default/pods/ticker/log?follow=true&timestamps=true&tailLines=0', (line) => {
      const ts = Date.parse(line.slice(0, line.indexOf(' ')));
      if (!Number.isNaN(ts)) latencies.push(Date.now() - ts);
    }, abort.signal);
    await new Promise((r) => setTimeout(r, followSeconds * 1000));
    abort.abort();
    await done;
    const cpu = new Map([...procs].map(([k, pid]) => [k, (cpuSeconds(pid) - (cpu0.get(k) ?? 0)) / followSeconds]));
    const logs = await roundTrips(requests, () => c.get('/api/v1/namespaces/default/pods/ticker/log?tailLines=10'));
    const proxy = await roundTrips(requests, () => c.get('/api/v1/namespaces/default/pods/ticker:8080/proxy/x'));
    const node = await roundTrips(requests, () => c.get('/api/v1/nodes/kubelite-node-0/proxy/healthz'));
    const p = (xs: number[], q: number) => Math.round(quantile(xs, q) * 100) / 100;
    return {
      name: 'pod-logs',
      columns: ['p50', 'p99'],
      rows: [
        { metric: `log follow latency, write to client (${latencies.length} lines)`, values: { p50: p(latencies, 0.5), p99: p(latencies, 0.99) }, unit: 'ms', target: 'p99 ≤ 20 ms', met: quantile(latencies, 0.99) <= 20 },
        { metric: 'pods/log tailLines=10 round trip', values: { p50: p(logs, 0.5), p99: p(logs, 0.99) }, unit: 'ms' },
        { metric: 'pods/proxy GET round trip', values: { p50: p(proxy, 0.5), p99: p(proxy, 0.99) }, unit: 'ms' },
        { metric: 'nodes/proxy healthz round trip', values: { p50: p(node, 0.5), p99: p(node, 0.99) }, unit: 'ms' },
      ],
      notes: [
        `CPU during the follow (share of a core): ${[...cpu].map(([k, v]) => `${k} ${(v * 100).toFixed(1)}%`).join(', ')}`,
        `RSS after: ${[...procs].map(([k, pid]) => `${k} ${rssMiB(pid).toFixed(0)} MiB`).join(', ')}`,
      ],
    };
  } finally {
    await cluster.stop();
  }
}
