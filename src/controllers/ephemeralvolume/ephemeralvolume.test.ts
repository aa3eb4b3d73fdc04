import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownerReferencesOf } from '../../api/meta/object.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { EphemeralVolumeController, PVCS } from './controller.js';

const template = { metadata: { labels: { kind: 'scratch' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
const pod = (name: string, uid: string): KubeObject =>
  obj('v1', 'Pod', name, { namespace: 'default', uid, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: template } }, { name: 'cfg', configMap: { name: 'x' } }] } });

test('a claim per generic ephemeral volume, owned by the pod; a claim the pod does not own is an error on the pod', async () => {
  const foreign = obj('v1', 'PersistentVolumeClaim', 'other-scratch', { namespace: 'default', spec: {} });
  const ctx = fakeControllerContext({ objects: [pod('web', 'uid-web'), pod('other', 'uid-other'), foreign] });
  const c = new EphemeralVolumeController(ctx);
  await flush(3);
  await c.sync('default/web');
  const claim = ctx.clientset.tracker.get(PVCS, 'default', 'web-scratch')!;
  assert.deepEqual(ownerReferencesOf(claim).map((r) => [r.kind, r.name, r.uid, r.controller, r.blockOwnerDeletion]), [['Pod', 'web', 'uid-web', true, true]]);
  assert.deepEqual((claim.metadata as { labels: object }).labels, { kind: 'scratch' });
  assert.deepEqual((claim.spec as { resources: object }).resources, { requests: { storage: '1Gi' } });
  await flush(3);
  await c.sync('default/web');
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['create persistentvolumeclaims default/web-scratch'], 'created once');
  await assert.rejects(c.sync('default/other'), /PVC default\/other-scratch was not created for pod default\/other \(pod is not owner\)/);
  assert.ok(ctx.events.some((e) => e.reason === 'FailedBinding' && e.message === 'ephemeral volume scratch: PVC default/other-scratch was not created for pod default/other (pod is not owner)'));
});
