// `npm run bench -- cluster [start-runs] [deployments] [replicas] [nodes] [steady-seconds] [single]`: the
// whole of `kubelite up` (the real CLI, lmdb in a temporary data dir), measured from outside:
// (a) time from spawning it to its `ready:` line, median of several runs; (b) the RSS of all its
// processes (the supervisor and its components) when idle; (c) D Deployments × R replicas created
// through the API until every pod is Running (on 100 nodes: 110 pods fit on a node); (d) `up
// --nodes N` ready, then the steady-state heartbeat cost: API writes/s (the API server's
// apiserver_request_total) and the CPU of the nodes process and of the API server.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRestConfig } from '../src/client/kubeconfig.js';
import { RestClientset } from '../src/client/rest.js';
import type { KubeObject } from '../src/client/types.js';
import { KUBELITE_BIN } from '../test/support/kubelite.js';
import { childPids, cpuSeconds, pssMiB, reapedChildrenCpuSeconds, rssMiB } from '../test/support/procs.js';
import { quantile, type BenchReport } from './report.js';
import { parallel } from './parallel.js';
import { bareServerRate, idleNodeRssMiB, nodeSpawnMs } from './ceiling.js';
import { podTemplate } from './apiserver.js';
import { kubectlOk } from '../test/support/kubectl.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };

export interface Up {
  child: ChildProcess;
  kubeconfig: string;
  /** Milliseconds from spawn to the `ready:` line. */
  readyMs: number;
  stop(): Promise<void>;
}

/** stop() of every cluster started and not stopped yet. */
const liveUps = new Set<() => Promise<void>>();
let signalHooked = false;
/** On SIGINT/SIGTERM of the bench, its clusters stop too (they are in sessions of their own). */
function stopUpsOnSignal(): void {
  if (signalHooked) return;
  signalHooked = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void Promise.all([...liveUps].map((stop) => stop())).finally(() => process.exit(130)));
  }
}

/** Spawns `kubelite up` on a fresh data directory and resolves at its `ready:` line. */
export async function startUp(args: string[]): Promise<Up> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kubelite-bench-up-'));
  const t0 = performance.now();
  // A session of its own, as from a terminal: on a machine with autogrouping (Linux's default) the
  // scheduler then shares the CPU between it and this process driving it, not inside one group.
  // A terminal's Ctrl-C then reaches the bench alone, which passes it on.
  const child = spawn(process.execPath, [KUBELITE_BIN, 'up', '--data-dir', dataDir, '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  stopUpsOnSignal();
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    liveUps.delete(stop);
  };
  liveUps.add(stop);
  try {
    const kubeconfig = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /ready: kubeconfig=(\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`kubelite up exited ${code} before ready: ${stderr}`)));
    });
    return { child, kubeconfig, readyMs: performance.now() - t0, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

// ---- processes, from /proc ----

/** The supervisor and its components by name (`apiserver`, `nodes`, ...: the subcommand they run). */
export function clusterProcesses(upPid: number): Map<string, number> {
  const procs = new Map<string, number>([['up', upPid]]);
  for (const pid of childPids(upPid)) {
    // node [node flags] kubelite.js <subcommand> ...
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const bin = argv.findIndex((a) => a.endsWith('kubelite.js'));
    procs.set(argv[bin + 1] ?? String(pid), pid);
  }
  return procs;
}

export function cpuOf(procs: Map<string, number>): Map<string, number> {
  return new Map([...procs].map(([name, pid]) => [name, cpuSeconds(pid)]));
}

const cpuDelta = (a: Map<string, number>, b: Map<string, number>) => new Map([...b].map(([name, s]) => [name, s - (a.get(name) ?? 0)]));
const fmtCpu = (m: Map<string, number>) => [...m].map(([name, s]) => `${name} ${s.toFixed(1)}`).join(', ');

export function client(kubeconfig: string): RestClientset {
  return new RestClientset({ config: loadRestConfig({ kubeconfig }), qps: 0, contentType: 'application/vnd.kubernetes.protobuf', userAgent: 'kubelite-bench/0 (linux) kubernetes/bench' });
}

/** Sum of apiserver_request_total over the write verbs. */
async function apiWrites(cs: RestClientset): Promise<number> {
  const res = cs.check(await cs.send({ method: 'GET', path: '/metrics', accept: 'text/plain', idempotent: true }));
  let sum = 0;
  for (const line of res.body.toString().split('\n')) {
    const m = /^apiserver_request_total\{.*\bverb="(create|update|patch|delete|deletecollection|apply|post|put)".*\} (\d+(?:\.\d+)?(?:e\+\d+)?)$/i.exec(line);
    if (m) sum += Number(m[2]);
  }
  return sum;
}

// ---- (c) D Deployments × R replicas to Running ----

/** Resolves once `want` pods of `namespace` are Running, following one watch (re-listed if it ends). */
async function allRunning(cs: RestClientset, namespace: string, want: number, timeoutMs: number): Promise<void> {
  const phase = new Map<string, string>();
  let running = 0;
  const set = (name: string, p: string | undefined) => {
    const before = phase.get(name);
    if (before === 'Running') running--;
    if (p === undefined) phase.delete(name);
    else {
      phase.set(name, p);
      if (p === 'Running') running++;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const list = await cs.resource(PODS).list(namespace);
    phase.clear();
    running = 0;
    for (const p of list.items) set(String((p.metadata as { name?: string }).name), (p.status as { phase?: string } | undefined)?.phase);
    if (running >= want) return;
    const watch = await cs.resource(PODS).watch(namespace, { resourceVersion: list.metadata.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: Math.ceil(timeoutMs / 1000) });
    try {
      for await (const ev of watch) {
        if (ev.type === 'ERROR') break;
        if (ev.type === 'BOOKMARK') continue;
        const pod = ev.object as KubeObject;
        set(String((pod.metadata as { name?: string }).name), ev.type === 'DELETED' ? undefined : (pod.status as { phase?: string } | undefined)?.phase);
        if (running >= want) return;
      }
    } finally {
      watch.close();
    }
  }
  throw new Error(`${running} of ${want} pods Running after ${timeoutMs} ms`);
}

function deployment(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
    },
  };
}

