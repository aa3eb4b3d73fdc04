// `npm run bench -- single-process [rounds] [idle-seconds] [create-seconds]`: the two ways `kubelite up
// --single-process` runs its components — every component in the supervisor's own event loop
// (`event-loop`, src/up/in-loop.ts) or each on a worker thread (`worker-threads`) — alternated
// A B B A ... one cluster at a time, so that the shared machine's drift falls on both. Per start:
// spawn → `ready:`, the process's CPU seconds at ready, its RSS after the idle wait; then creates
// of a 1.5 KB pod at 8 clients (admin certificate, HTTPS keep-alive): creates/s and the process's
// CPU per create. Medians per mode; starts beside a `node -e 0` spawn.
import { Agent } from 'node:https';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRestConfig } from '../src/client/kubeconfig.js';
import { cpuSeconds, rssMiB } from '../test/support/procs.js';
import { nodeSpawnMs } from './ceiling.js';
import { startUp } from './cluster.js';
import { createRun, NAMESPACE, ok, type Caller } from './up.js';
import { quantile, type BenchReport } from './report.js';

const MODES = ['event-loop', 'worker-threads'] as const;
type Mode = (typeof MODES)[number];

interface Sample {
  readyMs: number;
  cpuToReadyS: number;
  idleRssMiB: number;
  createsPerS: number;
  cpuPerCreateUs: number;
}

async function once(mode: Mode, idleSeconds: number, createSeconds: number): Promise<Sample> {
  const up = await startUp(['--nodes', '3', '--single-process', mode]);
  try {
    const pid = up.child.pid!;
    const cpuToReadyS = cpuSeconds(pid);
    await sleep(idleSeconds * 1000);
    const idleRssMiB = rssMiB(pid);
    const config = loadRestConfig({ kubeconfig: up.kubeconfig });
    const admin: Caller = { port: Number(new URL(config.server).port), agent: new Agent({ keepAlive: true, maxSockets: 64, ca: config.ca, cert: config.clientCert, key: config.clientKey }), headers: {} };
    await ok(admin, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    const run = await createRun(admin, new Map([['up', pid]]), 8, createSeconds, mode);
    admin.agent.destroy();
    return { readyMs: up.readyMs, cpuToReadyS, idleRssMiB, createsPerS: run.creates / run.seconds, cpuPerCreateUs: (1e6 * (run.cpu.get('up') ?? 0)) / run.creates };
  } finally {
    await up.stop();
  }
}

export async function run(args: string[]): Promise<BenchReport> {
  const rounds = Number(args[0] ?? 3);
  const idleSeconds = Number(args[1] ?? 20);
  const createSeconds = Number(args[2] ?? 10);
  const spawnMs = nodeSpawnMs();
  const samples: Record<Mode, Sample[]> = { 'event-loop': [], 'worker-threads': [] };
  const loads: string[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const mode of i % 2 === 0 ? MODES : [...MODES].reverse()) {
      loads.push(loadavg()[0]!.toFixed(1));
      samples[mode].push(await once(mode, idleSeconds, createSeconds));
    }
  }
  const median = (mode: Mode, key: keyof Sample) => quantile(samples[mode].map((s) => s[key]), 0.5);
  const row = (metric: string, key: keyof Sample, unit: string, digits: number) => ({
    metric,
    values: Object.fromEntries(MODES.map((m) => [m, `${median(m, key).toFixed(digits)} (${samples[m].map((s) => s[key].toFixed(digits)).join(', ')})`])),
    unit,
  });
  return {
    name: 'single-process',
    columns: [...MODES],
    rows: [
      { ...row('spawn `kubelite up --nodes 3 --single-process <mode>` → `ready:`, median (each run)', 'readyMs', 'ms', 0), target: `≤ 3× spawn = ${(3 * spawnMs).toFixed(0)} ms`, met: MODES.some((m) => median(m, 'readyMs') <= 3 * spawnMs) },
      row('CPU of the process to ready', 'cpuToReadyS', 's', 2),
      { ...row(`RSS after ${idleSeconds} s idle`, 'idleRssMiB', 'MiB', 0), target: '≤ 100 MiB', met: MODES.some((m) => median(m, 'idleRssMiB') <= 100) },
      row('creates/s of a 1.5 KB pod, 8 clients', 'createsPerS', 'creates/s', 0),
      row('CPU of the process per create', 'cpuPerCreateUs', 'µs', 0),
    ],
    notes: [`${rounds} rounds, the modes alternated (A B B A ...), one cluster at a time; node -e 0 spawn ${spawnMs.toFixed(0)} ms; 1-minute load at each start: ${loads.join(', ')}`],
    ceiling: { spawnMs },
    samples: MODES.map((m) => ({ mode: m, samples: samples[m] })),
  };
}
