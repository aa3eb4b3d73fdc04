import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClientset, FakeClock, FakeInformerFactory, flush } from '../client/fake/index.js';
import { ClientStatusError } from '../client/errors.js';
import type { ControllerContext } from '../client/types.js';
import type { ControllerEntry } from './controllers.js';
import { startControllerManager, type ControllerManagerHandle } from './manager.js';
import { defaultOptions, type ControllerManagerOptions } from './options.js';

interface Started {
  name: string;
  workers: number;
  stopped: boolean;
  ctx: ControllerContext;
}

function fakeTable(started: Started[]): Record<string, ControllerEntry> {
  const ctor = (name: string) => (ctx: ControllerContext) => ({
    name,
    run: async (workers: number, signal: AbortSignal) => {
      const s: Started = { name, workers, stopped: false, ctx };
      started.push(s);
      await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
      s.stopped = true;
    },
  });
  return {
    deployment: { ctor: ctor('deployment'), enabledByDefault: true, workersOption: 'concurrentDeploymentSyncs' },
    garbagecollector: { ctor: ctor('garbagecollector'), enabledByDefault: true, workersOption: 'concurrentGcSyncs' },
    job: { ctor: ctor('job'), enabledByDefault: true, workersOption: 'concurrentJobSyncs' },
    ttl: { ctor: ctor('ttl'), enabledByDefault: true, workers: 5 },
    statefulset: { enabledByDefault: true },
    tokencleaner: { ctor: ctor('tokencleaner'), enabledByDefault: false },
  };
}

async function advance(clock: FakeClock, ms: number, step = 100): Promise<void> {
  await flush();
  for (let t = 0; t < ms; t += step) {
    clock.advance(Math.min(step, ms - t));
    await flush();
  }
}

function opts(o: Partial<ControllerManagerOptions> = {}): ControllerManagerOptions {
  return defaultOptions({ address: '127.0.0.1', ...o });
}

test('--leader-elect=false: enabled controllers start with their workers; unavailable ones are logged; stop() stops them', async () => {
  const cs = new FakeClientset();
  const started: Started[] = [];
  const logs: Record<string, unknown>[] = [];
  const clock = new FakeClock();
  const m = await startControllerManager(opts({ leaderElect: false, concurrentDeploymentSyncs: 7 }), {
    clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
    controllers: fakeTable(started),
    clock,
    serve: false,
    log: (f) => logs.push(f),
  });
  await advance(clock, 100);
  assert.deepEqual(started.map((s) => `${s.name}:${s.workers}`).sort(), ['deployment:7', 'garbagecollector:20', 'job:5', 'ttl:5']);
  assert.deepEqual(m.running(), ['deployment', 'garbagecollector', 'job', 'ttl']);
  assert.equal(m.isLeader(), true);
  assert.ok(logs.some((l) => String(l.msg).includes('not available') && JSON.stringify(l.controllers) === '["statefulset"]'));
  assert.equal(started[0]!.ctx.options.concurrentDeploymentSyncs, 7);
  assert.equal(started[0]!.ctx.now(), clock.now());
  await m.stop();
  assert.ok(started.every((s) => s.stopped));
  assert.equal(await m.done, 0);
});

test('--controllers and --enable-garbage-collector=false choose what runs; --controller-start-interval spaces them', async () => {
  const cs = new FakeClientset();
  const started: Started[] = [];
  const clock = new FakeClock();
  const m = await startControllerManager(opts({ leaderElect: false, controllers: ['*', '-job', 'tokencleaner'], enableGarbageCollector: false, controllerStartInterval: 1000 }), {
    clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
    controllers: fakeTable(started),
    clock,
    serve: false,
    random: () => 0,
    log: () => {},
  });
  await advance(clock, 100);
  assert.deepEqual(started.map((s) => s.name), ['deployment']);
  await advance(clock, 1000);
  assert.deepEqual(started.map((s) => s.name), ['deployment', 'tokencleaner']);
  await advance(clock, 1000);
  assert.deepEqual(started.map((s) => s.name), ['deployment', 'tokencleaner', 'ttl']);
  await m.stop();
});

