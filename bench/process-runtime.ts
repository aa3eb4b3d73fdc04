// `npm run bench -- process-runtime [replicas]`: `kubelite up --runtime process` (startCluster, 3
// nodes) runs a Deployment of `replicas` (100) pods of `node -e "<http server>"`, each Ready once
// its httpGet readiness probe answers: the time from the create to every replica available, beside
// what this machine needs to spawn that many bare `node -e 0` one after the other (the ceiling
// figure: any runtime starting node processes pays it), with the CPU of the nodes process and the
// RSS of the pods' processes.
import { readdirSync, readFileSync } from 'node:fs';
import { childPids, cpuSeconds, rssMiB } from '../test/support/procs.js';
import { startCluster } from '../src/up/cluster.js';
import { client } from './cluster.js';
import { nodeSpawnMs } from './ceiling.js';
import type { BenchReport } from './report.js';

const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };
const SERVER = "require('node:http').createServer((q, r) => r.end('ok')).listen(8080)";

/** The pids of the pods' processes (their environment names a pod IP). */
function podProcesses(): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes('KUBELITE_POD_IP=')) out.push(Number(pid));
    } catch {
      /* gone */
    }
  }
  return out;
}

export async function run(args: string[]): Promise<BenchReport> {
  const replicas = Number(args[0] ?? 100);
  const spawnMs = nodeSpawnMs();
  const cluster = await startCluster({ nodes: 3, runtime: 'process', allowRoot: true });
  try {
    const cs = client(cluster.kubeconfig);
    const nodesPid = childPids(process.pid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('nodes'));
    const cpu0 = nodesPid ? cpuSeconds(nodesPid) : 0;
    const t0 = performance.now();
    await cs.resource(DEPLOYMENTS).create('default', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'node:20', command: ['node', '-e', SERVER], ports: [{ containerPort: 8080 }], readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 } }] },
        },
      },
    });
    for (;;) {
      const d = (await cs.resource(DEPLOYMENTS).get('default', 'web')) as { status?: { availableReplicas?: number } };
      if ((d.status?.availableReplicas ?? 0) >= replicas) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const readyS = (performance.now() - t0) / 1000;
    const nodesCpu = nodesPid ? cpuSeconds(nodesPid) - cpu0 : NaN;
    const pods = podProcesses();
    const podsRss = pods.reduce((sum, pid) => sum + rssMiB(pid), 0);
    const serialSpawnS = (spawnMs * replicas) / 1000;
    return {
      name: 'process-runtime',
      columns: ['value', 'ceiling'],
      rows: [
        { metric: `${replicas} node -e pods Ready (create → available)`, values: { value: readyS, ceiling: serialSpawnS }, unit: 's (ceiling: that many node -e 0 spawned one by one)', target: '≤ 10 s for 100', met: replicas !== 100 ? undefined : readyS <= 10 },
        { metric: 'ratio to the serial spawns', values: { value: readyS / serialSpawnS, ceiling: 1 }, unit: '×' },
        { metric: 'nodes process CPU', values: { value: nodesCpu, ceiling: '' }, unit: 'cpu-s' },
        { metric: "pods' processes RSS (sum)", values: { value: podsRss, ceiling: '' }, unit: `MiB (${pods.length} processes)` },
      ],
      notes: [`node -e 0 spawn: ${spawnMs.toFixed(0)} ms median on this machine.`],
      ceiling: { spawnMs },
    };
  } finally {
    await cluster.stop();
  }
}
