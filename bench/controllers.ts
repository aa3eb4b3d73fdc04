// `npm run bench -- controllers [replicas] [jobs] [completions]`: the controller manager's
// throughput, issue 5. For each of the default QPS/burst (20/30) and --kube-api-qps=1000
// --kube-api-burst=2000, two scenarios, each against a fresh `kubelite apiserver --storage memory`
// and a fresh `kubelite controller-manager` (all default controllers, --leader-elect=false,
// --port 0), both child processes:
//  - a Deployment of R replicas (1,000): the time from its creation until R pods exist and until
//    it is Available (condition Available=True; and until all R replicas are available);
//  - J Jobs (100) × C completions (10, parallelism C): the time until every Job is Complete.
// No scheduler and no nodes: this process watches the pods and marks them directly with
// pods/status patches from a pool of concurrent requests (its client is not rate limited):
// Deployment pods Running and Ready, Job pods Succeeded (container terminated, exit code 0).
// Controller-manager CPU is utime+stime from /proc/<pid>/stat over the scenario (from the create
// to the end), its memory VmHWM (peak RSS) from /proc/<pid>/status.
// KUBELITE_BENCH_CM_NODE_ARGS is passed to the controller manager's node process (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { RestClientset } from '../src/client/rest.js';
import { loadRestConfig } from '../src/client/kubeconfig.js';
import type { KubeObject, Watch } from '../src/client/types.js';
import { KUBELITE_BIN, startApiserver } from '../test/support/kubelite.js';
import type { BenchReport, BenchRow } from './report.js';

const CM_NODE_ARGS = (process.env.KUBELITE_BENCH_CM_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
const PODS = { group: '', version: 'v1', resource: 'pods' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };
const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' };
export const NS = 'bench';
const TIMEOUT_MS = 600_000;
const PATCHERS = 32;

type Obj = Record<string, unknown>;

const CLK_TCK = 100;

/** utime+stime of a process, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** VmHWM (peak resident set) of a process, in MiB. */
export function peakRssMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export interface Cluster {
  cs: RestClientset;
  cm: ChildProcess;
  stop(): Promise<void>;
}

/** A fresh API server (memory) and controller manager (`extraFlags` added to its flags), with the bench namespace. */
export async function startCluster(qps: number | undefined, burst: number | undefined, extraFlags: readonly string[] = []): Promise<Cluster> {
  const api = await startApiserver(['--storage', 'memory']);
  const flags = ['--kubeconfig', api.kubeconfig, '--port', '0', '--leader-elect=false', ...extraFlags];
  if (qps !== undefined) flags.push(`--kube-api-qps=${qps}`, `--kube-api-burst=${burst}`);
  const cm = spawn(process.execPath, [...CM_NODE_ARGS, KUBELITE_BIN, 'controller-manager', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  cm.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
  const stopCm = async () => {
    if (cm.exitCode === null && cm.signalCode === null) {
      const exited = new Promise((r) => cm.once('exit', r));
      cm.kill('SIGTERM');
      const t = setTimeout(() => cm.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`controller-manager not ready after 30 s: ${stderr}`)), 30_000);
      cm.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/ready:/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      cm.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`controller-manager exited with ${code}: ${stderr}`));
      });
    });
  } catch (e) {
    await stopCm();
    await api.stop();
    throw e;
  }
  const cs = new RestClientset({ config: loadRestConfig({ kubeconfig: api.kubeconfig }), qps: 0, userAgent: 'kubelite-bench/v1.33.0 (bench) kubernetes/kubelite' });
  await cs.resource(NAMESPACES).create('', { metadata: { name: NS } });
  return {
    cs,
    cm,
    async stop() {
      cs.close();
      await stopCm();
      await api.stop();
    },
  };
}

/** Runs `fn` on queued items with `concurrency` requests in flight. */
export class PatchPool {
  private readonly queue: string[] = [];
  private inFlight = 0;
  errors = 0;
  lastError = '';
  constructor(
    private readonly concurrency: number,
    private readonly fn: (name: string) => Promise<unknown>,
  ) {}
  push(name: string): void {
    this.queue.push(name);
    this.pump();
  }
  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      const name = this.queue.shift()!;
      this.inFlight++;
      this.fn(name)
        .catch((e: unknown) => {
          this.errors++;
          this.lastError = e instanceof Error ? e.message : String(e);
        })
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}

