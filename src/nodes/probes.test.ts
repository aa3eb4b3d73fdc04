// Probes and preStop hooks on the simulated timeline (pure), and through the agent with the
// kubelet's events, on a fake clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod, PodSpec } from '../api/types.js';
import { cstate, setup, status } from './agent.testutil.js';
import { failedAt, preStopHook, probeAtOrAfter, startupOutcome, stopping } from './probes.js';
import { simulatePod } from './simulate.js';

const T0 = Date.UTC(2026, 0, 1);

function pod(spec: Partial<PodSpec>, annotations: Record<string, string> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u', annotations }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } };
}
const at = (p: Pod, seconds: number, deletion?: { at: number; graceMs: number }) =>
  simulatePod({ pod: p, acceptedAt: T0, startDelayMs: 0, now: T0 + seconds * 1000, hostIP: '10.0.0.2', podIP: '10.64.0.2', ...(deletion ? { deletion } : {}) });
const c0 = (r: ReturnType<typeof simulatePod>) => r.status.containerStatuses![0]!;

test('probe schedule: ticks every period from the start, initialDelaySeconds skipped, failureThreshold failures in a row', () => {
  const p = { periodSeconds: 5, initialDelaySeconds: 7, failureThreshold: 3 };
  assert.equal(probeAtOrAfter(p, 0), 10_000);
  assert.equal(probeAtOrAfter(p, 11_000), 15_000);
  assert.deepEqual(failedAt(p, 11_000), { atMs: 25_000, failures: 3 });
  // the kubelet's defaults: period 10 s, threshold 3
  assert.deepEqual(failedAt({}, 1), { atMs: 30_000, failures: 3 });
  assert.deepEqual(startupOutcome({ periodSeconds: 2, failureThreshold: 5 }, 3000, 30_000), { startedAfterMs: 4000 });
  assert.equal('kill' in startupOutcome({ periodSeconds: 2, failureThreshold: 2 }, 3000, 30_000), true);
});

test('preStop hooks: sleep action, exec sleep, failing exec; grace period shared with SIGTERM (2 s minimum after a hook)', () => {
  assert.deepEqual(preStopHook({ sleep: { seconds: 5 } }), { ms: 5000, fails: false });
  assert.deepEqual(preStopHook({ exec: { command: ['sh', '-c', 'sleep 3'] } }), { ms: 3000, fails: false });
  assert.deepEqual(preStopHook({ exec: { command: ['sh', '-c', 'exit 1'] } }), { ms: 0, fails: true });
  assert.deepEqual(preStopHook({ httpGet: { port: 80 } }), { ms: 0, fails: false });
  assert.deepEqual(stopping(30_000, 0, 5000), { ms: 5000, exitCode: 0 });
  assert.deepEqual(stopping(30_000, Infinity, 5000), { ms: 30_000, exitCode: 137 });
  assert.deepEqual(stopping(10_000, Infinity, 60_000), { ms: 12_000, exitCode: 137 });
  assert.deepEqual(stopping(10_000, 4000, undefined), { ms: 4000, exitCode: 0 });
});

test('a failing liveness probe kills the run (SIGKILL at the grace period for a shell form) and restarts it with back-off', () => {
  const p = pod(
    { terminationGracePeriodSeconds: 5, containers: [{ name: 'c', image: 'busybox', command: ['sleep', 'infinity'], livenessProbe: { exec: { command: ['true'] }, periodSeconds: 2, failureThreshold: 3 } }] },
    { 'kubelite.dev/liveness-fail-after-seconds': '3' },
  );
  // failures at 4, 6, 8 s: killed at 8 s, SIGTERM ignored, SIGKILL at 13 s, restarted at once
  const before = at(p, 7.9);
  assert.equal(before.containers.get('c')!.probeFailure, undefined);
  assert.equal(before.next, T0 + 8000);
  const dying = at(p, 9);
  assert.deepEqual(dying.containers.get('c')!.probeFailure, { type: 'Liveness', at: T0 + 8000, failures: 3 });
  assert.equal(c0(dying).ready, false);
  const again = at(p, 13.5);
  assert.equal(c0(again).restartCount, 1);
  assert.deepEqual([c0(again).lastState!.terminated!.exitCode, c0(again).lastState!.terminated!.reason], [137, 'Error']);
  // second run from 13 s: failing from 16 s, killed at 13+8 = 21 s, exits at 26 s, then back-off 10 s
  const backoff = at(p, 27);
  assert.equal(c0(backoff).state!.waiting!.reason, 'CrashLoopBackOff');
  assert.equal(c0(at(p, 36.5)).restartCount, 2);
  // restartPolicy Never: it stays terminated, the pod fails
  const never = at(pod({ ...p.spec!, restartPolicy: 'Never' }, p.metadata!.annotations!), 14);
  assert.equal(never.phase, 'Failed');
  // a process that handles SIGTERM exits 0 at once (nginx): Completed, still restarted
  const nginx = pod({ containers: [{ name: 'c', image: 'nginx', livenessProbe: { httpGet: { port: 80 } } }] }, { 'kubelite.dev/c.liveness-fail-after-seconds': '0' });
  const n = at(nginx, 21);
  assert.equal(c0(n).restartCount, 1);
  assert.deepEqual([c0(n).lastState!.terminated!.exitCode, c0(n).lastState!.terminated!.reason], [0, 'Completed']);
  // no annotation: the probe succeeds
  assert.equal(c0(at(pod({ containers: [{ name: 'c', image: 'nginx', livenessProbe: {} }] }), 600)).restartCount, 0);
});

