// `npm run bench -- apiserver`: `kubelite apiserver` (lmdb storage in a temporary directory) as a
// separate process, driven over HTTPS (HTTP/1.1 keep-alive connections, TLS sessions resumed,
// an admin client certificate as `kubelite up` issues) from this one: pod creates/s and
// latency with 1, 8 and 32 concurrent clients; a full list of 10,000 pods in JSON and protobuf,
// whole and in pages of 500; write-response→watch-event latency to 1 and 100 HTTP watchers;
// resident memory idle and with 10,000 pods; spawn→/readyz time. The same load then runs against a
// second API server with its fast path off (KUBELITE_FAST_PATH=off), printed beside the first.
//
// `npm run bench -- apiserver --authorization-mode=RBAC` (or AlwaysAllow) runs the same load as a
// bearer-token user who is not in system:masters, allowed by RoleBindings to the default
// system:aggregate-to-edit/view roles (RBAC) or by AlwaysAllow: the cost of authorization.
//
// The API server runs with the node flags `kubelite up` gives it (src/up/node-flags.ts).
// KUBELITE_BENCH_SECONDS (default 3) sets the length of each create run;
// KUBELITE_BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to the
// apiserver's node process, for profiling it under this load.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest, type AgentOptions } from 'node:https';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bareServerRate, bareTlsRow, bareTlsServerRate, nodeSpawnMs } from './ceiling.js';
import { prepareApiserverPki } from './tls.js';
import { quantile, type BenchReport, type BenchRow } from './report.js';
import { freePort } from '../test/support/ports.js';
import { KUBELITE_BIN } from '../test/support/kubelite.js';
import { componentNodeFlags } from '../src/up/node-flags.js';

const CREATE_SECONDS = Number(process.env.KUBELITE_BENCH_SECONDS ?? 3);
/** The node flags `kubelite up` gives its API server, then KUBELITE_BENCH_NODE_ARGS. */
const NODE_ARGS = [...componentNodeFlags(), ...(process.env.KUBELITE_BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '')];
const LIST_PODS = 10_000;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** Sent with every request (the bench user's bearer token with --authorization-mode). */
const AUTH: Record<string, string> = {};
const BENCH_TOKENS = 'bench-admin-token,bench-admin,1,system:masters\nbench-token,bench,2,\n';

// ------------------------------------------------------------------------------ the pod

/** A realistic pod of about 1.5 KB as a client sends it (the server adds defaults and metadata). */
export function podTemplate(namespace: string): { before: string; after: string } {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: '\u0000',
      namespace,
      labels: { app: 'bench-web', tier: 'frontend', release: 'stable', 'app.kubernetes.io/managed-by': 'kubelite-bench' },
      annotations: { 'kubelite.io/bench': 'apiserver', 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9102' },
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.k8s.io/nginx-slim:0.27',
          args: ['--listen=0.0.0.0:8080', '--log-level=info', '--workers=4'],
          ports: [
            { name: 'http', containerPort: 8080, protocol: 'TCP' },
            { name: 'metrics', containerPort: 9102, protocol: 'TCP' },
          ],
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'LOG_FORMAT', value: 'json' },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 2, periodSeconds: 5 },
          volumeMounts: [{ name: 'config', mountPath: '/etc/web', readOnly: true }],
        },
        {
          name: 'log-shipper',
          image: 'registry.k8s.io/fluent-bit:2.2.0',
          resources: { requests: { cpu: '20m', memory: '32Mi' } },
          volumeMounts: [{ name: 'logs', mountPath: '/var/log/web' }],
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: 'web-config' } },
        { name: 'logs', emptyDir: {} },
      ],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      terminationGracePeriodSeconds: 30,
    },
  };
  const [before, after] = JSON.stringify(pod).split('\\u0000') as [string, string];
  return { before, after };
}

// ------------------------------------------------------------------------------ HTTPS

/** The CA to trust and the admin's client certificate (system:masters), set by startApiserver. */
let tlsOptions: Pick<AgentOptions, 'ca' | 'cert' | 'key'> = {};

/** A client agent for the apiserver started last (trusts its CA, presents the admin certificate). */
export function clientAgent(opts: AgentOptions): Agent {
  return new Agent({ ...opts, ...tlsOptions });
}