test('leader election: the standby starts its controllers only after the leader is gone; /healthz and the leader gauge follow', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const startedA: Started[] = [];
  const startedB: Started[] = [];
  const o = opts({ leaderElectResourceLock: 'leases' });
  const mk = (started: Started[], identity: string, serve: boolean) =>
    startControllerManager(o, {
      clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
      controllers: fakeTable(started),
      clock,
      identity,
      random: () => 0,
      serve: serve ? { port: 0 } : false,
      log: () => {},
    });
  const a = await mk(startedA, 'a_1', true);
  await advance(clock, 200);
  const b = await mk(startedB, 'b_2', false);
  await advance(clock, 5_000);
  assert.equal(a.isLeader(), true);
  assert.equal(b.isLeader(), false);
  assert.equal(startedA.length, 4);
  assert.equal(startedB.length, 0);
  const healthz = await fetch(`${a.server!.url}/healthz?verbose`);
  assert.equal(await healthz.text(), '[+]ping ok\n[+]apiserver ok\n[+]leaderElection ok\nhealthz check passed\n');
  assert.match(await (await fetch(`${a.server!.url}/metrics`)).text(), /leader_election_master_status\{name="kube-controller-manager"\} 1/);
  // a LeaderElection event on the lock
  const events = await cs.resource({ group: '', version: 'v1', resource: 'events' }).list('kube-system');
  assert.ok(events.items.some((e) => e.reason === 'LeaderElection' && e.message === 'a_1 became leader'));
  // a is stopped (SIGTERM): it releases the lease, b takes over at its next retry
  const stopping = a.stop();
  await advance(clock, 200);
  await stopping;
  assert.ok(startedA.every((s) => s.stopped));
  await advance(clock, 3_000);
  assert.equal(b.isLeader(), true);
  assert.equal(startedB.length, 4);
  await b.stop();
  assert.equal(await a.done, 0);
});

