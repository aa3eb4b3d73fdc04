import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from './clock.js';
import { newControllerContext } from './context.js';
import { FakeClientset, FakeInformerFactory } from './fake/index.js';

test('newControllerContext: recorders per component over one broadcaster, clock, options', async () => {
  const clientset = new FakeClientset();
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  const ctx = newControllerContext({ clientset, informers: new FakeInformerFactory(clientset), clock, options: { a: 1 }, host: 'h' });
  assert.equal(ctx.now(), Date.UTC(2026, 5, 1));
  assert.equal(ctx.options.a, 1);
  assert.equal(ctx.recorder('x'), ctx.recorder('x'));
  ctx.recorder('x').event({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'n', uid: 'u' } }, 'Normal', 'R', 'm');
  await ctx.broadcaster.flush();
  const ev = (await clientset.resource({ group: '', version: 'v1', resource: 'events' }).list('n')).items[0]!;
  assert.deepEqual(ev.source, { component: 'x', host: 'h' });
  assert.equal(ev.lastTimestamp, '2026-06-01T00:00:00Z');
});