/** Watches the namespace's pods from `rv`; calls `onPod` for every ADDED/MODIFIED pod. */
async function watchPods(cs: RestClientset, onPod: (type: string, pod: KubeObject) => void): Promise<Watch> {
  const list = await cs.resource(PODS).list(NS);
  for (const p of list.items) onPod('ADDED', p);
  const w = await cs.resource(PODS).watch(NS, { resourceVersion: String(list.metadata.resourceVersion ?? '') });
  void (async () => {
    for await (const ev of w) if (ev.type === 'ADDED' || ev.type === 'MODIFIED') onPod(ev.type, ev.object);
  })();
  return w;
}

const nameOf = (o: KubeObject): string => String((o.metadata as Obj).name);

interface ScenarioResult {
  rows: Record<string, number>;
  cpu: number;
  rss: number;
  patchErrors: number;
}

async function deploymentScenario(cluster: Cluster, replicas: number): Promise<ScenarioResult> {
  const { cs, cm } = cluster;
  const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const marked = new Set<string>();
  const pool = new PatchPool(PATCHERS, (name) => {
    const t = now();
    return cs.resource(PODS).patch(
      NS,
      name,
      'merge',
      {
        status: {
          phase: 'Running',
          startTime: t,
          conditions: [
            { type: 'PodScheduled', status: 'True', lastTransitionTime: t },
            { type: 'Initialized', status: 'True', lastTransitionTime: t },
            { type: 'ContainersReady', status: 'True', lastTransitionTime: t },
            { type: 'Ready', status: 'True', lastTransitionTime: t },
          ],
          containerStatuses: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: t } } }],
        },
      },
      { subresource: 'status' },
    );
  });
  let podsSeen = 0;
  let allPodsAt = 0;
  const start = { t: 0 };
  const w = await watchPods(cs, (_type, pod) => {
    const name = nameOf(pod);
    if (marked.has(name)) return;
    marked.add(name);
    podsSeen++;
    if (podsSeen === replicas) allPodsAt = performance.now();
    pool.push(name);
  });
  const cpu0 = cpuSeconds(cm.pid!);
  start.t = performance.now();
  await cs.resource(DEPLOYMENTS).create(NS, {
    metadata: { name: 'bench' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'bench' } },
      template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] } },
    },
  });
  let availableAt = 0;
  let allAvailableAt = 0;
  for (;;) {
    const d = await cs.resource(DEPLOYMENTS).get(NS, 'bench');
    const st = (d.status ?? {}) as Obj;
    const conds = (st.conditions ?? []) as Obj[];
    if (!availableAt && conds.some((c) => c.type === 'Available' && c.status === 'True')) availableAt = performance.now();
    if (!allAvailableAt && st.availableReplicas === replicas && st.readyReplicas === replicas) allAvailableAt = performance.now();
    if (availableAt && allAvailableAt && allPodsAt) break;
    if (performance.now() - start.t > TIMEOUT_MS) throw new Error(`deployment: after ${TIMEOUT_MS / 1000} s: ${podsSeen} pods, status ${JSON.stringify(st)}; patch errors ${pool.errors} ${pool.lastError}`);
    await sleep(20);
  }
  const cpu = cpuSeconds(cm.pid!) - cpu0;
  const rss = peakRssMiB(cm.pid!);
  w.close();
  return {
    rows: { pods: (allPodsAt - start.t) / 1000, available: (availableAt - start.t) / 1000, allAvailable: (allAvailableAt - start.t) / 1000 },
    cpu,
    rss,
    patchErrors: pool.errors,
  };
}

