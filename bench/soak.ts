// `npm run bench -- soak [minutes] [ops-per-second] [watchers] [--warmup minutes]`: a long run of
// `kubelite up --nodes 1` (startCluster, lmdb, the API server's history 1 minute so compaction runs
// within the run): creates, updates and deletes of ConfigMaps and Secrets at a steady rate
// (default 100/s, about 1,000 objects alive), `watchers` (100) watches reading every event.
//
// Each minute, for every component: its resident memory split as the kernel counts it (anonymous:
// V8's heap, malloc arenas, stacks; file-backed: the node binary, libraries and lmdb's mmapped
// data file), and from its own /metrics the V8 heap in use and its capacity, external memory and
// the ArrayBuffers within it, and its event loop delay p99 over that minute; the lmdb file's
// size; the events the watchers received.
//
// RSS is also read every second, and each minute's peak kept: a garbage-collected heap is a
// sawtooth, and one reading a minute lands anywhere on it, where the peak is what the process
// needs. Judged after the warm-up (see WARMUP_MINUTES): each component's RSS is flat when its
// highest and lowest per-minute peaks are within 10% (the criterion), and its JavaScript
// heap in use gets a least-squares slope per minute: a leak shows as a heap that keeps rising,
// where V8 sizing its heap or the allocator keeping freed pages shows as RSS moving with no heap
// trend.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { Agent, get } from 'node:https';
import { join } from 'node:path';
import { loadRestConfig } from '../src/client/kubeconfig.js';
import type { RestClientset } from '../src/client/rest.js';
import { startCluster, type Cluster } from '../src/up/cluster.js';
import { cpuSeconds, rssSplitMiB } from '../test/support/procs.js';
import { client } from './cluster.js';
import type { BenchReport, BenchRow } from './report.js';

/**
 * Minutes left out of the judgement by default. The workload is steady within the first minute
 * (about 1,000 objects alive, every watcher connected) and the API server's history window (1
 * minute) is compacted from the second; but the API server's V8 old generation then keeps growing
 * its capacity (committed pages) with no more live data, towards its limit of 1.5× what survives a
 * full collection (src/cli/heap-growth.ts): +1.4 MiB a minute at minutes 2–12, settled by minute
 * 10 in the 30-minute runs (bench/NOTES.md, sessions 15 and 16).
 */
const WARMUP_MINUTES = 10;

const KINDS = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', body: (v: string) => ({ data: { v } }) },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', body: (v: string) => ({ data: { v: Buffer.from(v).toString('base64') } }) },
];

const COMPONENTS = ['apiserver', 'controller-manager', 'scheduler', 'nodes'] as const;
type ComponentName = (typeof COMPONENTS)[number];

/** One component in one minute, memory in MiB. */
export interface ComponentSample {
  anon: number;
  file: number;
  /** The highest anon + file RSS of the minute, read every second. */
  peak: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  loopP99Ms: number;
  /** CPU seconds used in this minute. */
  cpu: number;
}

interface MinuteSample {
  minute: number;
  components: Partial<Record<ComponentName, ComponentSample>>;
  lmdbMiB: number;
  ops: number;
  events: number;
}

/** The value of a sample (no labels) in a Prometheus text exposition. */
export function metricValue(text: string, name: string): number {
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

/** The value of `--flag <v>` in a process's argv. */
const flagOf = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];

function dirBytes(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir)) n += statSync(join(dir, f)).size;
  return n;
}

function httpText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Where each component serves /metrics: the API server itself, the controller manager and the
 * scheduler on their plain-HTTP health ports (from their command lines), the nodes' kubelet API
 * through the API server's node proxy, as `kubectl get --raw` reaches it.
 */
