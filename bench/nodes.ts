// `npm run bench -- nodes [nodes] [steady-seconds] [pods]`: the simulated nodes' cost. `kubelite
// apiserver --storage memory --authorization-mode Node,RBAC` runs as a separate process (the other
// core); this process runs the node agent as `kubelite up` runs it (src/nodes over the REST
// client, protobuf, qps 1000 / burst 2000; each node as system:node:<name> with its own client
// certificate and connections, the certificates issued first and timed apart) and measures: the time from start until every node is registered and Ready (Node, not-ready
// taint removed, Lease); the steady-state API writes/s and agent CPU with the default intervals
// (Lease every 10 s, status computed every 10 s and written every 5 min or on change); and the
// time for P pods bound round-robin to the nodes to all be Running.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RestClientset } from '../src/client/rest.js';
import type { KubeObject } from '../src/client/types.js';
import { startNodes } from '../src/nodes/index.js';
import type { BenchReport } from './report.js';
import { prepareApiserverPki } from './tls.js';
import { NodeClients, nodeClientCertificates } from '../src/cli/node-certificates.js';
import { TokenBucket } from '../src/client/rate-limit.js';
import { freePort } from '../test/support/ports.js';
import { KUBELITE_BIN } from '../test/support/kubelite.js';
import { cpuSeconds, rssMiB } from '../test/support/procs.js';
import { parallel } from './parallel.js';

