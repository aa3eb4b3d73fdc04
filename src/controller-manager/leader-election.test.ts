import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClientset, FakeClock, flush } from '../client/fake/index.js';
import { ClientStatusError } from '../client/errors.js';
import type { KubeObject } from '../client/types.js';
import { LEADER_ANNOTATION, LeaderElector, newResourceLock, type LockKind } from './leader-election.js';

interface Candidate {
  elector: LeaderElector;
  abort: AbortController;
  events: string[];
  done: Promise<void>;
}

function candidate(cs: FakeClientset, clock: FakeClock, id: string, kind: LockKind = 'leases', opts: { release?: boolean } = {}): Candidate {
  const events: string[] = [];
  const abort = new AbortController();
  const elector = new LeaderElector({
    lock: newResourceLock(kind, cs, 'kube-system', 'kube-controller-manager'),
    identity: id,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    clock,
    random: () => 0,
    releaseOnCancel: opts.release ?? false,
    callbacks: {
      onStartedLeading: (signal) => {
        events.push('started');
        signal.addEventListener('abort', () => events.push('leader-signal-aborted'));
      },
      onStoppedLeading: () => events.push('stopped'),
      onNewLeader: (l) => events.push(`leader=${l}`),
    },
  });
  return { elector, abort, events, done: elector.run(abort.signal) };
}

/** Moves the clock in small steps, letting the fake clientset's promises settle in between. */
async function advance(clock: FakeClock, ms: number, step = 100): Promise<void> {
  await flush();
  for (let t = 0; t < ms; t += step) {
    clock.advance(Math.min(step, ms - t));
    await flush();
  }
}

function lease(cs: FakeClientset): KubeObject {
  return cs.tracker.get({ group: 'coordination.k8s.io', resource: 'leases' }, 'kube-system', 'kube-controller-manager')!;
}

test('Lease lock: one candidate leads, the other stands by, then takes over once the lease expires', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const a = candidate(cs, clock, 'host-a_1');
  await advance(clock, 100);
  assert.equal(a.elector.isLeader(), true);
  assert.deepEqual(a.events, ['leader=host-a_1', 'started']);
  const spec = lease(cs).spec as Record<string, unknown>;
  assert.equal(spec.holderIdentity, 'host-a_1');
  assert.equal(spec.leaseDurationSeconds, 15);
  assert.equal(spec.leaseTransitions, 0);
  assert.match(String(spec.acquireTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.equal(spec.renewTime, spec.acquireTime);

  const b = candidate(cs, clock, 'host-b_2');
  await advance(clock, 30_000);
  // a renews every retry period; b never gets it
  assert.equal(a.elector.isLeader(), true);
  assert.equal(b.elector.isLeader(), false);
  assert.equal(b.elector.getLeader(), 'host-a_1');
  assert.deepEqual(b.events, ['leader=host-a_1']);
  const renewed = lease(cs).spec as Record<string, unknown>;
  assert.notEqual(renewed.renewTime, spec.renewTime);
  assert.equal(renewed.acquireTime, spec.acquireTime);

  // a stops renewing (its process hangs: every call fails from now on)
  const stoppedAt = clock.now();
  let aDead = true;
  const aLock = a.elector.config.lock as unknown as { get: () => Promise<unknown>; update: (r: unknown) => Promise<void> };
  const origGet = aLock.get.bind(aLock);
  const origUpdate = aLock.update.bind(aLock);
  aLock.get = async () => {
    if (aDead) throw new Error('connect ECONNREFUSED');
    return origGet();
  };
  aLock.update = async (r) => {
    if (aDead) throw new Error('connect ECONNREFUSED');
    return origUpdate(r);
  };
  // within the renew deadline a still believes it leads; after it, a stops (callback)
  await advance(clock, 9_000);
  assert.equal(a.elector.isLeader(), true);
  assert.equal(b.elector.isLeader(), false);
  // (the renewal cycle that fails starts at most one retry period after the last success)
  await advance(clock, 4_000);
  assert.equal(a.elector.isLeader(), false);
  assert.deepEqual(a.events, ['leader=host-a_1', 'started', 'leader-signal-aborted', 'stopped']);
  await a.done;
  // b takes over once 15 s passed since it last saw the record change (a's last renewal)
  await advance(clock, 15_000 - (clock.now() - stoppedAt) + 2_500);
  assert.equal(b.elector.isLeader(), true);
  assert.deepEqual(b.events, ['leader=host-a_1', 'leader=host-b_2', 'started']);
  const taken = lease(cs).spec as Record<string, unknown>;
  assert.equal(taken.holderIdentity, 'host-b_2');
  assert.equal(taken.leaseTransitions, 1);
  assert.ok(clock.now() - stoppedAt <= 15_000 + 2 * 2_000 + 200, `took over after ${clock.now() - stoppedAt} ms`);
  aDead = false;
  b.abort.abort();
  await advance(clock, 100);
  await b.done;
  assert.deepEqual(b.events.slice(-2), ['leader-signal-aborted', 'stopped']);
});

test('Endpoints and ConfigMap locks: the record is JSON in the leader annotation', async () => {
  for (const [kind, resource] of [
    ['endpoints', 'endpoints'],
    ['configmaps', 'configmaps'],
  ] as const) {
    const cs = new FakeClientset();
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 0, 500));
    const a = candidate(cs, clock, 'host-a_1', kind);
    await advance(clock, 100);
    assert.equal(a.elector.isLeader(), true);
    const obj = cs.tracker.get({ group: '', resource }, 'kube-system', 'kube-controller-manager')!;
    const raw = ((obj.metadata as Record<string, unknown>).annotations as Record<string, string>)[LEADER_ANNOTATION]!;
    assert.equal(raw, '{"holderIdentity":"host-a_1","leaseDurationSeconds":15,"acquireTime":"2026-01-01T12:00:00Z","renewTime":"2026-01-01T12:00:00Z","leaderTransitions":0}');
    await advance(clock, 2_100);
    const raw2 = ((cs.tracker.get({ group: '', resource }, 'kube-system', 'kube-controller-manager')!.metadata as Record<string, unknown>).annotations as Record<string, string>)[LEADER_ANNOTATION]!;
    assert.match(raw2, /"renewTime":"2026-01-01T12:00:02Z"/);
    a.abort.abort();
    await advance(clock, 100);
    await a.done;
  }
});

