// `npm run bench -- pod-io [megabytes] [execs]`: exec and port-forward through the API server and
// the simulated nodes' kubelet, on `kubelite up --nodes 1` (startCluster):
//  (a) port-forward throughput: M MiB (256, so that setting up the forwarded connection weighs
//      little) written through `kubectl port-forward` (1.33, SPDY tunnelled in WebSocket; 1.27,
//      SPDY/3.1) to a TCP sink on the host that the pod forwards to (kubelite.dev/port-forward),
//      against the same bytes written straight to the sink in the same run (the machine's
//      loopback copy: the ceiling), and through the same two TLS hops in plain Node with no
//      kubelite protocol code (tls-floor.ts: what Node's TLS can do on this machine); each path
//      carries 64 MiB before it is measured, and the CPU seconds of each process are printed;
//  (b) exec round trip of `echo x`: N (100) one at a time through @kubernetes/client-node's Exec
//      (WebSocket), p50/p99; and `kubectl exec -- echo x` (20), beside `kubectl version --client`
//      (kubectl's own start, the floor of anything kubectl does).
import { execFile, spawn } from 'node:child_process';
import { createServer, connect, type Server } from 'node:net';
import { PassThrough } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { startCluster } from '../src/up/cluster.js';
import { cpuMs } from './apiserver.js';
import { quantile, type BenchReport } from './report.js';
import { tlsFloor } from './tls-floor.js';
import { writeAll } from './write-all.js';

const KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';
/** What each path carries before it is measured. */
const WARM_UP_BYTES = 64 * 2 ** 20;

/** A TCP sink on loopback: resolves `received(n)` once n bytes of one connection have arrived. */
function sink(): Promise<{ server: Server; port: number; received(n: number): Promise<void> }> {
  let total = 0;
  let waiter: { n: number; resolve: () => void } | undefined;
  const server = createServer((s) => {
    s.on('data', (d: Buffer) => {
      total += d.length;
      if (waiter && total >= waiter.n) {
        waiter.resolve();
        waiter = undefined;
      }
    });
    s.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        port: (server.address() as { port: number }).port,
        received: (n) => {
          total = 0;
          return new Promise<void>((r) => (waiter = { n, resolve: r }));
        },
      }),
    ),
  );
}

/** Writes `bytes` to 127.0.0.1:port and resolves when the sink has them all; MiB/s. */
async function push(port: number, bytes: number, received: Promise<void>): Promise<number> {
  const t0 = performance.now();
  const s = connect(port, '127.0.0.1');
  await new Promise<void>((r, j) => {
    s.once('connect', () => r());
    s.once('error', j);
  });
  await writeAll(s, bytes);
  await received;
  const seconds = (performance.now() - t0) / 1000;
  s.destroy();
  return bytes / 2 ** 20 / seconds;
}

const run = (bin: string, args: string[]) => new Promise<void>((resolve, reject) => execFile(bin, args, { timeout: 60_000 }, (err) => (err ? reject(err) : resolve())));