async function jobsScenario(cluster: Cluster, jobs: number, completions: number): Promise<ScenarioResult> {
  const { cs, cm } = cluster;
  const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const marked = new Set<string>();
  const pool = new PatchPool(PATCHERS, (name) => {
    const t = now();
    return cs.resource(PODS).patch(
      NS,
      name,
      'merge',
      {
        status: {
          phase: 'Succeeded',
          startTime: t,
          conditions: [
            { type: 'PodScheduled', status: 'True', lastTransitionTime: t },
            { type: 'Initialized', status: 'True', lastTransitionTime: t },
            { type: 'ContainersReady', status: 'False', reason: 'PodCompleted', lastTransitionTime: t },
            { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: t },
          ],
          containerStatuses: [
            { name: 'c', image: 'registry.k8s.io/pause:3.10', imageID: '', ready: false, started: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: t, finishedAt: t } } },
          ],
        },
      },
      { subresource: 'status' },
    );
  });
  let podsSeen = 0;
  const w = await watchPods(cs, (_type, pod) => {
    const name = nameOf(pod);
    if (marked.has(name)) return;
    const phase = (pod.status as Obj | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed' || (pod.metadata as Obj).deletionTimestamp) return;
    marked.add(name);
    podsSeen++;
    pool.push(name);
  });
  const cpu0 = cpuSeconds(cm.pid!);
  const start = performance.now();
  const names = Array.from({ length: jobs }, (_, i) => `job-${i}`);
  let i = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (i < names.length) {
        const name = names[i++]!;
        await cs.resource(JOBS).create(NS, {
          metadata: { name },
          spec: {
            completions,
            parallelism: completions,
            backoffLimit: 6,
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'registry.k8s.io/busybox:1.36', command: ['true'] }] } },
          },
        });
      }
    }),
  );
  const created = performance.now();
  let complete = 0;
  for (;;) {
    const list = await cs.resource(JOBS).list(NS);
    complete = list.items.filter((j) => (((j.status as Obj | undefined)?.conditions ?? []) as Obj[]).some((c) => c.type === 'Complete' && c.status === 'True')).length;
    if (complete === jobs) break;
    if (performance.now() - start > TIMEOUT_MS) throw new Error(`jobs: after ${TIMEOUT_MS / 1000} s: ${complete}/${jobs} Complete, ${podsSeen} pods; patch errors ${pool.errors} ${pool.lastError}`);
    await sleep(50);
  }
  const end = performance.now();
  const cpu = cpuSeconds(cm.pid!) - cpu0;
  const rss = peakRssMiB(cm.pid!);
  w.close();
  return { rows: { complete: (end - start) / 1000, created: (created - start) / 1000, pods: podsSeen }, cpu, rss, patchErrors: pool.errors };
}

