// `npm run bench -- crd`: custom resources on `kubelite apiserver` (lmdb, a separate process,
// HTTPS with an admin certificate):
// - the time from the POST of a CRD to its resource answering a list (each of 10 new CRDs);
// - creates/s at 32 clients of a custom resource whose schema has 50 fields and 5 CEL rules,
//   beside pod creates/s in the same run (the target: at least 0.7 of it) and the bare
//   Node server's rate on this machine (bench/ceiling.ts);
// - with KUBELITE_BENCH_WEBHOOK unset or 1: a validating webhook's added latency (p50) on
//   ConfigMap creates, over a local HTTPS webhook, beside the webhook's own handling time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clientAgent, createNamespace, expectStatus, send, startApiserver, type Target } from './apiserver.js';
import { bareServerRate } from './ceiling.js';
import { quantile, type BenchReport, type BenchRow } from './report.js';
import { webhookLatency } from './crd-webhook.js';

const SECONDS = Number(process.env.KUBELITE_BENCH_SECONDS ?? 3);
const CLIENTS = 32;

/** A CRD with 50 typed fields under spec and 5 CEL rules. */
function wideCrd(plural: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) {
    properties[`field${i}`] = i % 3 === 0 ? { type: 'integer', minimum: 0, maximum: 1_000_000 } : i % 3 === 1 ? { type: 'string', maxLength: 64 } : { type: 'boolean' };
  }
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.bench.example.com` },
    spec: {
      group: 'bench.example.com',
      scope: 'Namespaced',
      names: { plural, singular: plural.slice(0, -1), kind: plural[0]!.toUpperCase() + plural.slice(1, -1) },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties,
                'x-kubernetes-validations': [
                  { rule: 'self.field0 <= 1000000', message: 'field0 too large' },
                  { rule: "self.field1.startsWith('v')", message: 'field1 must start with v' },
                  { rule: 'self.field3 >= self.field0', message: 'field3 must not be below field0' },
                  { rule: 'size(self.field4) < 64' },
                  { rule: '!self.field2 || self.field5 == true', message: 'field5 must follow field2' },
                ],
              },
            },
          },
        },
      }],
    },
  };
}

function wideObject(kind: string, name: string): string {
  const spec: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) spec[`field${i}`] = i % 3 === 0 ? 1000 + i : i % 3 === 1 ? `value-${i}` : true;
  return JSON.stringify({ apiVersion: 'bench.example.com/v1', kind, metadata: { name }, spec });
}

async function waitForList(t: Target, path: string): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if ((await send(t, 'GET', path)).status === 200) return performance.now() - t0;
    if (performance.now() - t0 > 10_000) throw new Error(`${path} not served after 10 s`);
    await sleep(1);
  }
}

async function createRate(t: Target, path: string, body: (c: number, i: number) => string): Promise<{ perSecond: number; p50: number }> {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t0 = performance.now();
        await expectStatus(send(t, 'POST', path, body(c, i)), 201, `create ${path}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { perSecond: latencies.length / ((performance.now() - start) / 1000), p50: quantile(latencies, 0.5) };
}

export async function run(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-bench-crd-'));
  const api = await startApiserver(join(dir, 'data'), ['--disable-admission-plugins=ServiceAccount']);
  const rows: BenchRow[] = [];
  try {
    const t: Target = { port: api.port, agent: clientAgent({ keepAlive: true, maxSockets: 64 }) };
    await createNamespace(t, 'bench');

    const establish: number[] = [];
    for (let i = 0; i < 10; i++) {
      const plural = `gadget${i}s`;
      const t0 = performance.now();
      await expectStatus(send(t, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(wideCrd(plural))), 201, 'create CRD');
      await waitForList(t, `/apis/bench.example.com/v1/namespaces/bench/${plural}`);
      establish.push(performance.now() - t0);
    }
    rows.push({ metric: 'CRD POST → its resource answers a list (p50 of 10)', values: { kubelite: quantile(establish, 0.5) }, unit: 'ms', target: '≤ 100 ms', met: quantile(establish, 0.5) <= 100 });

    const pod = (c: number, i: number) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${c}-${i}` }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const pods = await createRate(t, '/api/v1/namespaces/bench/pods', pod);
    const custom = await createRate(t, '/apis/bench.example.com/v1/namespaces/bench/gadget0s', (c, i) => wideObject('Gadget0', `g-${c}-${i}`));
    const bare = await bareServerRate(CLIENTS, SECONDS, pod);
    rows.push({ metric: `pod creates/s, ${CLIENTS} clients`, values: { kubelite: pods.perSecond, 'bare server': bare }, unit: '/s' });
    rows.push({ metric: `custom resource creates/s (50 fields, 5 CEL rules), ${CLIENTS} clients`, values: { kubelite: custom.perSecond, 'bare server': bare }, unit: '/s' });
    const ratio = custom.perSecond / pods.perSecond;
    rows.push({ metric: 'custom resource creates / pod creates', values: { kubelite: ratio }, unit: '×', target: '≥ 0.7', met: ratio >= 0.7 });
    rows.push({ metric: 'create latency p50: pod / custom resource', values: { kubelite: `${pods.p50.toFixed(1)} / ${custom.p50.toFixed(1)}` }, unit: 'ms' });

    if ((process.env.KUBELITE_BENCH_WEBHOOK ?? '1') === '1') {
      const w = await webhookLatency(t);
      rows.push({ metric: 'ConfigMap create p50 without / with a validating webhook', values: { kubelite: `${w.without.toFixed(2)} / ${w.with.toFixed(2)}` }, unit: 'ms' });
      rows.push({ metric: 'webhook added latency p50 above its own time', values: { kubelite: w.with - w.without - w.webhookOwn }, unit: 'ms', target: '≤ 2 ms', met: w.with - w.without - w.webhookOwn <= 2 });
    }
    return { name: 'crd', columns: ['kubelite', 'bare server'], rows, notes: [`${SECONDS} s per create run; the bare server is a Node HTTP server parsing and echoing the pod JSON in its own process (bench/ceiling.ts)`] };
  } finally {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