test('a leader that cannot renew stops its controllers and ends with a non-zero code; a 409 storm does not crash it', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const started: Started[] = [];
  const logs: Record<string, unknown>[] = [];
  let conflicts = 0;
  let mode: 'ok' | 'conflict' | 'down' = 'ok';
  cs.prependReactor('update', 'endpoints', () => {
    if (mode === 'conflict') {
      conflicts++;
      return { handled: true, error: ClientStatusError.of(409, 'Conflict', 'Operation cannot be fulfilled: the object has been modified') };
    }
    return undefined;
  });
  cs.prependReactor('*', '*', () => (mode === 'down' ? { handled: true, error: new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:6443') }) } : undefined));
  const m = await startControllerManager(opts(), {
    clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
    controllers: fakeTable(started),
    clock,
    identity: 'a_1',
    random: () => 0,
    serve: false,
    log: (f) => logs.push(f),
  });
  await advance(clock, 200);
  assert.equal(m.isLeader(), true);
  // conflicts for a few renewals (less than the renew deadline): still the leader
  mode = 'conflict';
  await advance(clock, 6_000);
  assert.ok(conflicts >= 2);
  mode = 'ok';
  await advance(clock, 4_000);
  assert.equal(m.isLeader(), true);
  // the API server goes away: after the renew deadline, the leader stops
  mode = 'down';
  await advance(clock, 13_000);
  assert.equal(m.isLeader(), false);
  assert.equal(await m.done, 1);
  assert.ok(started.every((s) => s.stopped));
  assert.ok(logs.some((l) => l.msg === 'leaderelection lost'));
  await m.stop();
});

test('an unreachable API server: retries with back-off, a clear log line, /healthz reports it; then starts', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const started: Started[] = [];
  const logs: Record<string, unknown>[] = [];
  let down = true;
  cs.prependReactor('*', '*', () => (down ? { handled: true, error: new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:6443') }) } : undefined));
  const m: ControllerManagerHandle = await startControllerManager(opts({ leaderElect: false }), {
    clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
    controllers: fakeTable(started),
    clock,
    serve: { port: 0 },
    log: (f) => logs.push(f),
  });
  await advance(clock, 4_000);
  const waits = logs.filter((l) => l.msg === 'waiting for the API server');
  assert.ok(waits.length >= 3);
  assert.deepEqual(waits.slice(0, 3).map((l) => l.retryInMs), [100, 200, 400]);
  assert.match(String(waits[0]!.error), /fetch failed: connect ECONNREFUSED/);
  const r = await fetch(`${m.server!.url}/healthz?verbose`);
  assert.equal(r.status, 500);
  assert.match(await r.text(), /\[-\]apiserver failed: API server unreachable: fetch failed: connect ECONNREFUSED/);
  assert.equal(started.length, 0);
  down = false;
  await advance(clock, 5_000);
  assert.equal(started.length, 4);
  assert.equal((await fetch(`${m.server!.url}/healthz`)).status, 200);
  await m.stop();
});

test('stop() does not wait for a request that hangs', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  let hang = false;
  const never = new Promise<never>(() => {});
  const lister = cs.resource({ group: '', version: 'v1', resource: 'namespaces' });
  const origList = lister.list.bind(lister);
  lister.list = (ns, o) => (hang ? never : origList(ns, o));
  const leases = cs.resource({ group: 'coordination.k8s.io', version: 'v1', resource: 'leases' });
  const origGet = leases.get.bind(leases);
  leases.get = (ns, n) => (hang ? never : origGet(ns, n));
  hang = true;
  const m = await startControllerManager(opts({ leaderElectResourceLock: 'leases' }), {
    clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
    controllers: fakeTable([]),
    clock,
    serve: false,
    log: () => {},
  });
  await advance(clock, 100);
  await m.stop(); // the probe hangs
  const m2 = await startControllerManager(opts({ leaderElectResourceLock: 'leases' }), {
    clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
    controllers: fakeTable([]),
    clock,
    serve: false,
    log: () => {},
  });
  await advance(clock, 5_000); // the first probe gives up
  hang = false;
  await advance(clock, 1_000); // the next probe answers, the lock read hangs from now on
  assert.equal(m2.isLeader(), true);
  hang = true;
  await advance(clock, 3_000);
  const stopped = m2.stop();
  await advance(clock, 10_000); // the release waits a bounded time for the hung renewal
  await stopped;
  assert.equal(await m2.done, 0);
});

test('--secure-port serves the same endpoints over HTTPS with --tls-cert-file/--tls-private-key-file', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const https = await import('node:https');
  const net = await import('node:net');
  const dir = mkdtempSync(join(tmpdir(), 'cm-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'tls.key', '-out', 'tls.crt', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { cwd: dir, stdio: 'ignore' });
  } catch {
    t.skip('openssl is not available');
    return;
  }
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const cs = new FakeClientset();
  const m = await startControllerManager(opts({ leaderElect: false, port: 0, bindAddress: '127.0.0.1', securePort: port, tlsCertFile: join(dir, 'tls.crt'), tlsPrivateKeyFile: join(dir, 'tls.key') }), {
    clients: { clientset: cs, informers: new FakeInformerFactory(cs) },
    controllers: fakeTable([]),
    serve: false,
    log: () => {},
  });
  try {
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, path: '/healthz/ping', ca: readFileSync(join(dir, 'tls.crt')) }, (res) => {
          let b = '';
          res.on('data', (d: Buffer) => (b += d.toString()));
          res.on('end', () => resolve(b));
        })
        .on('error', reject);
    });
    assert.equal(body, 'ok');
  } finally {
    await m.stop();
  }
});
