import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from './clock.js';
import { EventBroadcaster } from './events.js';
import { FakeClientset } from './fake/index.js';
import type { KubeObject } from './types.js';

const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'uid-1', resourceVersion: '7' } };
const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'uid-n' } };

test('events: created with involvedObject and source, aggregated within 10 minutes', async () => {
  const cs = new FakeClientset();
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const b = new EventBroadcaster({ clientset: cs, clock, host: 'host-1' });
  const rec = b.newRecorder('deployment-controller');
  rec.event(pod, 'Normal', 'Scaled', 'scaled up to 3');
  rec.event(pod, 'Normal', 'Scaled', 'scaled up to 3');
  clock.advance(60_000);
  rec.event(pod, 'Normal', 'Scaled', 'scaled up to 3');
  rec.event(pod, 'Warning', 'Failed', 'boom');
  rec.event(node, 'Normal', 'NodeReady', 'ready');
  await b.flush();
  clock.advance(11 * 60_000);
  rec.event(pod, 'Normal', 'Scaled', 'scaled up to 3');
  await b.flush();
  assert.deepEqual(cs.writes().map((a) => `${a.verb} ${a.namespace}`), ['create ns', 'patch ns', 'patch ns', 'create ns', 'create default', 'create ns']);
  const list = (await cs.resource({ group: '', version: 'v1', resource: 'events' }).list('ns')).items;
  const scaled = list.filter((e) => e.reason === 'Scaled').sort((x, y) => String(x.firstTimestamp).localeCompare(String(y.firstTimestamp)));
  assert.equal(scaled[0]!.count, 3);
  assert.equal(scaled[0]!.firstTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(scaled[0]!.lastTimestamp, '2026-01-01T00:01:00Z');
  assert.deepEqual(scaled[0]!.involvedObject, { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'uid-1', apiVersion: 'v1', resourceVersion: '7' });
  assert.deepEqual(scaled[0]!.source, { component: 'deployment-controller', host: 'host-1' });
  assert.equal(scaled[0]!.reportingComponent, 'deployment-controller');
  assert.equal(scaled[0]!.type, 'Normal');
  assert.match(String((scaled[0]!.metadata as { name: string }).name), /^p\.[0-9a-f]+$/);
  assert.equal(scaled[1]!.count, 1);
  assert.equal(b.stats.created, 4);
  assert.equal(b.stats.patched, 2);
});

test('events: a failing write is logged, never thrown; spam beyond 25 per object is dropped', async () => {
  const cs = new FakeClientset();
  cs.prependReactor('create', 'events', () => ({ handled: true, error: new Error('server down') }));
  const logs: Record<string, unknown>[] = [];
  const b = new EventBroadcaster({ clientset: cs, clock: new ManualClock(), log: (f) => logs.push(f) });
  const rec = b.newRecorder('job-controller');
  assert.doesNotThrow(() => rec.event(pod, 'Warning', 'X', 'y'));
  await b.flush();
  assert.equal(b.stats.failed, 1);
  assert.equal(logs[0]!.msg, 'failed to write event');

  const cs2 = new FakeClientset();
  const b2 = new EventBroadcaster({ clientset: cs2, clock: new ManualClock() });
  const rec2 = b2.newRecorder('c');
  for (let i = 0; i < 30; i++) rec2.event(pod, 'Normal', 'R', `message ${i}`);
  await b2.flush();
  assert.equal(b2.stats.created, 25);
  assert.equal(b2.stats.dropped, 5);
});
