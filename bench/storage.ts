// `npm run bench -- storage`: lmdb (embedded) and a real, durable etcd started by the benchmark,
// side by side, with 1.5 KB values: create throughput and latency at 1/16/64 writers, list of
// 10,000 keys (whole and in pages of 500), commit→watch-event latency to 1 and 100 watchers,
// resident memory after 10,000 and 100,000 keys.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EtcdStorage } from '../src/storage/etcd/etcd-storage.js';
import { LmdbStorage } from '../src/storage/lmdb/lmdb-storage.js';
import type { Storage } from '../src/storage/types.js';
import { etcdAvailable, startEtcd } from '../test/support/etcd-server.js';
import { quantile, type BenchReport, type BenchRow } from './report.js';

const VALUE = Buffer.from(randomBytes(1152).toString('base64')); // 1,536 bytes
const CREATE_SECONDS = Number(process.env.KUBELITE_BENCH_SECONDS ?? 3);

interface SystemResult {
  creates: Record<number, { perSecond: number; p50: number; p99: number }>;
  listWholeMs: number;
  listPagedMs: number;
  watch: Record<number, { p50: number; p99: number }>;
  rssMiB: Record<number, number>;
}

async function createLoad(s: Storage, prefix: string, writers: number): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const deadline = performance.now() + CREATE_SECONDS * 1000;
  let n = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t0 = performance.now();
        await s.create(`${prefix}w${w}-${i}`, VALUE);
        latencies.push(performance.now() - t0);
        n++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { perSecond: n / elapsed, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

async function fill(s: Storage, prefix: string, count: number, writers = 64): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = next++; i < count; i = next++) await s.create(`${prefix}${String(i).padStart(7, '0')}`, VALUE);
    }),
  );
}

async function median(times: number, fn: () => Promise<void>): Promise<number> {
  const sample: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    sample.push(performance.now() - t0);
  }
  return quantile(sample, 0.5);
}

/** Sequential writes; for each, the time from the write's acknowledgement to each watcher's event. */
async function watchLatency(s: Storage, prefix: string, watchers: number, writes: number): Promise<{ p50: number; p99: number }> {
  const from = await s.currentRevision();
  const arrivals = new Map<string, number[]>();
  let pending: { key: string; left: number; done: () => void } | undefined;
  const watches = Array.from({ length: watchers }, () => s.watch(prefix, { fromRevision: from }));
  const loops = watches.map(async (w) => {
    for await (const ev of w) {
      const t = performance.now();
      arrivals.get(ev.key)?.push(t);
      if (pending && pending.key === ev.key && --pending.left === 0) pending.done();
    }
  });
  const sample: number[] = [];
  for (let i = 0; i < writes; i++) {
    const key = `${prefix}k${i}`;
    arrivals.set(key, []);
    const allSeen = new Promise<void>((resolve) => (pending = { key, left: watchers, done: resolve }));
    await s.create(key, VALUE);
    const acked = performance.now();
    await allSeen;
    // An event can beat the acknowledgement (etcd sends the watch response and the put response on
    // separate streams): it then counts as 0.
    for (const t of arrivals.get(key)!) sample.push(Math.max(0, t - acked));
    arrivals.delete(key);
  }
  for (const w of watches) w.close();
  await Promise.allSettled(loops);
  return { p50: quantile(sample, 0.5), p99: quantile(sample, 0.99) };
}

/** Resident memory of a fresh process that has written `count` keys into lmdb (this file's child mode). */
function lmdbRssChild(count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--rss-child', String(count)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`rss child exited ${code}`))));
  });
}