/** KUBELITE_BENCH_SHARED_IDENTITY=1: every node writes through the agent's one client (A/B against per-node identities). */
const SHARED_IDENTITY = process.env.KUBELITE_BENCH_SHARED_IDENTITY === '1';
/** KUBELITE_BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") goes to the API server's node process. */
const NODE_ARGS = (process.env.KUBELITE_BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

type Obj = Record<string, unknown>;

function isReady(n: KubeObject): boolean {
  const conds = ((n.status as Obj | undefined)?.conditions ?? []) as Obj[];
  const taints = ((n.spec as Obj | undefined)?.taints ?? []) as Obj[];
  return conds.some((c) => c.type === 'Ready' && c.status === 'True') && !taints.some((t) => t.key === 'node.kubernetes.io/not-ready');
}

export async function run(args: string[]): Promise<BenchReport> {
  const numNodes = Number(args[0] ?? 1000);
  const steadySeconds = Number(args[1] ?? 30);
  const numPods = Number(args[2] ?? 0);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kubelite-bench-'));
  const tls = await prepareApiserverPki(dataDir);
  // No controller manager creates `default` service accounts here: pods go without ServiceAccount admission.
  const child = spawn(process.execPath, [...NODE_ARGS, KUBELITE_BIN, 'apiserver', '--storage', 'memory', '--data-dir', dataDir, '--port', String(port), '--authorization-mode', 'Node,RBAC', '--disable-admission-plugins=ServiceAccount'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  const admin = new RestClientset({ config: tls.restConfig(port), qps: 0 });
  const clientOptions = { limiter: new TokenBucket({ qps: 1000, burst: 2000 }), contentType: 'application/vnd.kubernetes.protobuf', userAgent: 'kubelet/v1.33.0 (bench) kubernetes/kubelite' };
  // The agent's own client (the not-ready taint): the admin here, the node lifecycle identity in `up`.
  const cs = new RestClientset({ config: tls.restConfig(port), ...clientOptions });
  const i0 = performance.now();
  const names = Array.from({ length: numNodes }, (_, i) => `kubelite-node-${i}`);
  const certificates = nodeClientCertificates({ caCertFile: join(dataDir, 'pki', 'ca.crt'), caKeyFile: join(dataDir, 'pki', 'ca.key'), certDir: join(dataDir, 'pki', 'nodes'), nodeNames: names });
  const issueMs = performance.now() - i0;
  const r0 = performance.now();
  nodeClientCertificates({ caCertFile: join(dataDir, 'pki', 'ca.crt'), caKeyFile: join(dataDir, 'pki', 'ca.key'), certDir: join(dataDir, 'pki', 'nodes'), nodeNames: names });
  const reuseMs = performance.now() - r0;
  const nodeClients = new NodeClients(tls.restConfig(port), certificates, clientOptions);
  try {
    const t0 = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`apiserver exited: ${stderr}`);
      if (Date.now() - t0 > 30_000) throw new Error(`apiserver not ready: ${stderr}`);
      try {
        await admin.resource(NAMESPACES).list('', { limit: 1 });
        break;
      } catch {
        await sleep(20);
      }
    }
    await admin.resource(NAMESPACES).create('', { metadata: { name: 'default' } }).catch(() => {});

    const cpu0 = process.cpuUsage();
    const apiCpu0 = cpuSeconds(child.pid!);
    const start = Date.now();
    const identities = SHARED_IDENTITY ? {} : { nodeClientset: nodeClients.forNode };
    const handle = await startNodes({ clientset: cs, ...identities, nodes: numNodes, zones: ['a', 'b', 'c'], events: false, log: () => {} });
    const registeredMs = Date.now() - start;
    for (;;) {
      const list = await admin.resource(NODES).list('');
      if (list.items.length === numNodes && list.items.every(isReady)) break;
      if (Date.now() - start > 120_000) throw new Error('nodes not Ready after 120 s');
      await sleep(50);
    }
    const readyMs = Date.now() - start;
    const startCpu = process.cpuUsage(cpu0);
    const apiStartCpu = cpuSeconds(child.pid!) - apiCpu0;
    const apiRss = rssMiB(child.pid!);

    // steady state
    const s0 = { ...handle.stats };
    const c0 = process.cpuUsage();
    const w0 = Date.now();
    await sleep(steadySeconds * 1000);
    const elapsed = (Date.now() - w0) / 1000;
    const c1 = process.cpuUsage(c0);
    const s1 = { ...handle.stats };
    const writes = s1.leaseWrites + s1.nodeWrites + s1.podStatusWrites + s1.podDeletes - (s0.leaseWrites + s0.nodeWrites + s0.podStatusWrites + s0.podDeletes);
    const writesPerSec = writes / elapsed;
    const cpuPct = ((c1.user + c1.system) / 1000 / (elapsed * 1000)) * 100;

    let podsMs: number | undefined;
    if (numPods > 0) {
      const names = handle.nodeNames;
      const pods = Array.from({ length: numPods }, (_, i) => i);
      const p0 = Date.now();
      await parallel(pods, 32, (i) =>
        admin.resource(PODS).create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}` }, spec: { nodeName: names[i % names.length], containers: [{ name: 'c', image: 'nginx' }] } }),
      );
      for (;;) {
        let running = 0;
        let cont: string | undefined;
        do {
          const list = await admin.resource(PODS).list('default', { limit: 1000, ...(cont ? { continue: cont } : {}) });
          running += list.items.filter((p) => (p.status as Obj | undefined)?.phase === 'Running').length;
          cont = list.metadata.continue || undefined;
        } while (cont);
        if (running === numPods) break;
        if (Date.now() - p0 > 300_000) throw new Error('pods not Running after 300 s');
        await sleep(200);
      }
      podsMs = Date.now() - p0;
    }
    await handle.stop();

    const rows: BenchReport['rows'] = [
      { metric: `${numNodes} node client certificates: issued / reused from the cert dir`, values: { kubelite: `${Math.round(issueMs)} / ${Math.round(reuseMs)}` }, unit: 'ms' },
      { metric: `${numNodes} nodes registered (startNodes resolved)`, values: { kubelite: registeredMs / 1000 }, unit: 's' },
      { metric: `${numNodes} nodes Ready (Node + Lease, not-ready taint removed)`, values: { kubelite: readyMs / 1000 }, unit: 's', target: '≤ 10 s', met: readyMs <= 10_000 },
      { metric: 'agent CPU during registration', values: { kubelite: (startCpu.user + startCpu.system) / 1000 / 1000 }, unit: 'cpu-s' },
      { metric: 'API server CPU during registration', values: { kubelite: apiStartCpu }, unit: 'cpu-s' },
      { metric: 'API server RSS with the nodes registered', values: { kubelite: apiRss }, unit: 'MiB' },
      { metric: `steady-state API writes/s (${numNodes} nodes, ${Math.round(elapsed)} s)`, values: { kubelite: writesPerSec }, unit: 'writes/s' },
      { metric: 'steady-state agent CPU', values: { kubelite: cpuPct }, unit: '% of a core' },
    ];
    if (podsMs !== undefined) rows.push({ metric: `${numPods} bound pods to Running`, values: { kubelite: podsMs / 1000 }, unit: 's' });
    return {
      name: 'nodes',
      columns: ['kubelite'],
      rows,
      notes: [`apiserver --storage memory --authorization-mode Node,RBAC in a separate process; agent: each node as system:node:<name> over its own TLS connections, protobuf, qps 1000 / burst 2000 over all nodes, lease every 10 s, node status every 5 min or on change; the first lease renewals are staggered over 10 s`],
    };
  } finally {
    admin.close();
    cs.close();
    nodeClients.close();
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