async function metricsReaders(cluster: Cluster, cs: RestClientset): Promise<Map<ComponentName, { pid: number; read: () => Promise<string> }>> {
  // */*, as a Prometheus scraper's Accept ends: the API server's own /metrics is text/plain, and the
  // node proxy's answer is the kubelet's.
  const viaApiserver = async (path: string) => cs.check(await cs.send({ method: 'GET', path, accept: '*/*', idempotent: true })).body.toString();
  const node = (await cs.resource({ group: '', version: 'v1', resource: 'nodes' }).list('')).items[0];
  const nodeName = (node?.metadata as { name?: string } | undefined)?.name ?? '';
  const out = new Map<ComponentName, { pid: number; read: () => Promise<string> }>();
  for (const { name, pid } of cluster.processes()) {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (name === 'apiserver') out.set(name, { pid, read: () => viaApiserver('/metrics') });
    else if (name === 'nodes') out.set(name, { pid, read: () => viaApiserver(`/api/v1/nodes/${nodeName}/proxy/metrics`) });
    else if (name === 'controller-manager') out.set(name, { pid, read: () => httpText(`http://${flagOf(argv, '--address')}:${flagOf(argv, '--port')}/metrics`) });
    else if (name === 'scheduler') out.set(name, { pid, read: () => httpText(`http://${flagOf(argv, '--bind-address')}:${flagOf(argv, '--port')}/metrics`) });
  }
  return out;
}

const MiB = 2 ** 20;