test('an existing record written by Kubernetes is honoured, then taken over when it expires', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  await cs.resource({ group: '', version: 'v1', resource: 'endpoints' }).create('kube-system', {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      name: 'kube-controller-manager',
      namespace: 'kube-system',
      annotations: { [LEADER_ANNOTATION]: '{"holderIdentity":"old-master_x","leaseDurationSeconds":15,"acquireTime":"2018-01-01T00:00:00Z","renewTime":"2018-01-01T00:00:00Z","leaderTransitions":4}' },
    },
  });
  const b = candidate(cs, clock, 'host-b_2', 'endpoints');
  await advance(clock, 14_000);
  assert.equal(b.elector.isLeader(), false);
  await advance(clock, 3_500);
  assert.equal(b.elector.isLeader(), true);
  const raw = (((cs.tracker.get({ group: '', resource: 'endpoints' }, 'kube-system', 'kube-controller-manager')!.metadata as Record<string, unknown>).annotations) as Record<string, string>)[LEADER_ANNOTATION]!;
  assert.equal(JSON.parse(raw).leaderTransitions, 5);
  b.abort.abort();
  await advance(clock, 100);
  await b.done;
});

test('releaseOnCancel hands the lock over at once; 409s are retried, never fatal', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const a = candidate(cs, clock, 'host-a_1', 'leases', { release: true });
  await advance(clock, 100);
  assert.equal(a.elector.isLeader(), true);
  // a conflict storm on b's writes: b keeps trying
  let conflicts = 3;
  cs.prependReactor('update', 'leases', (action) => {
    if ((action.object?.spec as Record<string, unknown>)?.holderIdentity === 'host-b_2' && conflicts > 0) {
      conflicts--;
      return { handled: true, error: ClientStatusError.of(409, 'Conflict', 'the object has been modified') };
    }
    return undefined;
  });
  const b = candidate(cs, clock, 'host-b_2');
  await advance(clock, 4_000);
  assert.equal(b.elector.isLeader(), false);
  a.abort.abort();
  await advance(clock, 100);
  await a.done;
  assert.equal((lease(cs).spec as Record<string, unknown>).holderIdentity, '');
  await advance(clock, 10_000);
  assert.equal(conflicts, 0);
  assert.equal(b.elector.isLeader(), true);
  b.abort.abort();
  await advance(clock, 100);
  await b.done;
});