async function rssChildMain(count: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-bench-rss-'));
  try {
    const s = await LmdbStorage.open({ dataDir: dir });
    await fill(s, '/registry/pods/bench/', count);
    (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write(`${process.memoryUsage().rss / 2 ** 20}\n`);
    await s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function processRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function measure(s: Storage, rss: (count: number) => Promise<number>): Promise<SystemResult> {
  const creates: SystemResult['creates'] = {};
  for (const writers of [1, 16, 64]) creates[writers] = await createLoad(s, `/registry/bench-create-${writers}/`, writers);
  await fill(s, '/registry/bench-list/', 10_000);
  const listWholeMs = await median(5, async () => {
    const r = await s.list('/registry/bench-list/');
    if (r.items.length !== 10_000) throw new Error(`listed ${r.items.length}`);
  });
  const listPagedMs = await median(5, async () => {
    let n = 0;
    let page = await s.list('/registry/bench-list/', { limit: 500 });
    n += page.items.length;
    while (page.more) {
      page = await s.list('/registry/bench-list/', { limit: 500, revision: page.revision, startAfter: page.items[page.items.length - 1]!.key });
      n += page.items.length;
    }
    if (n !== 10_000) throw new Error(`paged ${n}`);
  });
  const watch: SystemResult['watch'] = {};
  for (const watchers of [1, 100]) watch[watchers] = await watchLatency(s, `/registry/bench-watch-${watchers}/`, watchers, 300);
  const rssMiB: SystemResult['rssMiB'] = {};
  for (const count of [10_000, 100_000]) rssMiB[count] = await rss(count);
  return { creates, listWholeMs, listPagedMs, watch, rssMiB };
}

export async function run(): Promise<BenchReport> {
  const systems: Record<string, SystemResult> = {};
  const notes: string[] = [];

  const lmdbDir = mkdtempSync(join(tmpdir(), 'kubelite-bench-lmdb-'));
  const lmdb = await LmdbStorage.open({ dataDir: lmdbDir });
  try {
    systems.lmdb = await measure(lmdb, lmdbRssChild);
  } finally {
    await lmdb.close();
    rmSync(lmdbDir, { recursive: true, force: true });
  }

  const available = etcdAvailable();
  if (available.ok) {
    const cluster = await startEtcd({ members: 1, fsync: true });
    const etcd = await EtcdStorage.open({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
    try {
      const pid = cluster.members[0]!.process.pid!;
      systems.etcd = await measure(etcd, async (count) => {
        await fill(etcd, `/registry/bench-rss-${count}/`, count);
        return processRssMiB(pid);
      });
    } finally {
      await etcd.close();
      await cluster.stop();
    }
    notes.push('etcd: a real single-member etcd (fsync on) started by the benchmark on the same machine; its RSS is the etcd process, the lmdb figure the whole Node process holding the store.');
  } else {
    notes.push(`etcd skipped: ${available.reason}`);
  }

  const columns = Object.keys(systems);
  const row = (metric: string, unit: string, pick: (r: SystemResult) => number, target?: string, met?: (v: Record<string, number>) => boolean): BenchRow => {
    const values: Record<string, number> = {};
    for (const c of columns) values[c] = pick(systems[c]!);
    return { metric, unit, values, target, met: met?.(values) };
  };
  const rows: BenchRow[] = [];
  for (const w of [1, 16, 64]) {
    rows.push(
      row(`creates/s, ${w} writer${w > 1 ? 's' : ''}`, 'ops/s', (r) => r.creates[w]!.perSecond,
        w === 64 ? 'lmdb ≥ 20,000 and ≥ 2× etcd' : undefined,
        w === 64 ? (v) => v.lmdb! >= 20_000 && (v.etcd === undefined || v.lmdb! >= 2 * v.etcd) : undefined),
      row(`create latency p50, ${w} writer${w > 1 ? 's' : ''}`, 'ms', (r) => r.creates[w]!.p50),
      row(`create latency p99, ${w} writer${w > 1 ? 's' : ''}`, 'ms', (r) => r.creates[w]!.p99),
    );
  }
  rows.push(row('list 10,000 keys, whole', 'ms', (r) => r.listWholeMs));
  rows.push(row('list 10,000 keys, pages of 500', 'ms', (r) => r.listPagedMs));
  for (const w of [1, 100]) {
    rows.push(row(`commit→event p50, ${w} watcher${w > 1 ? 's' : ''}`, 'ms', (r) => r.watch[w]!.p50));
    rows.push(row(`commit→event p99, ${w} watcher${w > 1 ? 's' : ''}`, 'ms', (r) => r.watch[w]!.p99, 'lmdb ≤ 5', (v) => v.lmdb! <= 5));
  }
  rows.push(row('RSS after 10,000 keys', 'MiB', (r) => r.rssMiB[10_000]!));
  rows.push(row('RSS after 100,000 keys', 'MiB', (r) => r.rssMiB[100_000]!, 'lmdb < 300', (v) => v.lmdb! < 300));
  return { name: 'storage', columns, rows, notes };
}

if (process.argv[2] === '--rss-child') {
  rssChildMain(Number(process.argv[3])).catch((err) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
}
