// `kubelite controller-manager` as a process against `kubelite apiserver`: leader election over a
// Lease in kube-system, /healthz and /metrics, a standby that takes over within the lease duration
// when the leader is killed, a clean SIGTERM (lock released), bad flags, an unreachable API server.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { KUBELITE_BIN, startApiserver, writeKubeconfig, type RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';
import { join } from 'node:path';
import { freePort } from '../support/ports.js';

const FAST = ['--leader-elect-resource-lock=leases', '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=500ms'];

interface Manager {
  child: ChildProcess;
  port: number;
  url: string;
  logs: () => string;
  exited: Promise<number | null>;
}

async function startManager(args: string[]): Promise<Manager> {
  const port = await freePort();
  const child = spawn(process.execPath, [KUBELITE_BIN, 'controller-manager', '--address=127.0.0.1', `--port=${port}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stderr!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-200_000)));
  child.stdout!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const m = { child, port, url: `http://127.0.0.1:${port}`, logs: () => logs, exited };
  managers.push(m);
  return m;
}

async function get(url: string): Promise<{ status: number; text: string }> {
  try {
    const r = await fetch(url);
    return { status: r.status, text: await r.text() };
  } catch {
    return { status: 0, text: '' };
  }
}

async function leaderGauge(m: Manager): Promise<string | undefined> {
  const r = await get(`${m.url}/metrics`);
  return /leader_election_master_status\{name="kube-controller-manager"\} (\d)/.exec(r.text)?.[1];
}

const managers: Manager[] = [];
let api: RunningApiserver;

async function lease(): Promise<Record<string, unknown> | undefined> {
  const r = await fetch(`${api.url}/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager`);
  if (r.status !== 200) return undefined;
  return ((await r.json()) as { spec: Record<string, unknown> }).spec;
}

describe('kubelite controller-manager', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    const r = await fetch(`${api.url}/api/v1/namespaces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }),
    });
    assert.ok(r.status === 201 || r.status === 409, `create kube-system: ${r.status}`);
  });
  after(async () => {
    for (const m of managers) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
    await api?.stop();
  });

  it('bad flags exit 2 with one line', async () => {
    const m = await startManager(['--leader-elect-renew-deadline=20s']);
    assert.equal(await m.exited, 2);
    assert.match(m.logs(), /^kubelite controller-manager: --leader-elect-renew-deadline \(20s\) must be less than or equal to --leader-elect-lease-duration \(15s\)\n$/);
    const u = await startManager(['--no-such-flag']);
    assert.equal(await u.exited, 2);
    assert.match(u.logs(), /unknown option '--no-such-flag'/);
    const k = await startManager(['--kubeconfig', join(api.dir, 'missing.kubeconfig')]);
    assert.equal(await k.exited, 2);
    assert.match(k.logs(), /^kubelite controller-manager: cannot read kubeconfig .*missing\.kubeconfig/);
  });

  it('leads through a Lease, a standby takes over within the lease duration once the leader is killed, SIGTERM releases', async () => {
    const a = await startManager(['--kubeconfig', api.kubeconfig, ...FAST]);
    const ready = await waitFor(() => /ready: url=(\S+) identity=(\S+)/.exec(a.logs()), 'the ready line');
    assert.equal(ready[1], a.url);
    const first = await waitFor(async () => (await lease())?.holderIdentity as string | undefined, 'the first manager to acquire the Lease');
    assert.match(first, /^.+_[0-9a-f-]{36}$/);
    assert.equal(first, ready[2]);
    const spec = (await lease())!;
    assert.equal(spec.leaseDurationSeconds, 3);
    await waitFor(async () => (await leaderGauge(a)) === '1', 'leader gauge 1');
    const hz = await get(`${a.url}/healthz?verbose`);
    assert.equal(hz.status, 200, hz.text);
    assert.match(hz.text, /\[\+\]leaderElection ok/);
    assert.equal((await get(`${a.url}/healthz/leaderElection`)).text, 'ok');
    const configz = JSON.parse((await get(`${a.url}/configz`)).text) as Record<string, Record<string, unknown>>;
    assert.equal(configz['kubecontrollermanager.config.k8s.io']!['leader-elect-lease-duration'], '3s');

    const b = await startManager(['--kubeconfig', api.kubeconfig, ...FAST]);
    await waitFor(async () => (await get(`${b.url}/healthz`)).status === 200, 'the standby serving /healthz');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await lease())?.holderIdentity, first, 'the standby must not take the lease from a live leader');
    assert.equal(await leaderGauge(b), '0');
    // controllers run in the leader only
    assert.match(a.logs(), /"msg":"started controller","controller":"deployment"/);
    assert.doesNotMatch(b.logs(), /"msg":"started controller"/);

    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    const second = await waitFor(async () => {
      const h = (await lease())?.holderIdentity as string | undefined;
      return h && h !== first ? h : undefined;
    }, 'the standby taking over', 15_000);
    const took = Date.now() - killedAt;
    // the lease duration (3 s) plus at most one jittered retry period (0.5 s × 2.2), the polling
    // and some slack for a loaded machine
    assert.ok(took <= 3000 + 1100 + 2000, `took over after ${took} ms`);
    assert.notEqual(second, first);
    assert.equal(((await lease())!.leaseTransitions as number) >= 1, true);
    await waitFor(async () => (await leaderGauge(b)) === '1', 'the new leader gauge');
    await waitFor(() => /"msg":"started controller","controller":"deployment"/.test(b.logs()), 'the new leader starting its controllers');

    b.child.kill('SIGTERM');
    assert.equal(await b.exited, 0);
    assert.equal((await lease())?.holderIdentity, '', 'a clean stop releases the lease');
  });

  it('the seed\'s default lock: the record is JSON in the Endpoints annotation control-plane.alpha.kubernetes.io/leader', async () => {
    const m = await startManager(['--kubeconfig', api.kubeconfig, '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=500ms', '--leader-elect-resource-name=cm-endpoints']);
    const record = await waitFor(async () => {
      const r = await fetch(`${api.url}/api/v1/namespaces/kube-system/endpoints/cm-endpoints`);
      if (r.status !== 200) return undefined;
      const ann = ((await r.json()) as { metadata: { annotations?: Record<string, string> } }).metadata.annotations ?? {};
      return ann['control-plane.alpha.kubernetes.io/leader'];
    }, 'the leader annotation');
    const parsed = JSON.parse(record) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ['holderIdentity', 'leaseDurationSeconds', 'acquireTime', 'renewTime', 'leaderTransitions']);
    assert.equal(parsed.leaseDurationSeconds, 3);
    assert.match(String(parsed.renewTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    m.child.kill('SIGTERM');
    assert.equal(await m.exited, 0);
  });

  it('a 409 storm (many conflicting writers on what the controllers write) does not crash the daemon', async () => {
    const m = await startManager(['--kubeconfig', api.kubeconfig, '--leader-elect=false']);
    await waitFor(() => /"msg":"started informers"/.test(m.logs()), 'controllers started');
    const base = `${api.url}/apis/apps/v1/namespaces/kube-system/deployments`;
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'storm' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'storm' } }, template: { metadata: { labels: { app: 'storm' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    assert.equal((await fetch(base, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(dep) })).status, 201);
    let conflicts = 0;
    let ok = 0;
    await Promise.all(
      Array.from({ length: 20 }, async (_, w) => {
        for (let i = 0; i < 15; i++) {
          const cur = (await (await fetch(`${base}/storm`)).json()) as { spec: { replicas: number } };
          cur.spec.replicas = 1 + ((w + i) % 4);
          const r = await fetch(`${base}/storm`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cur) });
          await r.arrayBuffer();
          if (r.status === 409) conflicts++;
          else if (r.status === 200) ok++;
        }
      }),
    );
    assert.ok(conflicts > 0 && ok > 0, `conflicts ${conflicts}, ok ${ok}`);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(m.child.exitCode, null, 'the daemon is still running');
    assert.equal((await get(`${m.url}/healthz`)).status, 200);
    m.child.kill('SIGTERM');
    assert.equal(await m.exited, 0);
  });

  it('an unreachable API server: retries with back-off, a clear log line, /healthz reports it; once it is up, the manager connects and leads', async () => {
    const port = await freePort();
    const kubeconfig = join(api.dir, 'unreachable.kubeconfig');
    writeKubeconfig(kubeconfig, `https://127.0.0.1:${port}`);
    const m = await startManager(['--kubeconfig', kubeconfig, ...FAST]);
    await waitFor(() => /waiting for the API server/.test(m.logs()), 'the waiting log line');
    const hz = await waitFor(async () => {
      const r = await get(`${m.url}/healthz?verbose`);
      return r.status === 500 ? r : undefined;
    }, '/healthz reporting the API server');
    assert.match(hz.text, /\[-\]apiserver failed: API server unreachable/);
    await waitFor(() => (m.logs().match(/waiting for the API server/g) ?? []).length >= 2, 'a retry');
    assert.equal(m.child.exitCode, null, 'still running');
    // the API server comes up on that port: the manager connects, leads and turns healthy
    const late = await startApiserver(['--storage', 'memory', '--port', String(port)]);
    try {
      const r = await fetch(`${late.url}/api/v1/namespaces`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }),
      });
      assert.ok(r.status === 201 || r.status === 409);
      await waitFor(() => /"msg":"API server reachable"/.test(m.logs()), 'the manager connecting', 30_000);
      await waitFor(async () => (await get(`${m.url}/healthz`)).status === 200, '/healthz ok', 30_000);
      await waitFor(async () => (await leaderGauge(m)) === '1', 'the manager leading', 30_000);
      m.child.kill('SIGTERM');
      assert.equal(await m.exited, 0);
    } finally {
      await late.stop();
    }
  });
});