async function timeEach(n: number, fn: () => Promise<void>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

async function benchmark(args: string[]): Promise<BenchReport> {
  const mib = Number(args[0] ?? 256);
  const execs = Number(args[1] ?? 100);
  const bytes = mib * 2 ** 20;
  const target = await sink();
  const cluster = await startCluster({ nodes: 1 });
  try {
    const kubeconfig = cluster.kubeconfig;
    const kubectl = (v: string) => `${KUBECTL_DIR}/kubectl.${v}`;
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'io', namespace: 'default', annotations: { 'kubelite.dev/port-forward': `9000=127.0.0.1:${target.port}` } }, spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 9000 }] }] } };
    await new Promise<void>((resolve, reject) => {
      const p = execFile(kubectl('1.33'), ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], (err) => (err ? reject(err) : resolve()));
      p.stdin!.end(JSON.stringify(pod));
    });
    await run(kubectl('1.33'), ['--kubeconfig', kubeconfig, 'wait', '--for=condition=Ready', 'pod/io', '--timeout=60s']);

    // (a) throughput. Every path is warmed first with a shorter push of its own (kept out of the
    // figures): the first forwarded connection after the cluster's start cost the API server ~45%
    // and the nodes ~60% more CPU per byte than the ones after it (JIT, heap sizing: bench/NOTES.md,
    // session 18), and kubectl 1.33, measured first, paid it alone.
    const warmUp = Math.min(bytes, WARM_UP_BYTES);
    await push(target.port, warmUp, target.received(warmUp));
    const direct0 = process.cpuUsage();
    const direct = await push(target.port, bytes, target.received(bytes));
    const directCpu = process.cpuUsage(direct0);
    const floorRun = await tlsFloor(bytes, target.port, (n) => target.received(n), warmUp);
    const floor = floorRun.mibPerSecond;
    const through: Record<string, number> = {};
    // CPU seconds of each process while the bytes go through (/proc, whatever the load).
    const cpu: Record<string, string> = {};
    const pidOf = (name: string) => {
      const pid = cluster.processes().find((p) => p.name === name)?.pid;
      if (pid === undefined) throw new Error(`no ${name} process`);
      return pid;
    };
    const apiserverPid = pidOf('apiserver');
    const nodesPid = pidOf('nodes');
    for (const v of ['1.33', '1.27']) {
      const pf = spawn(kubectl(v), ['--kubeconfig', kubeconfig, 'port-forward', 'pod/io', ':9000'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const localPort = await new Promise<number>((resolve, reject) => {
        let out = '';
        pf.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /127\.0\.0\.1:(\d+) ->/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        pf.once('exit', () => reject(new Error(`kubectl ${v} port-forward exited: ${out}`)));
      });
      await push(localPort, warmUp, target.received(warmUp));
      const pids = { 'API server': apiserverPid, nodes: nodesPid, kubectl: pf.pid! };
      const before = Object.values(pids).map(cpuMs);
      const self0 = process.cpuUsage();
      through[v] = await push(localPort, bytes, target.received(bytes));
      const self = process.cpuUsage(self0);
      const after = Object.values(pids).map(cpuMs);
      cpu[v] = [...Object.keys(pids).map((name, i) => `${name} ${((after[i]! - before[i]!) / 1000).toFixed(2)}`), `writer and sink ${((self.user + self.system) / 1e6).toFixed(2)}`].join(', ');
      pf.kill();
    }

    // (b) exec round trips
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig);
    const exec = new k8s.Exec(kc);
    const clientNode = await timeEach(execs, () => new Promise<void>((resolve, reject) => void exec.exec('default', 'io', 'c', ['echo', 'x'], new PassThrough(), null, null, false, () => resolve()).catch(reject)));
    const kubectlExec = await timeEach(20, () => run(kubectl('1.33'), ['--kubeconfig', kubeconfig, 'exec', 'io', '--', 'echo', 'x']));
    const kubectlStart = await timeEach(20, () => run(kubectl('1.33'), ['version', '--client']));
    const q = (a: number[], p: number) => quantile(a, p);
    return {
      name: `pod I/O (kubelite up --nodes 1; ${mib} MiB forwarded, ${execs} execs)`,
      columns: ['value'],
      rows: [
        { metric: 'TCP straight to the sink (the machine\'s loopback copy)', values: { value: direct }, unit: 'MiB/s' },
        { metric: 'the same, CPU seconds of the writer and sink (one process)', values: { value: (directCpu.user + directCpu.system) / 1e6 }, unit: 'cpu-s' },
        { metric: 'the same through two TLS hops in plain Node (TLS writer → relay → TLS server → sink; no kubelite, no kubectl)', values: { value: floor }, unit: 'MiB/s' },
        { metric: 'the same, as a fraction of the loopback copy (the floor of port-forward in Node)', values: { value: floor / direct }, unit: '×' },
        { metric: 'the same, CPU seconds of each process', values: { value: `relay ${floorRun.relayCpuSeconds.toFixed(2)}, server ${floorRun.serverCpuSeconds.toFixed(2)}, writer and sink ${floorRun.writerCpuSeconds.toFixed(2)}` }, unit: 'cpu-s' },
        { metric: 'port-forward, kubectl 1.33 (SPDY in WebSocket)', values: { value: through['1.33']! }, unit: 'MiB/s' },
        { metric: 'the same, as a fraction of the loopback copy', values: { value: through['1.33']! / direct }, unit: '×', target: '≥ 0.3', met: through['1.33']! / direct >= 0.3 },
        { metric: 'the same, as a fraction of the two TLS hops in plain Node', values: { value: through['1.33']! / floor }, unit: '×' },
        { metric: 'the same, CPU seconds of each process', values: { value: cpu['1.33']! }, unit: 'cpu-s' },
        { metric: 'port-forward, kubectl 1.27 (SPDY/3.1)', values: { value: through['1.27']! }, unit: 'MiB/s' },
        { metric: 'the same, as a fraction of the loopback copy', values: { value: through['1.27']! / direct }, unit: '×', target: '≥ 0.3', met: through['1.27']! / direct >= 0.3 },
        { metric: 'the same, as a fraction of the two TLS hops in plain Node', values: { value: through['1.27']! / floor }, unit: '×' },
        { metric: 'the same, CPU seconds of each process', values: { value: cpu['1.27']! }, unit: 'cpu-s' },
        { metric: 'exec `echo x`, client-node, p50', values: { value: q(clientNode, 0.5) }, unit: 'ms', target: '≤ 50 ms', met: q(clientNode, 0.5) <= 50 },
        { metric: 'exec `echo x`, client-node, p99', values: { value: q(clientNode, 0.99) }, unit: 'ms' },
        { metric: '`kubectl exec -- echo x`, p50', values: { value: q(kubectlExec, 0.5) }, unit: 'ms' },
        { metric: '`kubectl version --client` (kubectl\'s own start), p50', values: { value: q(kubectlStart, 0.5) }, unit: 'ms' },
      ],
      notes: [
        'One pod on one simulated node; the forwarded port goes to a TCP sink on the host through kubelite.dev/port-forward, so the path is client → kubectl → API server (TLS) → kubelet listener (TLS) → sink.',
        "The two TLS hops in plain Node (bench/tls-floor.ts): the same bytes through a TLS writer, a relay process and a TLS server process copying to the sink, no kubelite protocol code and no kubectl: what Node's TLS does on this machine at best. Each path carried 64 MiB on a connection of its own before the measured bytes (JIT and heaps warm).",
      ],
    };
  } finally {
    await cluster.stop();
    target.server.close();
  }
}

export { benchmark as run };
