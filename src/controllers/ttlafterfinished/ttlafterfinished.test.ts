import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { JOBS } from '../common/jobs.js';
import { TTLAfterFinishedController } from './controller.js';

function job(name: string, ttl: number | undefined, finished?: { type: string; at: string }, deleting = false): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] } : {}) },
    spec: ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl },
    status: { conditions: finished ? [{ type: finished.type, status: 'True', lastTransitionTime: finished.at }] : [] },
  };
}

const cases: { name: string; job: KubeObject; now: string; deleted: boolean; requeue?: number; queued: boolean }[] = [
  { name: 'complete and expired', job: job('a', 100, { type: 'Complete', at: '2026-01-01T00:00:00Z' }), now: '2026-01-01T00:01:40Z', deleted: true, queued: true },
  { name: 'failed and expired', job: job('b', 0, { type: 'Failed', at: '2026-01-01T00:00:00Z' }), now: '2026-01-01T00:00:00Z', deleted: true, queued: true },
  { name: 'complete, not yet expired: requeued for the rest', job: job('c', 100, { type: 'Complete', at: '2026-01-01T00:00:00Z' }), now: '2026-01-01T00:01:00Z', deleted: false, requeue: 40_000, queued: true },
  { name: 'finished in the future (clock skew): deferred', job: job('d', 10, { type: 'Complete', at: '2026-01-01T00:05:00Z' }), now: '2026-01-01T00:00:00Z', deleted: false, requeue: 310_000, queued: true },
  { name: 'not finished', job: job('e', 100), now: '2026-01-01T01:00:00Z', deleted: false, queued: false },
  { name: 'no TTL', job: job('f', undefined, { type: 'Complete', at: '2026-01-01T00:00:00Z' }), now: '2026-01-01T01:00:00Z', deleted: false, queued: false },
  { name: 'already being deleted', job: job('g', 1, { type: 'Complete', at: '2026-01-01T00:00:00Z' }, true), now: '2026-01-01T01:00:00Z', deleted: false, queued: false },
];

for (const c of cases) {
  test(`ttl-after-finished: ${c.name}`, async () => {
    const ctx = fakeControllerContext({ objects: [c.job], now: Date.parse(c.now) });
    const ctrl = new TTLAfterFinishedController(ctx);
    const delayed: [string, number][] = [];
    ctrl.queue.addAfter = (k: string, ms: number) => void delayed.push([k, ms]);
    const name = String((c.job.metadata as { name: string }).name);
    assert.equal(ctrl.queue.len(), c.queued ? 1 : 0, 'enqueued by the informer');
    await ctrl.sync(`default/${name}`);
    const deletes = ctx.clientset.actions.filter((a) => a.verb === 'delete');
    if (c.deleted) {
      assert.equal(deletes.length, 1);
      assert.deepEqual(deletes[0]!.options, { propagationPolicy: 'Foreground', preconditions: { uid: `uid-${name}` } });
      assert.equal(ctx.clientset.tracker.get(JOBS, 'default', name), undefined);
    } else {
      assert.equal(deletes.length, 0);
    }
    assert.deepEqual(delayed, c.requeue === undefined ? [] : [[`default/${name}`, c.requeue]]);
  });
}

test('ttl-after-finished: a TTL raised since the cache was filled is honoured (fresh read)', async () => {
  const j = job('h', 10, { type: 'Complete', at: '2026-01-01T00:00:00Z' });
  const ctx = fakeControllerContext({ objects: [j], now: Date.parse('2026-01-01T00:00:20Z') });
  const ctrl = new TTLAfterFinishedController(ctx);
  const delayed: [string, number][] = [];
  ctrl.queue.addAfter = (k: string, ms: number) => void delayed.push([k, ms]);
  // The API server has a longer TTL than the informer's copy.
  ctx.clientset.prependReactor('get', 'jobs', () => ({ handled: true, result: { ...j, spec: { ttlSecondsAfterFinished: 60 } } }));
  await ctrl.sync('default/h');
  assert.equal(ctx.clientset.actions.filter((a) => a.verb === 'delete').length, 0);
  assert.deepEqual(delayed, [['default/h', 40_000]]);
});
