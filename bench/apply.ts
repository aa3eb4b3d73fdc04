// `npm run bench -- apply`: server-side apply against `kubelite apiserver` (lmdb, a separate
// process, HTTPS) with 8 concurrent HTTP/1.1 keep-alive clients: applies/s and apiserver CPU per
// operation for a Deployment of about 30 fields — apply that creates it, a no-op re-apply, an
// apply that changes one field — beside a plain strategic-merge PATCH of the same one-field
// change. Target (issue 7): a no-op re-apply costs at most 2× a strategic merge patch.
//
// KUBELITE_BENCH_SECONDS (default 3) sets the length of each run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientAgent, cpuMs, createNamespace, expectStatus, send, startApiserver, type Target } from './apiserver.js';
import { quantile, type BenchReport, type BenchRow } from './report.js';

const SECONDS = Number(process.env.KUBELITE_BENCH_SECONDS ?? 3);
const CLIENTS = 8;
const NAMESPACE = 'bench-apply';
const APPLY = 'application/apply-patch+yaml';
const STRATEGIC = 'application/strategic-merge-patch+json';

/** The applied configuration: a Deployment with 30 fields set by its author (as JSON, which is YAML). */
function deployment(name: string, replicas: number): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: 'bench', tier: 'web', release: 'stable' }, annotations: { 'bench.kubelite.io/owner': 'apply', 'bench.kubelite.io/run': '1' } },
    spec: {
      replicas,
      revisionHistoryLimit: 5,
      progressDeadlineSeconds: 300,
      selector: { matchLabels: { app: 'bench' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: { app: 'bench', tier: 'web' } },
        spec: {
          serviceAccountName: 'default',
          terminationGracePeriodSeconds: 20,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          containers: [
            {
              name: 'web',
              image: 'registry.k8s.io/nginx-slim:0.27',
              args: ['--listen=:8080'],
              ports: [{ name: 'http', containerPort: 8080 }],
              env: [{ name: 'MODE', value: 'prod' }, { name: 'LOG', value: 'json' }],
              resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
              readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 },
            },
          ],
        },
      },
    },
  });
}

interface RunResult {
  perSecond: number;
  p50: number;
  /** apiserver CPU time per operation, µs. */
  cpuPerOp: number;
}

/** `op(client, i)` from CLIENTS concurrent loops for SECONDS (or until `limit` operations). */
async function measure(pid: number, op: (client: number, i: number) => Promise<void>, limit = Infinity): Promise<RunResult> {
  const latencies: number[] = [];
  const cpu0 = cpuMs(pid);
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  let started = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; performance.now() < deadline && started < limit; i++) {
        started++;
        const t0 = performance.now();
        await op(c, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = cpuMs(pid) - cpu0;
  return { perSecond: latencies.length / elapsed, p50: quantile(latencies, 0.5), cpuPerOp: (cpu * 1000) / latencies.length };
}

export async function run(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-bench-apply-'));
  const server = await startApiserver(join(dir, 'data'));
  const t: Target = { port: server.port, agent: clientAgent({ keepAlive: true, maxSockets: CLIENTS }) };
  const pid = server.process.pid!;
  const base = `/apis/apps/v1/namespaces/${NAMESPACE}/deployments`;
  const apply = (name: string, replicas: number, status: number) =>
    expectStatus(send(t, 'PATCH', `${base}/${name}?fieldManager=bench&force=true`, deployment(name, replicas), 'application/json', APPLY), status, `apply ${name}`);
  try {
    await createNamespace(t, NAMESPACE);
    // Warm-up (JIT, caches) on objects outside the measured set.
    for (let i = 0; i < 200; i++) await apply(`warm-${i}`, 1, 201);
    for (let i = 0; i < 200; i++) await apply(`warm-${i}`, 1, 200);

    const names: string[][] = Array.from({ length: CLIENTS }, () => []);
    const create = await measure(pid, async (c, i) => {
      const name = `d-${c}-${i}`;
      await apply(name, 1, 201);
      names[c]!.push(name);
    });
    const pick = (c: number, i: number) => names[c]![i % names[c]!.length]!;
    const noop = await measure(pid, (c, i) => apply(pick(c, i), 1, 200).then(() => undefined));
    // One field changes per operation: each pass over a client's objects flips replicas 1 → 2 → 1.
    const flip = (c: number, i: number) => 1 + ((Math.floor(i / names[c]!.length) + 1) % 2);
    const change = await measure(pid, (c, i) => apply(pick(c, i), flip(c, i), 200).then(() => undefined));
    const offset = (c: number) => Math.ceil(change.perSecond * SECONDS / CLIENTS / names[c]!.length) + 1;
    const smp = await measure(pid, async (c, i) => {
      const replicas = 1 + ((Math.floor(i / names[c]!.length) + offset(c)) % 2);
      await expectStatus(send(t, 'PATCH', `${base}/${pick(c, i)}?fieldManager=bench-smp`, JSON.stringify({ spec: { replicas } }), 'application/json', STRATEGIC), 200, 'strategic merge patch');
    });

    const row = (metric: string, r: RunResult): BenchRow[] => [
      { metric: `${metric}/s`, values: { lmdb: r.perSecond }, unit: 'ops/s' },
      { metric: `${metric}, apiserver CPU per op`, values: { lmdb: r.cpuPerOp }, unit: 'µs' },
      { metric: `${metric}, latency p50`, values: { lmdb: r.p50 }, unit: 'ms' },
    ];
    const ratio = noop.cpuPerOp / smp.cpuPerOp;
    return {
      name: 'apply',
      columns: ['lmdb'],
      rows: [
        ...row('apply (create)', create),
        ...row('apply (no-op re-apply)', noop),
        ...row('apply (one-field change)', change),
        ...row('strategic merge patch (same change)', smp),
        { metric: 'no-op re-apply / strategic merge patch, CPU per op', values: { lmdb: ratio }, unit: '×', target: '≤ 2', met: ratio <= 2 },
        {
          metric: 'one-field apply / strategic merge patch, CPU per op',
          values: { lmdb: change.cpuPerOp / smp.cpuPerOp },
          unit: '×',
        },
      ],
      notes: [
        `The apiserver is a separate \`kubelite apiserver --storage lmdb\` process (fsync on, HTTPS); ${CLIENTS} concurrent keep-alive HTTP/1.1 clients in this process with the admin client certificate; ${SECONDS} s per run after 400 warm-up applies.`,
        'The Deployment sets about 30 fields (labels, annotations, strategy, one container with ports, env, resources and a probe); every apply is by one field manager with force=true, the patches by another manager.',
        'A no-op re-apply writes nothing and keeps the resourceVersion; the one-field changes and the patches write to storage.',
      ],
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
