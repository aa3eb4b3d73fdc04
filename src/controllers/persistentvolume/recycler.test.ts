import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nameOf } from '../../api/meta/object.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { PersistentVolumeController, PVS } from './controller.js';
import { loadRecyclerPodTemplate } from './recycler.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const released = (name: string, source: Record<string, unknown>, size = '5Gi') =>
  obj('v1', 'PersistentVolume', name, {
    annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' },
    spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Recycle', claimRef: { namespace: 'ns', name: 'gone', uid: 'gone-uid' }, ...source },
    status: { phase: 'Released' },
  });

test('Recycle: a recycler pod per released hostPath or NFS volume with the timeout per GiB; success makes the volume Available, failure Failed', async () => {
  const ctx = fakeControllerContext({
    objects: [released('host', { hostPath: { path: '/tmp/data' } }), released('share', { nfs: { server: 'nfs.example', path: '/x' } }, '1Gi'), released('disk', { csi: { driver: 'd', volumeHandle: 'h' } })],
    options: { pvRecyclerMinimumTimeoutHostpath: 60, pvRecyclerTimeoutIncrementHostpath: 30, pvRecyclerMinimumTimeoutNfs: 300, pvRecyclerIncrementTimeoutNfs: 30 },
  });
  const c = new PersistentVolumeController(ctx);
  await flush(3);
  for (const v of ['host', 'share', 'disk']) await c.syncVolume(v);
  const host = ctx.clientset.tracker.get(PODS, 'default', 'recycler-for-host')!;
  const spec = host.spec as { activeDeadlineSeconds: number; restartPolicy: string; volumes: unknown[]; containers: { args: string[] }[] };
  assert.equal(spec.activeDeadlineSeconds, 150, '5 GiB × 30 s, above the 60 s minimum');
  assert.equal(spec.restartPolicy, 'Never');
  assert.deepEqual(spec.volumes, [{ name: 'vol', hostPath: { path: '/tmp/data' } }]);
  const share = ctx.clientset.tracker.get(PODS, 'default', 'recycler-for-share')!;
  assert.equal((share.spec as { activeDeadlineSeconds: number }).activeDeadlineSeconds, 300, 'the NFS minimum');
  assert.deepEqual((share.spec as { volumes: unknown[] }).volumes, [{ name: 'vol', nfs: { server: 'nfs.example', path: '/x', readOnly: false } }]);
  assert.equal((ctx.clientset.tracker.get(PVS, '', 'disk')!.status as { phase: string }).phase, 'Failed');
  assert.ok(ctx.events.some((e) => nameOf(e.object) === 'disk' && e.reason === 'VolumeFailedRecycle' && e.message === 'No recycler plugin found for the volume!'));

  ctx.clientset.tracker.put(PODS, { ...host, status: { phase: 'Succeeded' } });
  ctx.clientset.tracker.put(PODS, { ...share, status: { phase: 'Failed', message: 'boom' } });
  await flush(3);
  await c.syncVolume('host');
  await c.syncVolume('share');
  const recycled = ctx.clientset.tracker.get(PVS, '', 'host')!;
  assert.equal((recycled.spec as { claimRef?: unknown }).claimRef, undefined);
  assert.equal((recycled.status as { phase: string }).phase, 'Available');
  assert.equal((recycled.metadata as { annotations?: Record<string, string> }).annotations?.['pv.kubernetes.io/bound-by-controller'], undefined);
  assert.equal(ctx.clientset.tracker.get(PODS, 'default', 'recycler-for-host'), undefined, 'the recycler pod deleted');
  assert.equal((ctx.clientset.tracker.get(PVS, '', 'share')!.status as { phase: string; message: string }).message, 'Recycle failed: pod failed, pod.Status.Message boom.');
});

test('a recycler pod template file must mount a volume', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recycler-'));
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'apiVersion: v1\nkind: Pod\nspec:\n  containers: [{name: c, image: busybox}]\n');
  assert.throws(() => loadRecyclerPodTemplate(bad), new RegExp(`pod specification \\(${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\): does not contain any volume\\(s\\)`));
  const good = join(dir, 'good.yaml');
  writeFileSync(good, 'apiVersion: v1\nkind: Pod\nmetadata: {namespace: kube-system}\nspec:\n  volumes: [{name: scrub}]\n  containers: [{name: c, image: busybox}]\n');
  assert.equal(loadRecyclerPodTemplate(good).metadata?.namespace, 'kube-system');
  assert.throws(() => loadRecyclerPodTemplate(join(dir, 'missing.yaml')), /failed to read recycler pod template/);
});