export async function run(argv: string[]): Promise<BenchReport> {
  const warmupAt = argv.indexOf('--warmup');
  const warmup = warmupAt >= 0 ? Number(argv[warmupAt + 1]) : WARMUP_MINUTES;
  const args = warmupAt >= 0 ? argv.filter((_, i) => i !== warmupAt && i !== warmupAt + 1) : argv;
  const minutes = Number(args[0] ?? 30);
  const rate = Number(args[1] ?? 100);
  const watcherCount = Number(args[2] ?? 100);
  if (!(warmup >= 0 && warmup <= minutes - 2)) throw new Error(`--warmup ${warmup}: it must leave at least 2 of the ${minutes} minutes to judge`);
  const cluster = await startCluster({ nodes: 1, args: { apiserver: ['--storage-history', '1m', '--storage-history-revisions', '1000'] } });
  try {
    const cs = client(cluster.kubeconfig);
    const config = loadRestConfig({ kubeconfig: cluster.kubeconfig });
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity, ...(config.ca ? { ca: config.ca } : {}), ...(config.clientCert ? { cert: config.clientCert } : {}), ...(config.clientKey ? { key: config.clientKey } : {}) });
    let received = 0;
    const watches = Array.from({ length: watcherCount }, (_, i) => {
      const kind = KINDS[i % KINDS.length]!;
      return get(`${config.server}/api/v1/namespaces/default/${kind.resource}?watch=1&allowWatchBookmarks=true&timeoutSeconds=${minutes * 60 + 120}`, { agent }, (res) => {
        res.on('data', (d: Buffer) => {
          for (const b of d) if (b === 0x0a) received++;
        });
      });
    });
    const alive: Array<{ kind: (typeof KINDS)[number]; name: string }> = [];
    let n = 0;
    let ops = 0;
    let errors = 0;
    const op = async () => {
      const roll = Math.random();
      const payload = 'x'.repeat(200) + String(n);
      try {
        if (alive.length < 1000 && (roll < 0.4 || alive.length < 50)) {
          const kind = KINDS[n % KINDS.length]!;
          const name = `soak-${n++}`;
          await cs.resource(kind).create('default', { apiVersion: 'v1', kind: kind.kind, metadata: { name }, ...kind.body(payload) });
          alive.push({ kind, name });
        } else if (roll < 0.8 && alive.length > 0) {
          const o = alive[Math.floor(Math.random() * alive.length)]!;
          await cs.resource(o.kind).patch('default', o.name, 'merge', o.kind.body(payload));
        } else if (alive.length > 0) {
          const o = alive.splice(Math.floor(Math.random() * alive.length), 1)[0]!;
          await cs.resource(o.kind).delete('default', o.name);
        }
        ops++;
      } catch {
        errors++;
      }
    };
    const readers = await metricsReaders(cluster, cs);
    const cpuBefore = new Map([...readers].map(([name, r]) => [name, cpuSeconds(r.pid)]));
    // The first scrape starts each component's loop delay histogram (prom-client resets it at each scrape).
    await Promise.all([...readers.values()].map((r) => r.read().catch(() => '')));
    const sampleOf = async (name: ComponentName, r: { pid: number; read: () => Promise<string> }): Promise<ComponentSample | undefined> => {
      const rss = rssSplitMiB(r.pid);
      const text = await r.read().catch(() => '');
      const cpuNow = cpuSeconds(r.pid);
      const cpu = cpuNow - (cpuBefore.get(name) ?? cpuNow);
      cpuBefore.set(name, cpuNow);
      if (rss === undefined) return undefined;
      const peak = Math.max(peaks.get(name) ?? 0, rss.anon + rss.file + rss.shmem);
      peaks.delete(name);
      return {
        anon: rss.anon,
        file: rss.file + rss.shmem,
        peak,
        heapUsed: metricValue(text, 'nodejs_heap_size_used_bytes') / MiB,
        heapTotal: metricValue(text, 'nodejs_heap_size_total_bytes') / MiB,
        external: metricValue(text, 'nodejs_external_memory_bytes') / MiB,
        arrayBuffers: metricValue(text, 'nodejs_array_buffers_bytes') / MiB,
        loopP99Ms: metricValue(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
        cpu,
      };
    };
    const peaks = new Map<ComponentName, number>();
    const readPeaks = () => {
      for (const [name, r] of readers) {
        const rss = rssSplitMiB(r.pid);
        if (rss !== undefined) peaks.set(name, Math.max(peaks.get(name) ?? 0, rss.anon + rss.file + rss.shmem));
      }
    };
    const peakTimer = setInterval(readPeaks, 1000);
    const samples: MinuteSample[] = [];
    const start = Date.now();
    const tick = setInterval(() => {
      for (let i = 0; i < rate / 10; i++) void op();
    }, 100);
    for (let m = 1; m <= minutes; m++) {
      await new Promise((r) => setTimeout(r, start + m * 60_000 - Date.now()));
      const components: MinuteSample['components'] = {};
      for (const [name, r] of readers) {
        const s = await sampleOf(name, r);
        if (s !== undefined) components[name] = s;
      }
      const sample = { minute: m, components, lmdbMiB: dirBytes(join(cluster.dataDir, 'db')) / MiB, ops, events: received };
      samples.push(sample);
      const line = Object.entries(components).map(([k, c]) => `${k} ${c.anon.toFixed(0)}+${c.file.toFixed(0)} MiB (peak ${c.peak.toFixed(0)}, heap ${c.heapUsed.toFixed(0)}/${c.heapTotal.toFixed(0)}, ext ${c.external.toFixed(0)}, ab ${c.arrayBuffers.toFixed(0)}, p99 ${c.loopP99Ms.toFixed(0)} ms, cpu ${c.cpu.toFixed(1)} s)`);
      process.stderr.write(`soak: minute ${m}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}: ${line.join('; ')}; lmdb ${sample.lmdbMiB.toFixed(1)} MiB, ops ${ops}, events ${received}\n`);
    }
    clearInterval(tick);
    clearInterval(peakTimer);
    for (const w of watches) w.destroy();
    agent.destroy();
    return report(samples, { minutes, warmup, watcherCount, errors });
  } finally {
    await cluster.stop();
  }
}

