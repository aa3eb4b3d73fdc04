// Every component of `kubelite up` serves its process's memory on /metrics, under prom-client's
// names, as Kubernetes' components serve Go's: the API server (kubectl get --raw /metrics), the
// nodes' kubelet API through the API server's node proxy, the controller manager and the scheduler
// on their health ports. What a long run (bench/soak.ts) reads to tell a leak from heap sizing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { rssMiB } from '../support/procs.js';

let cluster: Cluster;

const value = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

/** The plain-HTTP /metrics of a component started with `--<addressFlag> <ip> --port <n>`. */
async function healthPortMetrics(pid: number, addressFlag: string): Promise<string> {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const flag = (f: string) => argv[argv.indexOf(f) + 1];
  return (await fetch(`http://${flag(addressFlag)}:${flag('--port')}/metrics`)).text();
}

describe('kubelite up: process and Node.js memory metrics of every component', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 1 });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('serves resident memory, heap in use, external memory and ArrayBuffers, each of its own process', async () => {
    const pids = new Map(cluster.processes().map((p) => [p.name, p.pid]));
    const scrape: Record<string, () => Promise<string>> = {
      apiserver: () => kubectlOk(cluster.kubeconfig, ['get', '--raw', '/metrics']),
      nodes: () => kubectlOk(cluster.kubeconfig, ['get', '--raw', '/api/v1/nodes/kubelite-node-0/proxy/metrics']),
      'controller-manager': () => healthPortMetrics(pids.get('controller-manager')!, '--address'),
      scheduler: () => healthPortMetrics(pids.get('scheduler')!, '--bind-address'),
    };
    for (const [name, read] of Object.entries(scrape)) {
      const text = await read();
      for (const metric of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes', 'nodejs_array_buffers_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
        assert.ok(Number.isFinite(value(text, metric)), `${name} serves ${metric}`);
      }
      assert.ok(value(text, 'nodejs_heap_size_used_bytes') <= value(text, 'nodejs_heap_size_total_bytes'), `${name}: heap in use within its capacity`);
      // The process that answered is the component's own: its RSS as the kernel counts it is close.
      const reported = value(text, 'process_resident_memory_bytes') / 2 ** 20;
      const measured = rssMiB(pids.get(name)!);
      assert.ok(Math.abs(reported - measured) < 0.25 * measured, `${name}: reported ${reported.toFixed(0)} MiB, /proc says ${measured.toFixed(0)} MiB`);
    }
  });
  it('answers a node proxy request whatever media type it accepts, as kube-apiserver\'s connect routes do (the objects\' routes still 406)', async () => {
    const field = (name: string) => Buffer.from(new RegExp(`${name}: (\\S+)`).exec(cluster.kubeconfigYaml)![1]!, 'base64').toString('utf8');
    const dispatcher = new Agent({ connect: { ca: field('certificate-authority-data'), cert: field('client-certificate-data'), key: field('client-key-data') } });
    const get = async (path: string) => {
      const res = await fetch(cluster.server + path, { headers: { accept: 'text/plain' }, dispatcher } as RequestInit);
      return { status: res.status, body: await res.text() };
    };
    try {
      assert.deepEqual(await get('/api/v1/nodes/kubelite-node-0/proxy/healthz'), { status: 200, body: 'ok' });
      const metrics = await get('/api/v1/nodes/kubelite-node-0/proxy/metrics');
      assert.equal(metrics.status, 200);
      assert.ok(Number.isFinite(value(metrics.body, 'process_resident_memory_bytes')));
      // A connection's own error is a JSON Status then.
      const missing = await get('/api/v1/namespaces/default/pods/no-such-pod/log');
      assert.equal(missing.status, 404);
      assert.equal((JSON.parse(missing.body) as { kind: string }).kind, 'Status');
      assert.equal((await get('/api/v1/nodes/kubelite-node-0')).status, 406);
    } finally {
      await dispatcher.close();
    }
  });
});
