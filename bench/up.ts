// `npm run bench -- up [seconds] [replicas] [starts]`: the scenario users run. `kubelite up --nodes 3` (the
// real CLI, lmdb in a temporary data dir), driven from this process as a pod's client drives it:
// a ServiceAccount allowed by a RoleBinding to create pods and Deployments in its namespace, a
// token for it from TokenRequest bound to a pod (what the kubelet mounts), sent as a bearer token
// over HTTPS keep-alive. The same load is sent with the admin client certificate for the A/B,
// the two interleaved (A B B A at each client count) so that the machine's drift falls on both,
// and the token's load to a `kubelite up --nodes 3 --single-process` running beside it (its
// components in the event loop of one process), interleaved with them.
// Measured: spawn → `ready:` and idle RSS of either mode (alternating starts); a Deployment of R replicas created → Available, as each user;
// creates/s of a 1.5 KB pod at 1, 8 and 32 clients with p50/p99; the CPU of every component per
// create. The machine's ceiling is measured in the same run (bench/ceiling.ts): throughputs are
// printed as fractions of the bare server's rate, start times as multiples of a `node -e 0` spawn.
import { Agent, request } from 'node:https';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRestConfig } from '../src/client/kubeconfig.js';
import { podTemplate } from './apiserver.js';
import { bareServerRate, bareTlsRow, bareTlsServerRate, nodeSpawnMs } from './ceiling.js';
import { clusterProcesses, cpuOf, startUp, type Up } from './cluster.js';
import { rssMiB } from '../test/support/procs.js';
import { quantile, type BenchReport, type BenchRow } from './report.js';

const TOKEN = 'SA token';
const CERT = 'admin cert';
const SINGLE = 'SA token, single process';
export const NAMESPACE = 'bench';
const CLIENT_COUNTS = [1, 8, 32];

/** One way of reaching the API server: an HTTPS agent and the headers every request carries. */
export interface Caller {
  port: number;
  agent: Agent;
  headers: Record<string, string>;
}

export function send(c: Caller, method: string, path: string, body?: unknown): Promise<{ status: number; json: () => any }> {
  const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Accept: 'application/json', ...c.headers };
    if (data !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) });
    const req = request({ host: '127.0.0.1', port: c.port, method, path, headers, agent: c.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

export async function ok(c: Caller, method: string, path: string, body?: unknown): Promise<any> {
  const r = await send(c, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: HTTP ${r.status}: ${JSON.stringify(r.json()).slice(0, 300)}`);
  return r.json();
}

export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The ServiceAccount, its rights, a pod running as it and a token bound to that pod, as the admin. */
export async function serviceAccountToken(admin: Caller): Promise<string> {
  await ok(admin, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await ok(admin, 'POST', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'operator' } });
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}`;
  await ok(admin, 'POST', `${rbac}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'operator' },
    rules: [
      { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch', 'delete'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create', 'get', 'list', 'watch', 'delete'] },
    ],
  });
  await ok(admin, 'POST', `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'operator' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'operator' },
    subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace: NAMESPACE }],
  });
  // The pod whose client the bench plays.
  await until(async () => (await send(admin, 'GET', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/default`)).status === 200, 'the default service account');
  const pod = await ok(admin, 'POST', `/api/v1/namespaces/${NAMESPACE}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'operator' }, spec: { serviceAccountName: 'operator', containers: [{ name: 'operator', image: 'operator' }] } });
  const review = await ok(admin, 'POST', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/operator/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 3600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'operator', uid: pod.metadata.uid } },
  });
  return review.status.token as string;
}

export interface CreateRun {
  creates: number;
  seconds: number;
  latencies: number[];
  /** CPU seconds by component during the run. */
  cpu: Map<string, number>;
}