export interface Response {
  status: number;
  body: Buffer;
}

export interface Target {
  port: number;
  agent: Agent;
}

export function send(t: Target, method: string, path: string, body?: string, accept = 'application/json', contentType = 'application/json'): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Accept: accept, ...AUTH };
    if (body !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const req = httpRequest({ host: '127.0.0.1', port: t.port, method, path, headers, agent: t.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A GET that keeps only the first 64 KB of the body (the list metadata) and counts the rest, as a lean client would. */
function getHead(t: Target, path: string, accept: string): Promise<{ status: number; head: Buffer; length: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: t.port, method: 'GET', path, headers: { Accept: accept, ...AUTH }, agent: t.agent }, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let length = 0;
      res.on('data', (c: Buffer) => {
        length += c.length;
        if (kept < 65536) {
          chunks.push(c);
          kept += c.length;
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, head: Buffer.concat(chunks), length }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function expectStatus(p: Promise<Response>, status: number, what: string): Promise<Response> {
  const r = await p;
  if (r.status !== status) throw new Error(`${what}: HTTP ${r.status}: ${r.body.toString().slice(0, 500)}`);
  return r;
}


// ------------------------------------------------------------------------------ the process

export interface Apiserver {
  process: ChildProcess;
  port: number;
  /** ms from spawn to the first 200 from /readyz. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Spawns `kubelite apiserver --storage lmdb` and polls /readyz (fresh connections, every 2 ms). */
export async function startApiserver(dataDir: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<Apiserver> {
  const port = await freePort();
  const { ca, cert, key } = await prepareApiserverPki(dataDir);
  tlsOptions = { ca, cert, key };
  const t0 = performance.now();
  const child = spawn(process.execPath, [...NODE_ARGS, KUBELITE_BIN, 'apiserver', '--storage', 'lmdb', '--data-dir', dataDir, '--port', String(port), ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const probe: Target = { port, agent: new Agent({ keepAlive: false, ...tlsOptions }) };
  for (;;) {
    if (exited) throw new Error(`apiserver exited before it was ready: ${stderr}`);
    if (performance.now() - t0 > 30_000) throw new Error(`apiserver not ready after 30 s: ${stderr}`);
    try {
      if ((await send(probe, 'GET', '/readyz')).status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(2);
  }
  const readyMs = performance.now() - t0;
  return {
    process: child,
    port,
    readyMs,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
      }
    },
  };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

// ------------------------------------------------------------------------------ measurements

export async function createNamespace(t: Target, name: string): Promise<void> {
  await expectStatus(send(t, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })), 201, `create namespace ${name}`);
  // What the controller manager's serviceaccount controller would create: pods need it (ServiceAccount admission).
  await expectStatus(send(t, 'POST', `/api/v1/namespaces/${name}/serviceaccounts`, JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } })), 201, `create service account ${name}/default`);
}

interface CreateResult {
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU use (% of one core) of the apiserver and of this client process during the run. */
  serverCpu: number;
  clientCpu: number;
}

/** user + system CPU time of a process in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function createLoad(t: Target, pid: number, namespace: string, clients: number, seconds: number): Promise<CreateResult> {
  const { before, after } = podTemplate(namespace);
  const path = `/api/v1/namespaces/${namespace}/pods`;
  const latencies: number[] = [];
  const serverCpu0 = cpuMs(pid);
  const clientCpu0 = process.cpuUsage();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const body = `${before}c${clients}-${c}-${i}${after}`;
        const t0 = performance.now();
        await expectStatus(send(t, 'POST', path, body), 201, 'create pod');
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const client = process.cpuUsage(clientCpu0);
  return {
    perSecond: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    serverCpu: (cpuMs(pid) - serverCpu0) / elapsed / 10,
    clientCpu: (client.user + client.system) / 1000 / elapsed / 10,
  };
}

async function fill(t: Target, namespace: string, count: number, clients = 32): Promise<void> {
  const { before, after } = podTemplate(namespace);
  const path = `/api/v1/namespaces/${namespace}/pods`;
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < count; i = next++) {
        await expectStatus(send(t, 'POST', path, `${before}pod-${String(i).padStart(5, '0')}${after}`), 201, 'create pod');
      }
    }),
  );
}

// A few lines of protobuf wire reading: the continue token and the item count of a PodList in
// Kubernetes' envelope ("k8s\0" + runtime.Unknown{typeMeta=1, raw=2, ...}), without decoding pods.
function varint(buf: Buffer, pos: number): [number, number] {
  let v = 0;
  let mul = 1;
  for (;;) {
    const b = buf[pos++]!;
    v += (b & 0x7f) * mul;
    if (b < 0x80) return [v, pos];
    mul *= 128;
  }
}

function* fieldsOf(buf: Buffer, start: number, end: number): Generator<{ field: number; start: number; end: number }> {
  let pos = start;
  while (pos < end) {
    const [tag, p] = varint(buf, pos);
    const wire = tag & 7;
    if (wire === 2) {
      const [len, q] = varint(buf, p);
      yield { field: Math.floor(tag / 8), start: q, end: q + len };
      pos = q + len;
    } else if (wire === 0) {
      pos = varint(buf, p)[1];
    } else if (wire === 1) pos = p + 8;
    else if (wire === 5) pos = p + 4;
    else throw new Error(`unexpected protobuf wire type ${wire}`);
  }
}

function protobufList(body: Buffer): { items: number; continue: string } {
  if (body.subarray(0, 4).toString('latin1') !== 'k8s\0') throw new Error('not a protobuf envelope');
  let items = 0;
  let token = '';
  for (const f of fieldsOf(body, 4, body.length)) {
    if (f.field !== 2) continue;
    for (const g of fieldsOf(body, f.start, f.end)) {
      if (g.field === 2) items++;
      else if (g.field === 1) {
        for (const h of fieldsOf(body, g.start, g.end)) if (h.field === 3) token = body.toString('utf8', h.start, h.end);
      }
    }
  }
  return { items, continue: token };
}

/** The continue token from the start of a protobuf PodList body (its ListMeta comes first). */
function protobufContinue(head: Buffer): string {
  let pos = 4;
  while (pos < head.length) {
    const [tag, p] = varint(head, pos);
    if ((tag & 7) !== 2) throw new Error('unexpected protobuf envelope field');
    const [len, q] = varint(head, p);
    if (tag >>> 3 !== 2) {
      pos = q + len;
      continue;
    }
    // raw: the list message; field 1 (ListMeta) first.
    const [metaTag, r] = varint(head, q);
    if (metaTag !== 0x0a) return '';
    const [metaLen, m] = varint(head, r);
    for (const f of fieldsOf(head, m, m + metaLen)) if (f.field === 3) return head.toString('utf8', f.start, f.end);
    return '';
  }
  return '';
}

function jsonList(body: Buffer): { items: number; continue: string } {
  const list = JSON.parse(body.toString('utf8')) as { items: unknown[]; metadata: { continue?: string } };
  return { items: list.items.length, continue: list.metadata.continue ?? '' };
}

/** The continue token of a JSON list page: the list metadata comes before the items. */
function jsonContinue(body: Buffer): string {
  const head = body.toString('utf8', 0, Math.min(body.length, 4096));
  return /"metadata":\{[^}]*"continue":"([^"]*)"/.exec(head)?.[1] ?? '';
}

async function listOnce(t: Target, namespace: string, protobuf: boolean, limit: number | undefined): Promise<{ ms: number; bodies: Buffer[] }> {
  const accept = protobuf ? PROTOBUF : 'application/json';
  const base = `/api/v1/namespaces/${namespace}/pods${limit ? `?limit=${limit}` : ''}`;
  const bodies: Buffer[] = [];
  const t0 = performance.now();
  let path = base;
  for (;;) {
    const r = await expectStatus(send(t, 'GET', path, undefined, accept), 200, 'list pods');
    bodies.push(r.body);
    if (!limit) break;
    const token = protobuf ? protobufList(r.body).continue : jsonContinue(r.body);
    if (token === '') break;
    path = `${base}&continue=${encodeURIComponent(token)}`;
  }
  return { ms: performance.now() - t0, bodies };
}

/** Like listOnce, reading each page as a lean client would: its metadata, and the length of the rest. */
async function listTimed(t: Target, namespace: string, protobuf: boolean, limit: number | undefined): Promise<number> {
  const accept = protobuf ? PROTOBUF : 'application/json';
  const base = `/api/v1/namespaces/${namespace}/pods${limit ? `?limit=${limit}` : ''}`;
  const t0 = performance.now();
  let path = base;
  for (;;) {
    const r = await getHead(t, path, accept);
    if (r.status !== 200) throw new Error(`list pods: HTTP ${r.status}`);
    if (!limit) break;
    const token = protobuf ? protobufContinue(r.head) : jsonContinue(r.head);
    if (token === '') break;
    path = `${base}&continue=${encodeURIComponent(token)}`;
  }
  return performance.now() - t0;
}

async function listTimes(t: Target, namespace: string, protobuf: boolean, limit: number | undefined, runs = 7): Promise<{ ms: number; bytes: number }> {
  // The first run checks the answer and warms up; the median of the others is reported.
  const first = await listOnce(t, namespace, protobuf, limit);
  const count = first.bodies.reduce((n, b) => n + (protobuf ? protobufList(b).items : jsonList(b).items), 0);
  if (count !== LIST_PODS) throw new Error(`listed ${count} pods, expected ${LIST_PODS}`);
  const sample: number[] = [];
  for (let i = 0; i < runs; i++) sample.push(await listTimed(t, namespace, protobuf, limit));
  return { ms: quantile(sample, 0.5), bytes: first.bodies.reduce((n, b) => n + b.length, 0) };
}

/** An HTTP watch stream (JSON lines) reporting the name of each event's object as it arrives. */
function openWatch(port: number, path: string, onEvent: (name: string, at: number) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { Accept: 'application/json', ...AUTH }, agent: false, ...tlsOptions }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch: HTTP ${res.statusCode}`));
        return;
      }
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        pending += chunk;
        let nl: number;
        while ((nl = pending.indexOf('\n')) !== -1) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          // metadata.name is the first "name" of an event (ObjectMeta's field order).
          const m = /"name":"([^"]*)"/.exec(line);
          if (m) onEvent(m[1]!, at);
        }
      });
      res.on('error', () => undefined);
      resolve(() => req.destroy());
    });
    req.on('error', (err) => reject(err));
    req.end();
  });
}

/** Sequential creates; for each, the time from its response to its event on every watcher. */
async function watchLatency(t: Target, namespace: string, watchers: number, writes: number): Promise<{ p50: number; p99: number }> {
  const path = `/api/v1/namespaces/${namespace}/pods`;
  const rv = (JSON.parse((await expectStatus(send(t, 'GET', `${path}?limit=1`), 200, 'list')).body.toString()) as { metadata: { resourceVersion: string } })
    .metadata.resourceVersion;
  const arrivals = new Map<string, number[]>();
  let pending: { name: string; left: number; done: () => void } | undefined;
  const closers = await Promise.all(
    Array.from({ length: watchers }, () =>
      openWatch(t.port, `${path}?watch=1&resourceVersion=${rv}`, (name, at) => {
        arrivals.get(name)?.push(at);
        if (pending && pending.name === name && --pending.left === 0) pending.done();
      }),
    ),
  );
  const { before, after } = podTemplate(namespace);
  const sample: number[] = [];
  try {
    for (let i = 0; i < writes; i++) {
      const name = `w${watchers}-${i}`;
      arrivals.set(name, []);
      const allSeen = new Promise<void>((resolve) => (pending = { name, left: watchers, done: resolve }));
      await expectStatus(send(t, 'POST', path, `${before}${name}${after}`), 201, 'create pod');
      const acked = performance.now();
      await allSeen;
      // An event may beat the write's response to the client: it then counts as 0.
      for (const at of arrivals.get(name)!) sample.push(Math.max(0, at - acked));
      arrivals.delete(name);
      await sleep(2);
    }
  } finally {
    for (const close of closers) close();
  }
  return { p50: quantile(sample, 0.5), p99: quantile(sample, 0.99) };
}

async function readyTimes(starts: number): Promise<number> {
  const sample: number[] = [];
  for (let i = 0; i < starts; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'kubelite-bench-ready-'));
    try {
      const s = await startApiserver(dir);
      sample.push(s.readyMs);
      await s.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return quantile(sample, 0.5);
}

// ------------------------------------------------------------------------------ the run

const RSS_TARGET_MIB = 200e6 / 2 ** 20;

/** KUBELITE_BENCH_PHASES (comma-separated: ready,lists,watch,creates; default all) limits a run, e.g. for profiling. */
const PHASES = new Set((process.env.KUBELITE_BENCH_PHASES ?? 'ready,lists,watch,creates').split(',').map((p) => p.trim()));

/** The 1-minute load average (other work on the machine skews every figure here). */
function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
}

/** As the bench user: RoleBindings to the default edit and view rules in each bench namespace. */
async function bindBenchUser(t: Target, namespaces: string[]): Promise<void> {
  const previous = { ...AUTH };
  AUTH.Authorization = 'Bearer bench-admin-token';
  try {
    for (const ns of namespaces) {
      for (const role of ['system:aggregate-to-edit', 'system:aggregate-to-view']) {
        const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: role.replace(/:/g, '-'), namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bench' }] };
        await expectStatus(send(t, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, JSON.stringify(binding)), 201, 'create rolebinding');
      }
    }
  } finally {
    Object.assign(AUTH, previous);
  }
  // The policy cache follows the bindings asynchronously: wait until the bench user may create.
  for (let i = 0; i < 500; i++) {
    if ((await send(t, 'GET', `/api/v1/namespaces/${namespaces[0]}/pods?limit=1`)).status === 200) return;
    await sleep(10);
  }
  throw new Error('the bench user never got its rights');
}

/** The report's columns: the API server as it runs, and with its fast path turned off (KUBELITE_FAST_PATH=off). */
const FAST = 'lmdb';
const PLAIN = 'lmdb, fast path off';

export async function run(args: string[] = []): Promise<BenchReport> {
  const mode = args.find((a) => a.startsWith('--authorization-mode='))?.slice('--authorization-mode='.length);
  const notes: string[] = [];
  const loadAtStart = loadAverage();
  const readyMs = PHASES.has('ready') ? await readyTimes(7) : undefined;
  // The machine's ceiling, measured in this run: what the figures below are fractions of.
  const spawnMs = PHASES.has('ready') ? nodeSpawnMs(7) : undefined;
  const pod = podTemplate('bench-ceiling');
  const bareRate = PHASES.has('creates') ? await bareServerRate(32, CREATE_SECONDS, (c, i) => `${pod.before}c32-${c}-${i}${pod.after}`) : undefined;
  const bareTlsRate = PHASES.has('creates') ? await bareTlsServerRate(32, CREATE_SECONDS, (c, i) => `${pod.before}t32-${c}-${i}${pod.after}`) : undefined;
  const fast = await measure(mode, true, readyMs, notes);
  const plain = await measure(mode, false, undefined, []);
  const rows = fast.map((r): BenchRow => {
    const off = plain.find((p) => p.metric === r.metric)?.values[FAST];
    return { ...r, values: off === undefined ? r.values : { ...r.values, [PLAIN]: off } };
  });
  rows.push(...ceilingRows(rows, bareRate, bareTlsRate, spawnMs, readyMs));
  if (bareRate !== undefined || spawnMs !== undefined) {
    notes.push(
      'The machine, in the same run: a bare Node HTTP server in its own process that parses and echoes each pod JSON (no TLS, no storage), driven by 32 keep-alive clients of this process for as long as a create run; the same server over HTTPS as kubelite serves it (what TLS alone leaves of that rate: no API server on this machine can beat it either); and `node -e 0` spawned until it exits (median of 7). Creates/s are given as a fraction of the bare server\'s rate, start times as a multiple of that spawn.',
    );
  }
  notes.push(
    `Load average (1 min) at the start and the end of the run: ${loadAtStart} and ${loadAverage()} on ${cpus().length} cores.`,
    `"${PLAIN}": a second API server, started after the first with KUBELITE_FAST_PATH=off (registry/fast-path/: every create body decoded, every write stored and read back into the watch cache by decoding it, every response and list item encoded from the object); same load. Targets are judged on the first column.`,
  );
  return { name: 'apiserver', columns: [FAST, PLAIN], rows, notes, ceiling: { bareServerPerSecond: bareRate, bareTlsServerPerSecond: bareTlsRate, spawnMs } };
}

/** The machine's ceiling and each column's creates/s and start time measured against it. */
function ceilingRows(rows: BenchRow[], bareRate: number | undefined, bareTlsRate: number | undefined, spawnMs: number | undefined, readyMs: number | undefined): BenchRow[] {
  const out: BenchRow[] = [];
  if (bareRate !== undefined) {
    out.push({ metric: 'machine: bare Node HTTP server, pod JSON parsed and echoed, 32 clients', unit: 'ops/s', values: { [FAST]: bareRate } });
    if (bareTlsRate !== undefined) out.push(bareTlsRow(bareTlsRate, bareRate, FAST));
    const creates = rows.find((r) => r.metric === 'creates/s, 32 clients');
    if (creates) {
      const values: Record<string, string> = {};
      for (const [col, v] of Object.entries(creates.values)) if (typeof v === 'number') values[col] = `${((100 * v) / bareRate).toFixed(0)}%`;
      out.push({ metric: 'creates/s, 32 clients, of the bare server\'s rate', unit: '%', values });
    }
  }
  if (spawnMs !== undefined) {
    out.push({ metric: 'machine: node -e 0, spawn to exit (median of 7)', unit: 'ms', values: { [FAST]: spawnMs } });
    if (readyMs !== undefined) out.push({ metric: 'spawn → /readyz ok, as a multiple of node -e 0', unit: '×', values: { [FAST]: `${(readyMs / spawnMs).toFixed(1)}×` } });
  }
  return out;
}

/** One API server (fast path on or off) under the whole load: its rows, in the FAST column. */
async function measure(mode: string | undefined, fastPath: boolean, readyMs: number | undefined, notes: string[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row = (metric: string, unit: string, value: number | string, target?: string, met?: boolean): void => {
    rows.push({ metric, unit, values: { [FAST]: value }, target, met });
  };
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-bench-apiserver-'));
  let authArgs: string[] = [];
  if (mode !== undefined) {
    writeFileSync(join(dir, 'tokens.csv'), BENCH_TOKENS);
    authArgs = ['--token-auth-file', join(dir, 'tokens.csv'), '--authorization-mode', mode];
  }
  const server = await startApiserver(join(dir, 'data'), authArgs, fastPath ? process.env : { ...process.env, KUBELITE_FAST_PATH: 'off' });
  // With tokens, no client certificate: it would authenticate first (as the admin).
  if (mode !== undefined) tlsOptions = { ca: tlsOptions.ca };
  const pid = server.process.pid!;
  const t: Target = { port: server.port, agent: new Agent({ keepAlive: true, maxSockets: 64, ...tlsOptions }) };
  try {
    await sleep(500);
    const rssIdle = rssMiB(pid);
    if (mode !== undefined) AUTH.Authorization = 'Bearer bench-admin-token';
    for (const ns of ['bench-list', 'bench-watch', 'bench-create']) await createNamespace(t, ns);
    if (mode !== undefined) {
      AUTH.Authorization = 'Bearer bench-token';
      await bindBenchUser(t, ['bench-list', 'bench-watch', 'bench-create']);
      notes.push(`Authorization: --authorization-mode=${mode}; every request after setup is the bearer-token user "bench" (not in system:masters)${mode.includes('RBAC') ? ', allowed by RoleBindings to system:aggregate-to-edit and system:aggregate-to-view in each namespace' : ''}.`);
    }

    let lists: Record<'jsonWhole' | 'protobufWhole' | 'jsonPaged' | 'protobufPaged', { ms: number; bytes: number }> | undefined;
    let rssFilled: number | undefined;
    let rssListed: number | undefined;
    if (PHASES.has('lists')) {
      await fill(t, 'bench-list', LIST_PODS);
      await sleep(1000);
      rssFilled = rssMiB(pid);
      lists = {
        jsonWhole: await listTimes(t, 'bench-list', false, undefined),
        protobufWhole: await listTimes(t, 'bench-list', true, undefined),
        jsonPaged: await listTimes(t, 'bench-list', false, 500),
        protobufPaged: await listTimes(t, 'bench-list', true, 500),
      };
      await sleep(1000);
      rssListed = rssMiB(pid);
    }

    const watch = PHASES.has('watch')
      ? { 1: await watchLatency(t, 'bench-watch', 1, 300), 100: await watchLatency(t, 'bench-watch', 100, 200) }
      : undefined;

    const creates: Record<number, CreateResult> = {};
    if (PHASES.has('creates')) {
      for (const clients of [1, 8, 32]) creates[clients] = await createLoad(t, pid, 'bench-create', clients, CREATE_SECONDS);
    }

    for (const c of Object.keys(creates).map(Number)) {
      const r = creates[c]!;
      const s = c > 1 ? 's' : '';
      row(`creates/s, ${c} client${s}`, 'ops/s', r.perSecond, c === 32 ? '≥ 5,000' : undefined, c === 32 ? r.perSecond >= 5000 : undefined);
      row(`create latency p50, ${c} client${s}`, 'ms', r.p50);
      row(`create latency p99, ${c} client${s}`, 'ms', r.p99);
      row(`apiserver CPU per create, ${c} client${s}`, 'µs', (r.serverCpu * 10_000) / r.perSecond);
      row(`apiserver / benchmark client CPU, ${c} client${s}`, '% of a core', `${Math.round(r.serverCpu)} / ${Math.round(r.clientCpu)}`);
    }
    if (lists) {
      const listRow = (what: string, r: { ms: number }) => row(`list 10,000 pods, ${what}`, 'ms', r.ms, '≤ 70', r.ms <= 70);
      listRow('JSON, whole', lists.jsonWhole);
      listRow('protobuf, whole', lists.protobufWhole);
      listRow('JSON, pages of 500', lists.jsonPaged);
      listRow('protobuf, pages of 500', lists.protobufPaged);
    }
    if (watch) {
      for (const w of [1, 100] as const) {
        const s = w > 1 ? 's' : '';
        row(`watch latency p50, ${w} watcher${s}`, 'ms', watch[w].p50);
        row(`watch latency p99, ${w} watcher${s}`, 'ms', watch[w].p99, '≤ 10', watch[w].p99 <= 10);
      }
    }
    row('RSS idle', 'MiB', rssIdle);
    if (rssFilled !== undefined && rssListed !== undefined) {
      row('RSS with 10,000 pods', 'MiB', rssFilled, '≤ 200 MB', rssFilled <= RSS_TARGET_MIB);
      row('RSS with 10,000 pods, after the lists', 'MiB', rssListed, '≤ 200 MB', rssListed <= RSS_TARGET_MIB);
    }
    if (readyMs !== undefined) row('spawn → /readyz ok (median of 7; certificates already made)', 'ms', readyMs, '≤ 300', readyMs <= 300);
    const tpl = podTemplate('bench-create');
    const podBytes = Buffer.byteLength(`${tpl.before}c32-31-9999${tpl.after}`);
    notes.push(
      `The apiserver is a separate \`kubelite apiserver --storage lmdb\` process (fsync on); clients share this process and the machine's ${cpus().length} cores with it, over keep-alive HTTPS (HTTP/1.1, TLS 1.3, ECDSA P-256 certificates, TLS sessions resumed; an admin client certificate).`,
      `Pods: ${podBytes} bytes as sent${lists ? `; list bodies: JSON ${lists.jsonWhole.bytes.toLocaleString('en-US')} bytes, protobuf ${lists.protobufWhole.bytes.toLocaleString('en-US')} bytes` : ''}.`,
      `Create runs: ${CREATE_SECONDS} s each. Lists: median of 7 after a checked warm-up run; paged = all 20 pages following continue tokens. Watch latency: write response → event at each watcher, 300 (1 watcher) and 200 (100 watchers) sequential creates. RSS: VmRSS of the apiserver process.`,
    );
  } finally {
    t.agent.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    // The next server starts as the admin again.
    delete AUTH.Authorization;
  }
  return rows;
}
