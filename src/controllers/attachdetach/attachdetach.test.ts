import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { ANN_CONTROLLER_MANAGED, AttachDetachController, MAX_WAIT_FOR_UNMOUNT_MS } from './controller.js';
import { attachmentName } from '../../machinery/volumes/attachable.js';

const VAS = { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattachments' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const DRIVER = 'csi.example.com';
const UNIQUE = `kubernetes.io/csi/${DRIVER}^h-a`;

const node = (name: string, managed: boolean) => obj('v1', 'Node', name, { ...(managed ? { annotations: { [ANN_CONTROLLER_MANAGED]: 'true' } } : {}), status: {} });
const pv = (name: string, driver: string, handle: string) => obj('v1', 'PersistentVolume', name, { spec: { csi: { driver, volumeHandle: handle }, capacity: { storage: '1Gi' } } });
const claim = (name: string, volumeName: string) => obj('v1', 'PersistentVolumeClaim', name, { namespace: 'ns', spec: { volumeName } });
const pod = (name: string, nodeName: string, claims: string[]) =>
  obj('v1', 'Pod', name, { namespace: 'ns', spec: { nodeName, containers: [{ name: 'c' }], volumes: claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })) }, status: { phase: 'Pending' } });

function cluster() {
  const objects: KubeObject[] = [
    node('n1', true),
    node('n2', false),
    obj('storage.k8s.io/v1', 'CSIDriver', DRIVER, { spec: { attachRequired: true } }),
    obj('storage.k8s.io/v1', 'CSIDriver', 'noattach.example.com', { spec: { attachRequired: false } }),
    pv('pv-a', DRIVER, 'h-a'),
    pv('pv-b', 'noattach.example.com', 'h-b'),
    obj('v1', 'PersistentVolume', 'pv-host', { spec: { hostPath: { path: '/x' } } }),
    claim('claim-a', 'pv-a'),
    claim('claim-b', 'pv-b'),
    claim('claim-host', 'pv-host'),
    claim('unbound', ''),
    pod('p1', 'n1', ['claim-a', 'claim-b', 'claim-host', 'unbound']),
    pod('p2', 'n2', ['claim-a']),
  ];
  const ctx = fakeControllerContext({ objects, options: { attachDetachReconcileSyncPeriod: 60_000 } });
  return { ctx, c: new AttachDetachController(ctx) };
}

test('a VolumeAttachment per attachable CSI volume of the pods on a controller-managed node; attached volumes reach the node status', async () => {
  const { ctx, c } = cluster();
  await flush(3);
  await c.syncNode('n1');
  await c.syncNode('n2');
  const name = attachmentName('h-a', DRIVER, 'n1');
  assert.match(name, /^csi-[0-9a-f]{64}$/);
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), [`create volumeattachments ${name}`], 'only pv-a on n1: pv-b needs no attach, a host path and an unbound claim are not attachable, n2 is not controller-managed');
  const va = ctx.clientset.tracker.get(VAS, '', name)!;
  assert.deepEqual(va.spec, { attacher: DRIVER, nodeName: 'n1', source: { persistentVolumeName: 'pv-a' } });
  // The driver's attacher reports it attached.
  ctx.clientset.tracker.put(VAS, { ...va, status: { attached: true } });
  await flush(3);
  await c.syncNode('n1');
  const n1 = ctx.clientset.tracker.get(NODES, '', 'n1')!;
  assert.deepEqual((n1.status as { volumesAttached: unknown }).volumesAttached, [{ name: UNIQUE, devicePath: '' }]);
  assert.ok(ctx.events.some((e) => e.reason === 'SuccessfulAttachVolume' && e.message === 'AttachVolume.Attach succeeded for volume "pv-a"'));
});

test('the periodic sync redoes an attachment whose VolumeAttachment went away; without it (disabled) nothing notices', async () => {
  const { ctx, c } = cluster();
  await flush(3);
  await c.syncNode('n1');
  const name = attachmentName('h-a', DRIVER, 'n1');
  ctx.clientset.tracker.put(VAS, { ...ctx.clientset.tracker.get(VAS, '', name)!, status: { attached: true } });
  await flush(3);
  await c.syncNode('n1');
  ctx.clientset.tracker.remove(VAS, '', name);
  await flush(3);
  await c.syncNode('n1');
  assert.equal(ctx.clientset.tracker.get(VAS, '', name), undefined, 'believed attached: not recreated by a node sync');
  c.verifyAttached();
  await c.syncNode('n1');
  assert.ok(ctx.clientset.tracker.get(VAS, '', name), 'recreated after the sync');
});

test('a volume no pod uses is detached: at once when not in use, after the unmount wait when the kubelet still reports it', async () => {
  const { ctx, c } = cluster();
  await flush(3);
  await c.syncNode('n1');
  const name = attachmentName('h-a', DRIVER, 'n1');
  ctx.clientset.tracker.put(VAS, { ...ctx.clientset.tracker.get(VAS, '', name)!, status: { attached: true } });
  await flush(3);
  await c.syncNode('n1');
  const n1 = ctx.clientset.tracker.get(NODES, '', 'n1')!;
  ctx.clientset.tracker.put(NODES, { ...n1, status: { ...(n1.status as object), volumesInUse: [UNIQUE] } });
  const p1 = ctx.clientset.tracker.get(PODS, 'ns', 'p1')!;
  ctx.clientset.tracker.put(PODS, { ...p1, status: { phase: 'Succeeded' } });
  await flush(3);
  await c.syncNode('n1');
  assert.ok(ctx.clientset.tracker.get(VAS, '', name), 'still in use: kept');
  ctx.clock.advance(MAX_WAIT_FOR_UNMOUNT_MS);
  await c.syncNode('n1');
  assert.equal(ctx.clientset.tracker.get(VAS, '', name), undefined, 'deleted after the wait');
  assert.deepEqual((ctx.clientset.tracker.get(NODES, '', 'n1')!.status as { volumesAttached: unknown }).volumesAttached, []);
});

test('a restarted controller takes the existing attachments as its own', async () => {
  const { ctx } = cluster();
  const name = attachmentName('h-a', DRIVER, 'n1');
  ctx.clientset.tracker.add(obj('storage.k8s.io/v1', 'VolumeAttachment', name, { spec: { attacher: DRIVER, nodeName: 'n1', source: { persistentVolumeName: 'pv-a' } }, status: { attached: true } }));
  const c = new AttachDetachController(ctx);
  await flush(3);
  await c.syncNode('n1');
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['patch nodes/status n1'], 'no new attachment, only the node status');
});