test('startup probe: not started nor ready until it succeeds; failing past failureThreshold × period kills the container', () => {
  const probe = { exec: { command: ['true'] }, periodSeconds: 2, failureThreshold: 5 };
  const ok = pod({ containers: [{ name: 'c', image: 'nginx', startupProbe: probe, livenessProbe: { periodSeconds: 2 } }] }, { 'kubelite.dev/startup-after-seconds': '5' });
  const early = at(ok, 5);
  assert.deepEqual([c0(early).started, c0(early).ready], [false, false]);
  assert.equal(early.next, T0 + 6000);
  const started = at(ok, 6);
  assert.deepEqual([c0(started).started, c0(started).ready], [true, true]);
  // startup never in time: failures at 0, 2, 4, 6, 8 s → killed at 8 s (nginx stops at once), restarted
  const slow = pod({ containers: [{ name: 'c', image: 'nginx', startupProbe: probe }] }, { 'kubelite.dev/startup-after-seconds': '60' });
  assert.equal(c0(at(slow, 7.9)).restartCount, 0);
  const restarted = at(slow, 8);
  assert.equal(c0(restarted).restartCount, 1);
  assert.deepEqual(restarted.containers.get('c')!.last!.probe, { type: 'Startup', at: T0 + 8000, failures: 5 });
  // liveness failures count only from the start: probed from 6 s, failing → killed at 6 + 2×2 = 10 s
  const live = pod({ containers: [{ name: 'c', image: 'nginx', startupProbe: probe, livenessProbe: { periodSeconds: 2 } }] }, { 'kubelite.dev/startup-after-seconds': '5', 'kubelite.dev/liveness-fail-after-seconds': '0' });
  assert.equal(c0(at(live, 9.9)).restartCount, 0);
  assert.equal(at(live, 10).containers.get('c')!.last?.probe?.type, 'Liveness');
});

test('a failing readiness probe makes the container unready without a restart', () => {
  const p = pod({ containers: [{ name: 'c', image: 'nginx', readinessProbe: { periodSeconds: 5, failureThreshold: 2 } }] }, { 'kubelite.dev/readiness-fail-after-seconds': '12' });
  assert.equal(c0(at(p, 19)).ready, true);
  const r = at(p, 20);
  assert.equal(c0(r).ready, false);
  assert.equal(r.containers.get('c')!.readinessFailures, 2);
  assert.equal(r.status.conditions!.find((c) => c.type === 'Ready')!.status, 'False');
  assert.equal(c0(at(p, 500)).restartCount, 0);
});

