import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FINALIZER_PV_PROTECTION, finalizersOf } from '../../api/meta/object.js';
import { fakeControllerContext } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { PVProtectionController } from './controller.js';

const volume = (name: string, phase: string, o: { deleting?: boolean; finalizers?: string[] } = {}) =>
  obj('v1', 'PersistentVolume', name, { finalizers: o.finalizers ?? [FINALIZER_PV_PROTECTION], deletionTimestamp: o.deleting ? '2026-01-01T00:00:00Z' : undefined, spec: {}, status: { phase } });
const stored = (ctx: ReturnType<typeof fakeControllerContext>, name: string) => ctx.clientset.tracker.get({ group: '', resource: 'persistentvolumes' }, '', name);

test('a deleted volume that is not bound loses its finalizer; a bound one keeps it', async () => {
  const ctx = fakeControllerContext({ objects: [volume('released', 'Released', { deleting: true }), volume('bound', 'Bound', { deleting: true }), volume('available', 'Available', { deleting: true })] });
  const c = new PVProtectionController(ctx);
  for (const name of ['released', 'bound', 'available']) await c.sync(name);
  // The last finalizer of an object being deleted gone, the object is gone.
  assert.equal(stored(ctx, 'released'), undefined);
  assert.equal(stored(ctx, 'available'), undefined);
  assert.deepEqual(finalizersOf(stored(ctx, 'bound')!), [FINALIZER_PV_PROTECTION]);
});

test('a volume without the finalizer gets it', async () => {
  const ctx = fakeControllerContext({ objects: [volume('old', 'Available', { finalizers: [] })] });
  await new PVProtectionController(ctx).sync('old');
  assert.deepEqual(finalizersOf(stored(ctx, 'old')!), [FINALIZER_PV_PROTECTION]);
});