export async function run(args: string[]): Promise<BenchReport> {
  const startRuns = Number(args[0] ?? 7);
  const numDeployments = Number(args[1] ?? 100);
  const replicas = Number(args[2] ?? 100);
  const numNodes = Number(args[3] ?? 1000);
  const steadySeconds = Number(args[4] ?? 30);
  // `single`: every `up` with --single-process (its components in the one process's event loop)
  const mode = args[5] === 'single' ? ['--single-process'] : [];
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  let spawnMs: number | undefined;
  let idleRss: number | undefined;
  let bareServerPerSecond: number | undefined;
  // The machine is shared: its load says how much of the 2 cores the cluster could have.
  const loads: string[] = [];
  const noteLoad = (phase: string) => loads.push(`${phase} ${loadavg()[0]!.toFixed(1)}`);

  // (a) + (b): start to ready, then idle RSS of every process.
  if (startRuns > 0) {
    noteLoad('start');
    const readyMs: number[] = [];
    let rss = new Map<string, number>();
    let pss = 0;
    for (let i = 0; i < startRuns; i++) {
      const up = await startUp(mode);
      readyMs.push(up.readyMs);
      if (i === startRuns - 1) {
        // Idle: the start's work (module loading, informers' lists, the first heartbeats) is over.
        await sleep(5000);
        const procs = clusterProcesses(up.child.pid!);
        rss = new Map([...procs].map(([name, pid]) => [name, rssMiB(pid)]));
        pss = [...procs.values()].reduce((sum, pid) => sum + pssMiB(pid), 0);
      }
      await up.stop();
    }
    const medianReady = quantile(readyMs, 0.5);
    spawnMs = nodeSpawnMs(7);
    rows.push({ metric: `spawn \`kubelite up\` (lmdb, 3 nodes) → \`ready:\` line, median of ${startRuns}`, values: { kubelite: medianReady / 1000 }, unit: 's', target: `≤ ${mode.length ? 3 : 6}× a \`node -e 0\` spawn (#25)`, met: medianReady <= (mode.length ? 3 : 6) * spawnMs });
    rows.push({ metric: 'same, min / max', values: { kubelite: `${(Math.min(...readyMs) / 1000).toFixed(2)} / ${(Math.max(...readyMs) / 1000).toFixed(2)}` }, unit: 's' });
    const rssTotal = [...rss.values()].reduce((a, b) => a + b, 0);
    idleRss = await idleNodeRssMiB();
    rows.push({ metric: `RSS of all processes, idle (${mode.length ? 'one process, 4 components in its event loop' : 'supervisor + 4 components'})`, values: { kubelite: rssTotal }, unit: 'MiB', target: mode.length ? '≤ 100 MiB (#25)' : '≤ 150 MiB (#25)', met: rssTotal <= (mode.length ? 100 : 150) });
    // Summed RSS counts the pages the processes share (the node binary's) once per process; PSS
    // divides each shared page among the processes mapping it — any node process of the machine,
    // so it also falls as other node processes run.
    rows.push({ metric: 'same, PSS (shared pages divided among the processes mapping them)', values: { kubelite: pss }, unit: 'MiB' });
    notes.push(`idle RSS by process (MiB): ${[...rss].map(([n, v]) => `${n} ${v.toFixed(0)}`).join(', ')}`);
  }

  // (c) D × R pods to Running, on 100 nodes (110 pods each).
  if (numDeployments > 0) {
    const podNodes = Math.max(3, Math.ceil((numDeployments * replicas) / 100));
    noteLoad('pods');
    // The ceiling next to this phase, whose pods/s the report reads against it.
    const pod = podTemplate('ceiling');
    bareServerPerSecond = await bareServerRate(32, 3, (c, i) => `${pod.before}c-${c}-${i}${pod.after}`);
    const up = await startUp(['--nodes', String(podNodes), ...mode]);
    const cs = client(up.kubeconfig);
    try {
      const procs = clusterProcesses(up.child.pid!);
      await cs.resource(NAMESPACES).create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
      const want = numDeployments * replicas;
      const cpu0 = cpuOf(procs);
      const t0 = performance.now();
      const done = allRunning(cs, 'bench', want, 600_000);
      await parallel(Array.from({ length: numDeployments }, (_, i) => i), 16, (i) => cs.resource(DEPLOYMENTS).create('bench', deployment(`d${i}`, replicas)));
      const createdMs = performance.now() - t0;
      await done;
      const ms = performance.now() - t0;
      const cpu = cpuDelta(cpu0, cpuOf(procs));
      // What the cluster holds once they run: every component caches the 10,000 pods.
      const rss = new Map([...procs].map(([name, pid]) => [name, rssMiB(pid)]));
      rows.push({ metric: `${numDeployments} Deployments × ${replicas} replicas: created → all ${want.toLocaleString('en-US')} pods Running (${podNodes} nodes)`, values: { kubelite: ms / 1000 }, unit: 's', target: '≤ 20 s (#25; KWOK CI gate 120 s)', met: ms <= 20_000 });
      rows.push({ metric: 'same, throughput', values: { kubelite: want / (ms / 1000) }, unit: 'pods/s' });
      rows.push({ metric: `RSS of all processes with the ${want.toLocaleString('en-US')} pods Running`, values: { kubelite: [...rss.values()].reduce((a, b) => a + b, 0) }, unit: 'MiB' });
      notes.push(`RSS by process with ${want} pods Running (MiB): ${[...rss].map(([n, v]) => `${n} ${v.toFixed(0)}`).join(', ')}`);
      // (e) what a user then types: kubectl 1.33 pages by 500 and asks for Tables.
      const getMs: number[] = [];
      // CPU of kubectl itself (its decoding and printing of the rows) and of the API server, per get.
      const kubectlCpu: number[] = [];
      const apiserverCpu: number[] = [];
      for (let i = 0; i < 3; i++) {
        const k0 = reapedChildrenCpuSeconds();
        const a0 = cpuSeconds(procs.get('apiserver')!);
        const t = performance.now();
        const out = await kubectlOk(up.kubeconfig, ['get', 'pods', '-A']);
        getMs.push(performance.now() - t);
        kubectlCpu.push(reapedChildrenCpuSeconds() - k0);
        apiserverCpu.push(cpuSeconds(procs.get('apiserver')!) - a0);
        if (out.split('\n').length < want) throw new Error(`kubectl get pods -A listed ${out.split('\n').length} lines`);
      }
      const clientMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        await kubectlOk(up.kubeconfig, ['version', '--client']);
        clientMs.push(performance.now() - t);
      }
      const getMedian = quantile(getMs, 0.5);
      rows.push({ metric: `\`kubectl get pods -A\` of the ${want.toLocaleString('en-US')} pods (Tables, pages of 500), median of 3`, values: { kubelite: getMedian / 1000 }, unit: 's', target: '≤ 1.5 s (#25; Kubernetes 1.26: 2.5 s)', met: getMedian <= 1500 });
      notes.push(`kubectl get pods -A: ${getMs.map((m) => (m / 1000).toFixed(2)).join(', ')} s; CPU seconds of kubectl ${kubectlCpu.map((s) => s.toFixed(2)).join(', ')}, of the API server ${apiserverCpu.map((s) => s.toFixed(2)).join(', ')}; \`kubectl version --client\` (kubectl's own start, the floor) ${(quantile(clientMs, 0.5) / 1000).toFixed(2)} s`);
      notes.push(`${want} pods: the ${numDeployments} Deployments were created in ${(createdMs / 1000).toFixed(2)} s; CPU seconds used meanwhile by process: ${fmtCpu(cpu)} (2 cores: ${((ms / 1000) * 2).toFixed(0)} cpu-s available)`);
    } finally {
      cs.close();
      await up.stop();
    }
  }

  // (d) N nodes: ready, then the steady-state heartbeat cost.
  if (numNodes > 0) {
    noteLoad('nodes');
    // The ceiling beside this phase too, when the pods phase did not measure it.
    if (bareServerPerSecond === undefined) {
      const pod = podTemplate('ceiling');
      bareServerPerSecond = await bareServerRate(32, 3, (c, i) => `${pod.before}c-${c}-${i}${pod.after}`);
    }
    const t0 = performance.now();
    const up = await startUp(['--nodes', String(numNodes), ...mode]).catch((e: Error) => {
      // Past `up`'s own timeout on a loaded machine: the row says so, the other phases stay.
      rows.push({ metric: `spawn \`kubelite up --nodes ${numNodes}\` → \`ready:\` line (every node Ready)`, values: { kubelite: `not ready after ${((performance.now() - t0) / 1000).toFixed(0)} s` }, unit: 's', target: '≤ 60 s for 10,000 (#24; KWOK CI gate 180 s)', met: false });
      notes.push(`\`kubelite up --nodes ${numNodes}\`: ${e.message.split('\n')[0]}`);
      return undefined;
    });
    if (up) {
      const cs = client(up.kubeconfig);
      try {
        rows.push({ metric: `spawn \`kubelite up --nodes ${numNodes}\` → \`ready:\` line (every node Ready)`, values: { kubelite: up.readyMs / 1000 }, unit: 's', target: '≤ 60 s for 10,000 (#24; KWOK CI gate 180 s)', met: up.readyMs <= 6 * numNodes });
        const procs = clusterProcesses(up.child.pid!);
        rows.push({ metric: 'same, nodes registered and Ready per second', values: { kubelite: numNodes / (up.readyMs / 1000) }, unit: 'nodes/s' });
        notes.push(`\`up --nodes ${numNodes}\` start, CPU seconds by process from spawn to ready: ${fmtCpu(cpuOf(procs))} (2 cores: ${((up.readyMs / 1000) * 2).toFixed(0)} cpu-s available)`);
        // Past the registration burst and the first staggered lease round (10 s).
        await sleep(12_000);
        const w0 = await apiWrites(cs);
        const c0 = cpuOf(procs);
        const t0 = performance.now();
        await sleep(steadySeconds * 1000);
        const elapsed = (performance.now() - t0) / 1000;
        const writes = (await apiWrites(cs)) - w0 - 1;
        const cpu = cpuDelta(c0, cpuOf(procs));
        const pct = (name: string) => ((cpu.get(name) ?? 0) / elapsed) * 100;
        rows.push({ metric: `steady state, ${numNodes} nodes: API writes/s`, values: { kubelite: writes / elapsed }, unit: 'writes/s' });
        rows.push({ metric: 'steady state: CPU of the nodes process / the API server', values: { kubelite: `${pct('nodes').toFixed(1)} / ${pct('apiserver').toFixed(1)}` }, unit: '% of a core', target: 'nodes ≤ 50 (#24)', met: pct('nodes') <= 50 });
        const nodesRss = rssMiB(procs.get('nodes')!);
        rows.push({ metric: 'RSS of the nodes process per 1,000 nodes, steady state', values: { kubelite: (nodesRss / numNodes) * 1000 }, unit: 'MiB', target: '≤ 30 (#24)', met: (nodesRss / numNodes) * 1000 <= 30 });
        notes.push(`steady state RSS by process (MiB): ${[...procs].map(([n, pid]) => `${n} ${rssMiB(pid).toFixed(0)}`).join(', ')}`);
        notes.push(`steady state over ${elapsed.toFixed(0)} s with ${numNodes} nodes, CPU % of a core by process: ${[...cpu.keys()].map((n) => `${n} ${pct(n).toFixed(1)}`).join(', ')}`);
      } finally {
        cs.close();
        await up.stop();
      }
    }
  }

  return {
    name: 'cluster',
    columns: ['kubelite'],
    rows,
    ceiling: { spawnMs, ...(bareServerPerSecond !== undefined ? { bareServerPerSecond } : {}), ...(idleRss !== undefined ? { idleNodeRssMiB: idleRss } : {}) },
    notes: [
      `\`kubelite up${mode.length ? ' --single-process' : ''}\` as a user runs it (lmdb in a temporary --data-dir, components as ${mode.length ? 'functions in the event loop of one process' : 'child processes'}) on the 2-core machine; clients use protobuf`,
      `1-minute load average of the shared machine when each phase began: ${loads.join(', ')}`,
      ...notes,
    ],
  };
}