export async function createRun(c: Caller, procs: Map<string, number>, clients: number, seconds: number, tag: string): Promise<CreateRun> {
  const { before, after } = podTemplate(NAMESPACE);
  const path = `/api/v1/namespaces/${NAMESPACE}/pods`;
  const latencies: number[] = [];
  const cpu0 = cpuOf(procs);
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, k) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t0 = performance.now();
        const r = await send(c, 'POST', path, `${before}${tag}-${k}-${i}${after}`);
        if (r.status !== 201) throw new Error(`create pod: HTTP ${r.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu1 = cpuOf(procs);
  return { creates: latencies.length, seconds: elapsed, latencies, cpu: new Map([...cpu1].map(([n, s]) => [n, s - (cpu0.get(n) ?? 0)])) };
}

/** Runs of one caller merged. */
export function merge(runs: CreateRun[]): CreateRun {
  const cpu = new Map<string, number>();
  for (const r of runs) for (const [n, s] of r.cpu) cpu.set(n, (cpu.get(n) ?? 0) + s);
  return { creates: runs.reduce((a, r) => a + r.creates, 0), seconds: runs.reduce((a, r) => a + r.seconds, 0), latencies: runs.flatMap((r) => r.latencies), cpu };
}

/** ms from creating a Deployment of `replicas` to its status saying all of them are available. */
async function deploymentToAvailable(c: Caller, name: string, replicas: number): Promise<number> {
  const t0 = performance.now();
  await ok(c, 'POST', `/apis/apps/v1/namespaces/${NAMESPACE}/deployments`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  });
  await until(async () => {
    const d = await ok(c, 'GET', `/apis/apps/v1/namespaces/${NAMESPACE}/deployments/${name}`);
    return d.status?.availableReplicas === replicas;
  }, `deployment ${name} available`);
  return performance.now() - t0;
}

const pct = (v: number, of: number) => `${((100 * v) / of).toFixed(0)}%`;

/** A started cluster as the bench drives it: its processes, the admin and the ServiceAccount's token. */
interface Driven {
  up: Up;
  procs: Map<string, number>;
  admin: Caller;
  token: Caller;
}

async function drive(up: Up): Promise<Driven> {
  const procs = clusterProcesses(up.child.pid!);
  const config = loadRestConfig({ kubeconfig: up.kubeconfig });
  const port = Number(new URL(config.server).port);
  const agent = (cert: boolean) => new Agent({ keepAlive: true, maxSockets: 64, ca: config.ca, ...(cert ? { cert: config.clientCert, key: config.clientKey } : {}) });
  const admin: Caller = { port, agent: agent(true), headers: {} };
  const token: Caller = { port, agent: agent(false), headers: { Authorization: `Bearer ${await serviceAccountToken(admin)}` } };
  await until(async () => (await send(token, 'GET', `/api/v1/namespaces/${NAMESPACE}/pods?limit=1`)).status === 200, 'the service account may list pods');
  return { up, procs, admin, token };
}

/** Spawn → ready of each mode, interleaved (A B B A ...), and the idle RSS of the last start of each. */
async function starts(runs: number): Promise<Record<string, { readyMs: number[]; rss: Map<string, number> }>> {
  const out: Record<string, { readyMs: number[]; rss: Map<string, number> }> = { [TOKEN]: { readyMs: [], rss: new Map() }, [SINGLE]: { readyMs: [], rss: new Map() } };
  const order = Array.from({ length: runs }, (_, i) => (i % 2 === 0 ? [TOKEN, SINGLE] : [SINGLE, TOKEN])).flat();
  for (const [i, mode] of order.entries()) {
    const up = await startUp(['--nodes', '3', ...(mode === SINGLE ? ['--single-process'] : [])]);
    out[mode]!.readyMs.push(up.readyMs);
    if (i >= order.length - 2) {
      // Idle: the start's work (module loading, informers' lists, the first heartbeats) is over.
      await sleep(5000);
      out[mode]!.rss = new Map([...clusterProcesses(up.child.pid!)].map(([name, pid]) => [name, rssMiB(pid)]));
    }
    await up.stop();
  }
  return out;
}

export async function run(args: string[]): Promise<BenchReport> {
  const seconds = Number(args[0] ?? 3);
  const replicas = Number(args[1] ?? 100);
  const startRuns = Number(args[2] ?? 3);
  const loads = [`start ${loadavg()[0]!.toFixed(1)}`];
  const spawnMs = nodeSpawnMs(7);
  const pod = podTemplate('ceiling');
  const bareRate = await bareServerRate(32, seconds, (c, i) => `${pod.before}c-${c}-${i}${pod.after}`);
  const bareTlsRate = await bareTlsServerRate(32, seconds, (c, i) => `${pod.before}t-${c}-${i}${pod.after}`);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  rows.push({ metric: 'machine: bare Node HTTP server, pod JSON parsed and echoed, 32 clients', values: { [TOKEN]: bareRate }, unit: 'ops/s' });
  rows.push(bareTlsRow(bareTlsRate, bareRate, TOKEN));
  rows.push({ metric: 'machine: `node -e 0` spawn to exit, median of 7', values: { [TOKEN]: spawnMs }, unit: 'ms' });
  if (startRuns > 0) {
    const started = await starts(startRuns);
    const ready = (mode: string) => quantile(started[mode]!.readyMs, 0.5);
    const fmtReady = (mode: string) => `${(ready(mode) / 1000).toFixed(2)} s = ${(ready(mode) / spawnMs).toFixed(1)}× spawn`;
    rows.push({ metric: `spawn \`kubelite up --nodes 3\` → \`ready:\` line, median of ${startRuns}`, values: { [TOKEN]: fmtReady(TOKEN), [SINGLE]: fmtReady(SINGLE) }, unit: '', target: '≤ 6× spawn (multi) / ≤ 3× (single)', met: ready(TOKEN) <= 6 * spawnMs && ready(SINGLE) <= 3 * spawnMs });
    const rss = (mode: string) => [...started[mode]!.rss.values()].reduce((a, b) => a + b, 0);
    rows.push({ metric: 'RSS of all processes, idle', values: { [TOKEN]: rss(TOKEN), [SINGLE]: rss(SINGLE) }, unit: 'MiB', target: '≤ 150 MiB (multi) / ≤ 100 MiB (single)', met: rss(TOKEN) <= 150 && rss(SINGLE) <= 100 });
    for (const mode of [TOKEN, SINGLE]) notes.push(`${mode === TOKEN ? 'processes' : '--single-process'}: spawn → ready (s): ${started[mode]!.readyMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')}; idle RSS by process (MiB): ${[...started[mode]!.rss].map(([n, v]) => `${n} ${v.toFixed(0)}`).join(', ')}`);
  }

  const multi = await drive(await startUp(['--nodes', '3']));
  let single: Driven | undefined;
  try {
    single = await drive(await startUp(['--nodes', '3', '--single-process']));
    const callers: Record<string, Caller> = { [TOKEN]: multi.token, [CERT]: multi.admin, [SINGLE]: single.token };
    const procsOf = (who: string) => (who === SINGLE ? single!.procs : multi.procs);

    // Deployments first, while the 3 nodes (110 pods each) have room.
    if (replicas > 0) {
      loads.push(`deployments ${loadavg()[0]!.toFixed(1)}`);
      const values: Record<string, string> = {};
      for (const [i, who] of [TOKEN, SINGLE, CERT].entries()) values[who] = `${((await deploymentToAvailable(callers[who]!, `web-${i}`, replicas)) / 1000).toFixed(2)} s`;
      rows.push({ metric: `a Deployment of ${replicas} replicas created → Available`, values, unit: '' });
    }

    loads.push(`creates ${loadavg()[0]!.toFixed(1)}`);
    for (const clients of CLIENT_COUNTS) {
      const runs: Record<string, CreateRun[]> = { [TOKEN]: [], [CERT]: [], [SINGLE]: [] };
      for (const [j, who] of [TOKEN, SINGLE, CERT, CERT, SINGLE, TOKEN].entries()) runs[who]!.push(await createRun(callers[who]!, procsOf(who), clients, seconds / 2, `c${clients}-${j}`));
      const merged = Object.fromEntries(Object.entries(runs).map(([who, r]) => [who, merge(r)]));
      const rate = (who: string) => merged[who]!.creates / merged[who]!.seconds;
      const fmtRate = (who: string) => `${Math.round(rate(who)).toLocaleString('en-US')} (${pct(rate(who), bareRate)})`;
      const target = clients === 32 ? { target: 'SA token ≥ 35% of the bare server', met: rate(TOKEN) / bareRate >= 0.35 } : {};
      rows.push({ metric: `creates/s, ${clients} clients (of the bare server's rate)`, values: { [TOKEN]: fmtRate(TOKEN), [CERT]: fmtRate(CERT), [SINGLE]: fmtRate(SINGLE) }, unit: 'creates/s', ...target });
      const lat = (who: string) => `${quantile(merged[who]!.latencies, 0.5).toFixed(1)} / ${quantile(merged[who]!.latencies, 0.99).toFixed(1)}`;
      rows.push({ metric: `create latency p50 / p99, ${clients} clients`, values: { [TOKEN]: lat(TOKEN), [CERT]: lat(CERT), [SINGLE]: lat(SINGLE) }, unit: 'ms' });
      const perCreate = (who: string, name: string) => ((merged[who]!.cpu.get(name) ?? 0) / merged[who]!.creates) * 1e6;
      const allPerCreate = (who: string) => [...merged[who]!.cpu.keys()].reduce((sum, name) => sum + perCreate(who, name), 0);
      if (clients === 32) {
        const a = perCreate(TOKEN, 'apiserver');
        const b = perCreate(CERT, 'apiserver');
        rows.push({ metric: 'API server CPU per create, 32 clients', values: { [TOKEN]: a, [CERT]: b }, unit: 'µs', target: 'SA token ≤ cert + 5%', met: a <= b * 1.05 });
        rows.push({ metric: 'same, SA token ÷ admin cert', values: { [TOKEN]: `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(0)}%` }, unit: '' });
        rows.push({ metric: 'CPU of the whole cluster (every process) per create, 32 clients', values: { [TOKEN]: allPerCreate(TOKEN), [CERT]: allPerCreate(CERT), [SINGLE]: allPerCreate(SINGLE) }, unit: 'µs' });
      }
      for (const who of [TOKEN, CERT, SINGLE]) {
        notes.push(`${who}, ${clients} clients: ${merged[who]!.creates} creates in ${merged[who]!.seconds.toFixed(1)} s; CPU per create by process (µs): ${[...merged[who]!.cpu.keys()].map((n) => `${n} ${perCreate(who, n).toFixed(0)}`).join(', ')}`);
      }
    }
    for (const c of Object.values(callers)) c.agent.destroy();
  } finally {
    await Promise.all([multi.up.stop(), single?.up.stop()]);
  }
  loads.push(`end ${loadavg()[0]!.toFixed(1)}`);
  return {
    name: 'up',
    columns: [TOKEN, CERT, SINGLE],
    rows,
    ceiling: { bareServerPerSecond: bareRate, bareTlsServerPerSecond: bareTlsRate, spawnMs },
    notes: [
      `\`kubelite up --nodes 3\` (lmdb in a temporary --data-dir), its components as processes, and \`kubelite up --nodes 3 --single-process\` (every component in the event loop of one process), both running side by side. "${TOKEN}": a ServiceAccount's token from TokenRequest bound to a pod, the account allowed by a RoleBinding (not in system:masters); "${CERT}": the admin client certificate of the kubeconfig (system:masters); "${SINGLE}": the same token on the single-process cluster. Each client count runs ${TOKEN}, ${SINGLE}, ${CERT}, ${CERT}, ${SINGLE}, ${TOKEN} for ${seconds / 2} s each, so that the shared machine's drift falls on all; read the ratios. The start rows alternate the two modes (${startRuns} starts each), one cluster at a time.`,
      `Creates of a 1.5 KB pod over HTTPS keep-alive from this process; the pods are scheduled and run by the 3 nodes as they fit (110 each), the rest stay Pending. CPU per create: each process's CPU during the runs ÷ the creates (the other components work on the pods created, so theirs is the fan-out's cost); a single-process cluster is one process, "up".`,
      `The machine in the same run: a bare Node HTTP server that parses and echoes the pod JSON (32 keep-alive clients, ${seconds} s) and \`node -e 0\` spawned to exit.`,
      `1-minute load average of the shared machine: ${loads.join(', ')}`,
      ...notes,
    ],
  };
}