export async function run(args: string[]): Promise<BenchReport> {
  const replicas = Number(args[0] ?? 1000);
  const jobs = Number(args[1] ?? 100);
  const completions = Number(args[2] ?? 10);
  const settings: { col: string; qps?: number; burst?: number }[] = [
    { col: 'qps 20 / burst 30 (default)' },
    { col: 'qps 1000 / burst 2000', qps: 1000, burst: 2000 },
  ];
  const only = process.env.KUBELITE_BENCH_ONLY; // 'default' | 'fast' (for profiling one run)
  const cols = settings.filter((s) => !only || (only === 'fast') === (s.qps !== undefined));
  const dep: Record<string, ScenarioResult> = {};
  const job: Record<string, ScenarioResult> = {};
  for (const s of cols) {
    const scenarios = process.env.KUBELITE_BENCH_SCENARIO; // 'deployment' | 'jobs' | 'nodes' | 'endpoints'
    if (!scenarios || scenarios === 'deployment') {
      const c = await startCluster(s.qps, s.burst);
      try {
        dep[s.col] = await deploymentScenario(c, replicas);
      } finally {
        await c.stop();
      }
      process.stderr.write(`${s.col}: deployment ${JSON.stringify(dep[s.col])}\n`);
    }
    if (!scenarios || scenarios === 'jobs') {
      const c = await startCluster(s.qps, s.burst);
      try {
        job[s.col] = await jobsScenario(c, jobs, completions);
      } finally {
        await c.stop();
      }
      process.stderr.write(`${s.col}: jobs ${JSON.stringify(job[s.col])}\n`);
    }
  }
  const columns = cols.map((s) => s.col);
  const fast = 'qps 1000 / burst 2000';
  const val = (m: Record<string, ScenarioResult>, f: (r: ScenarioResult) => number) => Object.fromEntries(columns.filter((c) => m[c]).map((c) => [c, f(m[c]!)]));
  const rows: BenchRow[] = [];
  if (Object.keys(dep).length) {
    const podsFast = dep[fast]?.rows.pods;
    rows.push(
      { metric: `Deployment ${replicas} replicas: ${replicas} pods exist`, values: val(dep, (r) => r.rows.pods!), unit: 's', target: '≤ 5 s at qps 1000', ...(podsFast !== undefined ? { met: podsFast <= 5 } : {}) },
      { metric: 'Deployment: condition Available=True', values: val(dep, (r) => r.rows.available!), unit: 's' },
      { metric: `Deployment: all ${replicas} replicas available`, values: val(dep, (r) => r.rows.allAvailable!), unit: 's' },
      { metric: 'Deployment: controller-manager CPU', values: val(dep, (r) => r.cpu), unit: 'cpu-s' },
      { metric: 'Deployment: controller-manager peak RSS (VmHWM)', values: val(dep, (r) => r.rss), unit: 'MiB' },
    );
  }
  if (Object.keys(job).length) {
    rows.push(
      { metric: `${jobs} Jobs × ${completions} completions: all Complete`, values: val(job, (r) => r.rows.complete!), unit: 's' },
      { metric: 'Jobs: pods created', values: val(job, (r) => r.rows.pods!), unit: 'pods' },
      { metric: 'Jobs: controller-manager CPU', values: val(job, (r) => r.cpu), unit: 'cpu-s' },
      { metric: 'Jobs: controller-manager peak RSS (VmHWM)', values: val(job, (r) => r.rss), unit: 'MiB' },
    );
  }
  // the node lifecycle scenario (bench/controllers-nodes.ts) runs at qps 1000: its rows go in that column
  const scenario = process.env.KUBELITE_BENCH_SCENARIO;
  const extraNotes: string[] = [];
  if ((!scenario || scenario === 'nodes') && (!only || only === 'fast')) {
    const nodes = await (await import('./controllers-nodes.js')).run([]);
    for (const r of nodes.rows) rows.push({ ...r, metric: `Node failures: ${r.metric}`, values: { [fast]: Object.values(r.values)[0]! } });
    extraNotes.push(`Node failures: ${nodes.name}, ${nodes.columns[0]}. ${nodes.notes?.join(' ') ?? ''}`);
    if (!columns.includes(fast)) columns.push(fast);
  }
  // the endpoints scenario (bench/controllers-endpoints.ts): its default column is this one's, its
  // fast one runs with 1 s batch periods besides qps 1000 (its notes say why)
  if ((!scenario || scenario === 'endpoints') && (!only || only === 'fast' || only === 'default')) {
    const endpoints = await (await import('./controllers-endpoints.js')).run([]);
    for (const r of endpoints.rows) {
      const values = Object.fromEntries(Object.entries(r.values).map(([col, v]) => [col.startsWith('qps 1000') ? fast : col, v]));
      rows.push({ ...r, metric: `1,000 pods behind a Service: ${r.metric}`, values });
    }
    extraNotes.push(`Endpoints: ${endpoints.name}; in the qps 1000 column with --endpoint-updates-batch-period=1s --endpointslice-updates-batch-period=1s. ${endpoints.notes?.join(' ') ?? ''}`);
    for (const c of [cols[0]?.col, fast]) if (c && !columns.includes(c)) columns.push(c);
  }
  const errs = [...Object.values(dep), ...Object.values(job)].reduce((a, r) => a + r.patchErrors, 0);
  return {
    name: `controllers (Deployment ${replicas} replicas; ${jobs} Jobs × ${completions} completions)`,
    columns,
    rows,
    notes: [
      'Each scenario against a fresh `kubelite apiserver --storage memory` and a fresh `kubelite controller-manager --leader-elect=false --port 0` (all default controllers), both child processes of the bench (2 cores shared by the three processes).',
      `No scheduler, no nodes: the bench watches the pods and marks them with pods/status merge patches (${PATCHERS} in flight, unlimited client): Deployment pods Running + Ready, Job pods Succeeded (terminated, exit 0). Jobs have parallelism = completions.`,
      'Times from the create of the Deployment (the first Job). CPU: utime+stime of the controller-manager process over the scenario; peak RSS: its VmHWM at the end of the scenario (startup included).',
      `status patch errors: ${errs}`,
      ...extraNotes,
    ],
  };
}