/** The table: each minute, then each component judged after the warm-up. */
export function report(samples: MinuteSample[], run: { minutes: number; warmup: number; watcherCount: number; errors: number }): BenchReport {
  const fixed = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(0));
  const rows: BenchRow[] = samples.map((s, i) => {
    const before = samples[i - 1];
    const values: BenchRow['values'] = {};
    for (const name of COMPONENTS) {
      const c = s.components[name];
      values[name] = c === undefined ? '-' : `${fixed(c.anon)}+${fixed(c.file)} (${fixed(c.peak)}) / ${fixed(c.heapUsed)}`;
    }
    values.lmdb = s.lmdbMiB;
    values['loop p99'] = Math.max(...COMPONENTS.map((name) => s.components[name]?.loopP99Ms ?? NaN).filter(Number.isFinite));
    values['events/s'] = Math.round((s.events - (before?.events ?? 0)) / 60);
    return { metric: `minute ${s.minute}${s.minute <= run.warmup ? ' (warm-up)' : ''}`, values, unit: 'MiB anon+file RSS (peak) / heap in use; lmdb MiB; ms' };
  });
  const judged = samples.filter((s) => s.minute > run.warmup);
  const last = samples.at(-1)!;
  const writes = last.ops - (samples.find((s) => s.minute === run.warmup)?.ops ?? 0);
  rows.push({ metric: `writes/s after the warm-up`, values: { apiserver: writes / (judged.length * 60) }, unit: 'writes/s' });
  for (const name of COMPONENTS) {
    const own = judged.flatMap((s) => (s.components[name] ? [{ minute: s.minute, ...s.components[name] }] : []));
    if (own.length < 2) continue;
    const rss = own.map((c) => c.peak);
    const lo = Math.min(...rss);
    const hi = Math.max(...rss);
    const spread = (hi - lo) / lo;
    const minutesJudged = own.map((c) => c.minute);
    const range = (pick: (c: (typeof own)[number]) => number) => `${fixed(Math.min(...own.map(pick)))}–${fixed(Math.max(...own.map(pick)))}`;
    const perMinute = (ys: number[]) => `${slope(minutesJudged, ys) >= 0 ? '+' : ''}${slope(minutesJudged, ys).toFixed(2)}`;
    rows.push({
      metric: `${name}: peak RSS, minutes ${run.warmup + 1}–${last.minute}`,
      values: { apiserver: `${fixed(lo)}–${fixed(hi)} MiB (${(100 * spread).toFixed(1)}%)`, 'controller-manager': `${perMinute(rss)} MiB/min` },
      unit: 'range (spread) / slope',
      target: 'flat within 10%',
      met: spread <= 0.1,
    });
    rows.push({
      metric: `${name}: anon / file RSS, heap in use / capacity, external / ArrayBuffers`,
      values: { apiserver: `${range((c) => c.anon)} / ${range((c) => c.file)}`, 'controller-manager': `${range((c) => c.heapUsed)} / ${range((c) => c.heapTotal)}`, scheduler: `${range((c) => c.external)} / ${range((c) => c.arrayBuffers)}` },
      unit: 'MiB, min–max',
    });
    rows.push({
      metric: `${name}: slope per minute of anon RSS, heap in use, external; CPU`,
      values: { apiserver: perMinute(own.map((c) => c.anon)), 'controller-manager': perMinute(own.map((c) => c.heapUsed)), scheduler: perMinute(own.map((c) => c.external)), nodes: `${(own.reduce((a, c) => a + c.cpu, 0) / own.length / 60).toFixed(3)} cpu` },
      unit: 'MiB/min; cores',
    });
  }
  const lmdb = judged.map((s) => s.lmdbMiB);
  rows.push({ metric: `lmdb file, minutes ${run.warmup + 1}–${last.minute}`, values: { apiserver: `${Math.min(...lmdb).toFixed(1)}–${Math.max(...lmdb).toFixed(1)} MiB` }, unit: 'MiB' });
  return {
    name: 'soak',
    columns: [...COMPONENTS, 'lmdb', 'loop p99', 'events/s'],
    rows,
    notes: [
      `${last.ops} writes (${(last.ops / (run.minutes * 60)).toFixed(0)}/s, ${run.errors} failed) over ${run.minutes} min with ${run.watcherCount} watchers, which received ${last.events} events; API server history 1 min, so compaction runs within the run. Warm-up: ${run.warmup} min (--warmup).`,
      'Per minute: each component\'s resident memory at the minute, anonymous + file-backed (/proc/<pid>/status; file-backed holds lmdb\'s mapped pages), its peak over the minute (read each second), and its V8 heap in use (nodejs_heap_size_used_bytes of its /metrics); loop p99 is the worst component\'s nodejs_eventloop_lag_p99_seconds over that minute.',
    ],
    samples,
  };
}
