// Sidecars (init containers with restartPolicy Always) on the simulated timeline: started in order,
// restarted whatever the pod's policy, stopped after the main containers in reverse order, and never
// holding a Job-style pod back from completing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod, PodSpec } from '../api/types.js';
import { setup, status } from './agent.testutil.js';
import { simulatePod } from './simulate.js';

const T0 = Date.UTC(2026, 0, 1);

function pod(spec: Partial<PodSpec>, annotations: Record<string, string> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u', annotations }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } };
}
const at = (p: Pod, seconds: number, deletion?: { at: number; graceMs: number }) =>
  simulatePod({ pod: p, acceptedAt: T0, startDelayMs: 0, now: T0 + seconds * 1000, hostIP: '10.0.0.2', podIP: '10.64.0.2', ...(deletion ? { deletion } : {}) });
const sidecar = (name: string, extra: Partial<Container> = {}): Container => ({ name, image: 'envoy', restartPolicy: 'Always', ...extra });

test('a sidecar with a startup probe holds the next init container until it started', () => {
  const p = pod({
    initContainers: [sidecar('proxy', { startupProbe: { periodSeconds: 2 } }), { name: 'migrate', image: 'busybox', command: ['sleep', '1'] }],
  }, { 'kubelite.dev/proxy.startup-after-seconds': '3' });
  const early = at(p, 3);
  assert.equal(early.initContainers.get('migrate')!.waitingReason, 'PodInitializing');
  assert.equal(early.next, T0 + 4000);
  const later = at(p, 4.5);
  assert.equal(later.initContainers.get('migrate')!.kind, 'running');
  assert.equal(at(p, 5).containers.get('c')!.kind, 'running');
});

test('a sidecar that exits restarts even when the pod restartPolicy is Never', () => {
  const p = pod({ restartPolicy: 'Never', initContainers: [sidecar('log', { command: ['sh', '-c', 'sleep 2; exit 1'] })], containers: [{ name: 'c', image: 'busybox', command: ['sleep', '60'] }] });
  const r = at(p, 2.5);
  assert.equal(r.initContainers.get('log')!.restartCount, 1);
  assert.equal(r.initContainers.get('log')!.kind, 'running');
});

test('a Job-style pod completes once its main containers end: its sidecars stopped after them, in reverse order', () => {
  const p = pod(
    { restartPolicy: 'Never', initContainers: [sidecar('first'), sidecar('second')], containers: [{ name: 'c', image: 'busybox', command: ['sleep', '5'] }] },
    { 'kubelite.dev/first.stop-seconds': '1', 'kubelite.dev/second.stop-seconds': '2' },
  );
  const running = at(p, 6);
  assert.equal(running.phase, 'Running', 'not terminal while a sidecar runs');
  assert.equal(running.initContainers.get('second')!.kind, 'running');
  assert.equal(running.next, T0 + 7000);
  const secondDone = at(p, 7);
  assert.equal(secondDone.initContainers.get('second')!.kind, 'terminated');
  assert.equal(secondDone.initContainers.get('first')!.kind, 'running');
  const done = at(p, 8);
  assert.equal(done.phase, 'Succeeded');
  assert.deepEqual([...done.initContainers.values()].map((s) => s.terminated?.exitCode), [0, 0]);
});

test('deletion: main containers first, then the sidecars in reverse order, sharing the grace period', () => {
  const p = pod(
    { initContainers: [sidecar('first'), sidecar('second')] },
    { 'kubelite.dev/c.stop-seconds': '3', 'kubelite.dev/second.stop-seconds': '4', 'kubelite.dev/first.stop-seconds': '100' },
  );
  const del = { at: T0 + 10_000, graceMs: 10_000 };
  assert.equal(at(p, 12.9, del).initContainers.get('second')!.kind, 'running');
  const s = at(p, 17, del);
  assert.equal(s.containers.get('c')!.kind, 'terminated');
  assert.equal(s.initContainers.get('second')!.terminated?.finishedAt, T0 + 17_000);
  assert.equal(s.initContainers.get('first')!.kind, 'running');
  // the last sidecar gets what is left of the grace period (3 s), at least 2 s: killed at 20 s
  assert.equal(at(p, 19.9, del).stopped, false);
  const end = at(p, 20, del);
  assert.equal(end.stopped, true);
  assert.equal(end.initContainers.get('first')!.terminated?.exitCode, 137);
});

test('through the agent: a Job-style pod with a sidecar ends Succeeded, the sidecar stopped (Killing)', async () => {
  const { agent, createPod, getPod, tick, recorder } = await setup();
  await createPod('job', { restartPolicy: 'Never', initContainers: [sidecar('proxy')], containers: [{ name: 'c', image: 'busybox', command: ['sleep', '2'] }] });
  assert.equal(status(getPod('job')).phase, 'Running');
  await tick(2100);
  assert.equal(status(getPod('job')).phase, 'Succeeded');
  assert.ok(status(getPod('job')).initContainerStatuses![0]!.state!.terminated);
  assert.ok(recorder.events.some((e) => e.reason === 'Killing' && e.message === 'Stopping container proxy'));
  await agent.stop();
});
