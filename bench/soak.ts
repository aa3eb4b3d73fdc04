// `npm run bench -- soak [minutes] [ops-per-second] [watchers]`: a long run of `kubelite up --nodes 1`
// (startCluster, lmdb, the API server's history 1 minute so compaction runs within the run):
// creates, updates and deletes of ConfigMaps and Secrets at a steady rate (default 100/s, about
// 1,000 objects alive), `watchers` (100) watches reading every event. Each minute: the RSS of every
// component, the lmdb file's size, the API server's event loop delay p99 (its /metrics), and events
// the watchers received. Reported: RSS after the warm-up minute against the last minute (flat:
// within 10%), the lmdb file's size (bounded once compaction runs), the worst loop delay.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent, get } from 'node:https';
import { join } from 'node:path';
import { loadRestConfig } from '../src/client/kubeconfig.js';
import { startCluster } from '../src/up/cluster.js';
import { childPids, rssMiB } from '../test/support/procs.js';
import { client } from './cluster.js';
import type { BenchReport, BenchRow } from './report.js';

const KINDS = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', body: (v: string) => ({ data: { v } }) },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', body: (v: string) => ({ data: { v: Buffer.from(v).toString('base64') } }) },
];

function components(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of childPids(process.pid)) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const bin = argv.findIndex((a) => a.endsWith('kubelite.js'));
      if (bin >= 0) out.set(argv[bin + 1] ?? String(pid), pid);
    } catch {
      /* gone */
    }
  }
  return out;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir)) n += statSync(join(dir, f)).size;
  return n;
}

export async function run(args: string[]): Promise<BenchReport> {
  const minutes = Number(args[0] ?? 30);
  const rate = Number(args[1] ?? 100);
  const watcherCount = Number(args[2] ?? 100);
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
    const lagP99 = async (): Promise<number> => {
      const text = (await cs.send({ method: 'GET', path: '/metrics', accept: 'text/plain', idempotent: true })).body.toString();
      return Number(/^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text)?.[1] ?? NaN) * 1000;
    };
    const samples: Array<{ minute: number; rss: Map<string, number>; lmdb: number; lagMs: number; ops: number; events: number }> = [];
    const start = Date.now();
    const tick = setInterval(() => {
      for (let i = 0; i < rate / 10; i++) void op();
    }, 100);
    for (let m = 1; m <= minutes; m++) {
      await new Promise((r) => setTimeout(r, start + m * 60_000 - Date.now()));
      const rss = new Map([...components()].map(([name, pid]) => [name, rssMiB(pid)]));
      samples.push({ minute: m, rss, lmdb: dirBytes(join(cluster.dataDir, 'db')) / 2 ** 20, lagMs: await lagP99(), ops, events: received });
      process.stderr.write(`soak: minute ${m}: ${[...rss].map(([k, v]) => `${k} ${v.toFixed(0)} MiB`).join(', ')}, lmdb ${samples.at(-1)!.lmdb.toFixed(1)} MiB, loop p99 ${samples.at(-1)!.lagMs.toFixed(1)} ms, ops ${ops}, events ${received}\n`);
    }
    clearInterval(tick);
    for (const w of watches) w.destroy();
    agent.destroy();
    const first = samples[Math.min(1, samples.length - 1)]!;
    const last = samples.at(-1)!;
    const rows: BenchRow[] = samples.map((s) => ({
      metric: `minute ${s.minute}`,
      values: { apiserver: s.rss.get('apiserver') ?? 0, 'controller-manager': s.rss.get('controller-manager') ?? 0, nodes: s.rss.get('nodes') ?? 0, lmdb: s.lmdb, 'loop p99': s.lagMs },
      unit: 'MiB RSS / MiB file / ms',
    }));
    const slope = (name: string) => ((last.rss.get(name) ?? 0) - (first.rss.get(name) ?? 0)) / (first.rss.get(name) || 1);
    for (const name of ['apiserver', 'controller-manager', 'scheduler', 'nodes']) {
      rows.push({ metric: `${name} RSS, minute ${first.minute} → ${last.minute}`, values: { apiserver: `${(100 * slope(name)).toFixed(1)}%` }, unit: 'change', target: 'flat within 10%', met: Math.abs(slope(name)) <= 0.1 });
    }
    return {
      name: 'soak',
      columns: ['apiserver', 'controller-manager', 'nodes', 'lmdb', 'loop p99'],
      rows,
      notes: [`${ops} writes (${(ops / (minutes * 60)).toFixed(0)}/s, ${errors} failed) over ${minutes} min with ${watcherCount} watchers, which received ${received} events; API server history 1 min, so compaction runs within the run.`],
    };
  } finally {
    await cluster.stop();
  }
}
