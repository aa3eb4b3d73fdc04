import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FINALIZER_PVC_PROTECTION, finalizersOf } from '../../api/meta/object.js';
import type { Pod } from '../../api/types.js';
import { fakeControllerContext } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { claimsOf, podUsesClaim, PVCProtectionController } from './controller.js';

const DELETING = '2026-01-01T00:00:00Z';
const claim = (name: string, o: { deleting?: boolean; finalizers?: string[] } = {}) =>
  obj('v1', 'PersistentVolumeClaim', name, { namespace: 'ns', finalizers: o.finalizers ?? [FINALIZER_PVC_PROTECTION], deletionTimestamp: o.deleting ? DELETING : undefined, spec: {} });
const pod = (name: string, volumes: unknown[], o: { nodeName?: string; phase?: string } = {}) =>
  obj('v1', 'Pod', name, { namespace: 'ns', spec: { nodeName: o.nodeName ?? 'n1', volumes, containers: [{ name: 'c' }] }, status: { phase: o.phase ?? 'Running' } });
const uses = (claimName: string) => ({ name: 'data', persistentVolumeClaim: { claimName } });
const stored = (ctx: ReturnType<typeof fakeControllerContext>, name: string) => ctx.clientset.tracker.get({ group: '', resource: 'persistentvolumeclaims' }, 'ns', name);

test('the claims a pod refers to: persistentVolumeClaim volumes and its generic ephemeral volumes', () => {
  const p = pod('web-0', [uses('a'), { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }, { name: 'cfg', configMap: { name: 'x' } }]) as Pod;
  assert.deepEqual(claimsOf(p), ['a', 'web-0-scratch']);
});

test('a pod uses a claim only when it is scheduled and not finished', () => {
  assert.equal(podUsesClaim(pod('p', [uses('a')]) as Pod, 'a'), true);
  assert.equal(podUsesClaim(pod('p', [uses('a')]) as Pod, 'b'), false);
  assert.equal(podUsesClaim(pod('p', [uses('a')], { nodeName: '' }) as Pod, 'a'), false);
  for (const phase of ['Succeeded', 'Failed']) assert.equal(podUsesClaim(pod('p', [uses('a')], { phase }) as Pod, 'a'), false, phase);
  assert.equal(podUsesClaim(pod('p', [uses('a')], { phase: 'Pending' }) as Pod, 'a'), true);
});

test('a deleted claim no pod uses loses its finalizer; one a running pod uses keeps it', async () => {
  const ctx = fakeControllerContext({ objects: [claim('free', { deleting: true }), claim('held', { deleting: true }), pod('p', [uses('held')])] });
  const c = new PVCProtectionController(ctx);
  await c.sync('ns/free');
  await c.sync('ns/held');
  // The last finalizer of an object being deleted gone, the object is gone.
  assert.equal(stored(ctx, 'free'), undefined);
  assert.deepEqual(finalizersOf(stored(ctx, 'held')!), [FINALIZER_PVC_PROTECTION]);
});

test('a user the informer has not seen yet is found by the live list', async () => {
  const ctx = fakeControllerContext({ objects: [claim('held', { deleting: true })] });
  const c = new PVCProtectionController(ctx);
  // Written behind the informer's back: only the API server knows the pod.
  ctx.clientset.tracker.add(pod('late', [uses('held')]));
  await c.sync('ns/held');
  assert.deepEqual(finalizersOf(stored(ctx, 'held')!), [FINALIZER_PVC_PROTECTION]);
});

test('a claim without the finalizer gets it; other finalizers stay', async () => {
  const ctx = fakeControllerContext({ objects: [claim('old', { finalizers: ['example.com/keep'] })] });
  await new PVCProtectionController(ctx).sync('ns/old');
  assert.deepEqual(finalizersOf(stored(ctx, 'old')!), ['example.com/keep', FINALIZER_PVC_PROTECTION]);
});

test('run: the claim is released once the pod that used it finishes', async () => {
  const ctx = fakeControllerContext({ objects: [claim('data', { deleting: true }), pod('p', [uses('data')])] });
  const c = new PVCProtectionController(ctx);
  const ac = new AbortController();
  const done = c.run(1, ac.signal);
  const pods = ctx.clientset.resource({ group: '', version: 'v1', resource: 'pods' });
  const current = await pods.get('ns', 'p');
  await pods.update('ns', { ...current, status: { phase: 'Succeeded' } }, { subresource: 'status' });
  for (let i = 0; i < 400 && stored(ctx, 'data') !== undefined; i++) await new Promise((r) => setTimeout(r, 5));
  ac.abort();
  await done;
  assert.equal(stored(ctx, 'data'), undefined);
});