test('healthz adaptor: a leader that has not renewed past lease + tolerance is unhealthy', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const a = candidate(cs, clock, 'host-a_1');
  await advance(clock, 100);
  assert.equal(a.elector.check(20_000), undefined);
  a.abort.abort();
  await advance(clock, 100);
  await a.done;
});

test('configuration is validated like client-go', () => {
  const cs = new FakeClientset();
  const lock = newResourceLock('leases', cs, 'kube-system', 'x');
  const base = { lock, identity: 'a', leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, callbacks: { onStartedLeading() {}, onStoppedLeading() {} } };
  assert.throws(() => new LeaderElector({ ...base, renewDeadlineMs: 20_000 }), /leaseDuration/);
  assert.throws(() => new LeaderElector({ ...base, retryPeriodMs: 9_000 }), /JitterFactor/);
  assert.throws(() => new LeaderElector({ ...base, identity: '' }), /identity/);
});

test('a renewal that hangs (no answer from the API server) still ends leadership at the renew deadline', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const a = candidate(cs, clock, 'host-a_1');
  await advance(clock, 100);
  assert.equal(a.elector.isLeader(), true);
  const lock = a.elector.config.lock as unknown as { get: () => Promise<unknown>; update: () => Promise<void> };
  lock.get = () => new Promise(() => {});
  lock.update = () => new Promise(() => {});
  await advance(clock, 8_000);
  assert.equal(a.elector.isLeader(), true);
  assert.equal(a.elector.check(20_000), undefined);
  await advance(clock, 5_000);
  assert.equal(a.elector.isLeader(), false);
  assert.deepEqual(a.events.slice(-2), ['leader-signal-aborted', 'stopped']);
  assert.match(a.elector.lastError ?? '', /timed out/);
  await a.done;
});

test('endpointsleases / configmapsleases: the record is written to both objects; a standby takes over both', async () => {
  for (const [kind, resource] of [
    ['endpointsleases', 'endpoints'],
    ['configmapsleases', 'configmaps'],
  ] as const) {
    const cs = new FakeClientset();
    const clock = new FakeClock();
    const a = candidate(cs, clock, 'host-a_1', kind);
    await advance(clock, 100);
    assert.equal(a.elector.isLeader(), true);
    const annotation = () =>
      JSON.parse(((cs.tracker.get({ group: '', resource }, 'kube-system', 'kube-controller-manager')!.metadata as Record<string, unknown>).annotations as Record<string, string>)[LEADER_ANNOTATION]!) as Record<string, unknown>;
    assert.equal(annotation().holderIdentity, 'host-a_1');
    assert.equal((lease(cs).spec as Record<string, unknown>).holderIdentity, 'host-a_1');
    const b = candidate(cs, clock, 'host-b_2', kind);
    await advance(clock, 5_000);
    assert.equal(b.elector.isLeader(), false);
    a.abort.abort();
    await advance(clock, 100);
    await a.done;
    await advance(clock, 16_000);
    assert.equal(b.elector.isLeader(), true);
    assert.equal(annotation().holderIdentity, 'host-b_2');
    assert.equal((lease(cs).spec as Record<string, unknown>).holderIdentity, 'host-b_2');
    assert.equal(annotation().leaderTransitions, 1);
    b.abort.abort();
    await advance(clock, 100);
    await b.done;
  }
});

test('a leader renews without reading the lock first (client-go fast path); a conflict falls back to reading it', async () => {
  const cs = new FakeClientset();
  const clock = new FakeClock();
  const a = candidate(cs, clock, 'host-a_1');
  await advance(clock, 100);
  cs.clearActions();
  await advance(clock, 10_000);
  const verbs = cs.actions.filter((x) => x.resource === 'leases').map((x) => x.verb);
  assert.ok(verbs.length >= 4);
  assert.ok(verbs.every((v) => v === 'update'), verbs.join(','));
  // someone else touches the Lease: the next renewal conflicts, reads it and renews
  const current = lease(cs);
  await cs.resource({ group: 'coordination.k8s.io', version: 'v1', resource: 'leases' }).update('kube-system', { ...current, metadata: { ...(current.metadata as object), labels: { touched: 'yes' } } });
  cs.clearActions();
  await advance(clock, 2_100);
  assert.deepEqual(cs.actions.filter((x) => x.resource === 'leases').map((x) => x.verb), ['update', 'get', 'update']);
  assert.equal(a.elector.isLeader(), true);
  a.abort.abort();
  await advance(clock, 100);
  await a.done;
});