test('deletion: the preStop hook runs within the grace period before SIGTERM', () => {
  const sleeper = (preStop: object, grace?: number) =>
    pod({ ...(grace !== undefined ? { terminationGracePeriodSeconds: grace } : {}), containers: [{ name: 'c', image: 'nginx', lifecycle: { preStop } }] });
  const del = { at: T0 + 10_000, graceMs: 30_000 };
  // nginx exits on SIGTERM at once: stopped when its 4 s hook ends
  const p = sleeper({ sleep: { seconds: 4 } });
  assert.equal(at(p, 13.9, del).stopped, false);
  const done = at(p, 14, del);
  assert.equal(done.stopped, true);
  assert.deepEqual([c0(done).state!.terminated!.exitCode, c0(done).state!.terminated!.reason], [0, 'Completed']);
  // a hook longer than the grace period: cut there, then SIGTERM (nginx exits at once)
  const short = { at: T0 + 10_000, graceMs: 5000 };
  const long = sleeper({ exec: { command: ['sleep', '100'] } });
  assert.equal(at(long, 14.9, short).stopped, false);
  assert.equal(at(long, 15, short).stopped, true);
  // a process ignoring SIGTERM gets the kubelet's 2 s minimum after the hook, then SIGKILL
  const stubborn = pod({ containers: [{ name: 'c', image: 'busybox', command: ['sleep', 'infinity'], lifecycle: { preStop: { sleep: { seconds: 100 } } } }] });
  assert.equal(at(stubborn, 16.9, short).stopped, false);
  const killed = at(stubborn, 17, short);
  assert.equal(killed.stopped, true);
  assert.equal(c0(killed).state!.terminated!.exitCode, 137);
});

test('through the agent: Unhealthy ×failureThreshold, Killing with the kubelet message, restartCount; FailedPreStopHook on delete', async () => {
  const { agent, clientset, createPod, getPod, tick, recorder } = await setup();
  await createPod('live', { containers: [{ name: 'app', image: 'nginx', livenessProbe: { httpGet: { port: 80, path: '/healthz' }, periodSeconds: 1, failureThreshold: 2 } }] }, { 'kubelite.dev/liveness-fail-after-seconds': '2' });
  await tick(3100);
  const reasons = recorder.events.map((e) => `${e.reason}: ${e.message}`);
  assert.deepEqual(reasons.filter((r) => /^(Unhealthy|Killing)/.test(r)), [
    'Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500',
    'Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500',
    'Killing: Container app failed liveness probe, will be restarted',
  ]);
  assert.equal(status(getPod('live')).containerStatuses![0]!.restartCount, 1);
  assert.ok(cstate(getPod('live')).running);

  await createPod('hook', { containers: [{ name: 'app', image: 'nginx', lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 2; exit 1'] } } } }] });
  const hook = getPod('hook')!;
  // (the fake removes an object with a deletionTimestamp on its next write unless a finalizer holds it)
  clientset.tracker.add({ ...hook, metadata: { ...hook.metadata, finalizers: ['test/hold'], deletionTimestamp: new Date(T0).toISOString(), deletionGracePeriodSeconds: 30 } });
  await tick(200);
  const deletes = () => clientset.actions.filter((a) => a.verb === 'delete' && a.resource === 'pods');
  assert.equal(deletes().length, 0, 'not deleted while its preStop hook runs');
  const tail = recorder.events.slice(-2).map((e) => `${e.type} ${e.reason}: ${e.message}`);
  assert.deepEqual(tail, ['Normal Killing: Stopping container app', 'Warning FailedPreStopHook: PreStopHook failed']);
  await tick(2000);
  assert.equal(deletes().length, 1);
  await agent.stop();
});

test('a second delete with a shorter grace period brings the kill forward', async () => {
  const { agent, clientset, createPod, getPod, tick } = await setup();
  await createPod('slow', { containers: [{ name: 'app', image: 'busybox', command: ['sleep', 'infinity'] }] });
  const p = getPod('slow')!;
  // (the fake removes an object with a deletionTimestamp on its next write unless a finalizer holds it)
  clientset.tracker.add({ ...p, metadata: { ...p.metadata, finalizers: ['test/hold'], deletionTimestamp: new Date(T0 + 30_000).toISOString(), deletionGracePeriodSeconds: 30 } });
  await tick(2000);
  clientset.tracker.add({ ...getPod('slow')!, metadata: { ...getPod('slow')!.metadata, deletionTimestamp: new Date(T0 + 3000).toISOString(), deletionGracePeriodSeconds: 1 } });
  const deletes = () => clientset.actions.filter((a) => a.verb === 'delete' && a.resource === 'pods');
  await tick(800);
  assert.equal(deletes().length, 0);
  await tick(400);
  assert.equal(deletes().length, 1, 'killed 1 s after the second delete, not 30 s after the first');
  assert.equal(cstate(getPod('slow')).terminated?.exitCode, 137);
  await agent.stop();
});
