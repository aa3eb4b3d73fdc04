// `npm run bench -- scheduler [pods] [nodes]`: the default scheduler's throughput. `kubelite
// apiserver --storage memory` runs as a separate process (the other core); this process creates
// N nodes (Ready, allocatable 32 cpu / 128 Gi / 110 pods) and P pending pods (100m / 128Mi), then
// starts the scheduler (src/scheduler, over the REST client and shared informers, JSON and
// protobuf as the CLI's default) and measures the time until every pod is bound: pods bound per
// second from the scheduler's start (informer list included) and from its first binding.
// KUBELITE_BENCH_NODE_ARGS is passed to the apiserver's node process (for profiling it).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { RestClientset } from '../src/client/rest.js';
import type { KubeObject } from '../src/client/types.js';
import { startScheduler } from '../src/scheduler/index.js';
import type { BenchReport } from './report.js';
import { prepareApiserverPki } from './tls.js';
import { freePort } from '../test/support/ports.js';
import { parallel } from './parallel.js';

const KUBELITE_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
/** e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": passed to the apiserver's node process. */
const NODE_ARGS = (process.env.KUBELITE_BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

export async function run(args: string[]): Promise<BenchReport> {
  const numPods = Number(args[0] ?? 1000);
  const numNodes = Number(args[1] ?? 100);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kubelite-bench-'));
  const tls = await prepareApiserverPki(dataDir);
  // No controller manager creates `default` service accounts here: pods go without ServiceAccount admission.
  const child = spawn(process.execPath, [...NODE_ARGS, KUBELITE_BIN, 'apiserver', '--storage', 'memory', '--data-dir', dataDir, '--port', String(port), '--disable-admission-plugins=ServiceAccount'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  const cs = new RestClientset({ config: tls.restConfig(port), qps: 0 });
  try {
    const t0 = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`apiserver exited: ${stderr}`);
      if (Date.now() - t0 > 30_000) throw new Error(`apiserver not ready: ${stderr}`);
      try {
        await cs.resource(NAMESPACES).list('', { limit: 1 });
        break;
      } catch {
        await sleep(20);
      }
    }
    await cs.resource(NAMESPACES).create('', { metadata: { name: 'bench' } });
    const nodeNames = Array.from({ length: numNodes }, (_, i) => `node-${i}`);
    await parallel(nodeNames, 16, async (name) => {
      await cs.resource(NODES).create('', {
        metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${Number(name.slice(5)) % 3}` } },
        status: { allocatable: { cpu: '32', memory: '128Gi', pods: '110' }, capacity: { cpu: '32', memory: '128Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] },
      });
      // What the node lifecycle controller does for a Ready node: drop the not-ready taint.
      await cs.resource(NODES).patch('', name, 'merge', { spec: { taints: null } });
    });
    // A ReplicaSet selecting the pods, as a Deployment's: they get the default spread constraints.
    await cs.resource({ group: 'apps', version: 'v1', resource: 'replicasets' }).create('bench', {
      metadata: { name: 'bench' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'bench' } }, template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] } } },
    });
    const podNames = Array.from({ length: numPods }, (_, i) => `pod-${i}`);
    await parallel(podNames, 32, (name) =>
      cs.resource(PODS).create('bench', {
        metadata: { name, labels: { app: 'bench' } },
        spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
      }),
    );
    const schedClient = new RestClientset({ config: tls.restConfig(port), qps: 0, contentType: 'application/vnd.kubernetes.protobuf', userAgent: 'kube-scheduler/v1.33.0 (bench) kubernetes/kubelite' });
    const start = performance.now();
    let firstBind = 0;
    const sched = startScheduler({ clientset: schedClient, log: () => {} });
    await sched.ready;
    const synced = performance.now();
    const deadline = start + 120_000;
    while (sched.stats.bound < numPods) {
      if (firstBind === 0 && sched.stats.bound > 0) firstBind = performance.now();
      if (performance.now() > deadline) throw new Error(`only ${sched.stats.bound}/${numPods} pods bound after 120 s: ${JSON.stringify(sched.queue.stats())}`);
      await sleep(1);
    }
    const end = performance.now();
    await sched.stop();
    schedClient.close();
    const listed = await cs.resource(PODS).list('bench');
    const bound = listed.items.filter((p: KubeObject) => (p.spec as { nodeName?: string }).nodeName).length;
    const perNode = new Map<string, number>();
    for (const p of listed.items) {
      const n = (p.spec as { nodeName?: string }).nodeName;
      if (n) perNode.set(n, (perNode.get(n) ?? 0) + 1);
    }
    const counts = [...perNode.values()];
    const rate = numPods / ((end - start) / 1000);
    return {
      name: `scheduler (${numPods} pods, ${numNodes} nodes)`,
      columns: ['value'],
      rows: [
        { metric: 'pods bound/s (from scheduler start, list included)', values: { value: Math.round(rate) }, unit: 'pods/s', target: '≥ 1,000', met: rate >= 1000 },
        { metric: 'pods bound/s (from first binding)', values: { value: Math.round(numPods / ((end - (firstBind || synced)) / 1000)) }, unit: 'pods/s' },
        { metric: 'time to all bound', values: { value: Math.round(end - start) }, unit: 'ms' },
        { metric: 'informer sync', values: { value: Math.round(synced - start) }, unit: 'ms' },
        { metric: 'pods with spec.nodeName (API server list)', values: { value: bound }, unit: 'pods', target: `${numPods}`, met: bound === numPods },
        { metric: 'nodes used / min-max pods per node', values: { value: `${perNode.size} / ${Math.min(...counts)}-${Math.max(...counts)}` }, unit: '' },
      ],
      notes: ['kubelite apiserver --storage memory in a child process; scheduler in the bench process; pods (selected by a ReplicaSet, so with the default spread constraints) created before the scheduler starts.'],
    };
  } finally {
    cs.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
