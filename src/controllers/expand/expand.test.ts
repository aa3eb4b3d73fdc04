import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameOf } from '../../api/meta/object.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { ANN_STORAGE_RESIZER, ExpandController } from './controller.js';

const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const claim = (name: string, request: string, capacity: string, volumeName: string) =>
  obj('v1', 'PersistentVolumeClaim', name, { namespace: 'ns', uid: `uid-${name}`, spec: { volumeName, resources: { requests: { storage: request } } }, status: { phase: 'Bound', capacity: { storage: capacity } } });
const volume = (name: string, claimName: string, source: Record<string, unknown>) =>
  obj('v1', 'PersistentVolume', name, { spec: { claimRef: { namespace: 'ns', name: claimName, uid: `uid-${claimName}` }, capacity: { storage: '1Gi' }, ...source } });

test('a grown claim waits for its CSI driver; a migrated in-tree volume is handed to its CSI driver by annotation; a claim not grown is left alone', async () => {
  const ctx = fakeControllerContext({
    objects: [
      claim('csi', '2Gi', '1Gi', 'pv-csi'),
      volume('pv-csi', 'csi', { csi: { driver: 'csi.example.com', volumeHandle: 'h' } }),
      claim('ebs', '2Gi', '1Gi', 'pv-ebs'),
      volume('pv-ebs', 'ebs', { awsElasticBlockStore: { volumeID: 'vol-1' } }),
      claim('same', '1Gi', '1Gi', 'pv-same'),
      volume('pv-same', 'same', { csi: { driver: 'csi.example.com', volumeHandle: 'h2' } }),
      claim('stolen', '2Gi', '1Gi', 'pv-other'),
      volume('pv-other', 'someone-else', { csi: { driver: 'csi.example.com', volumeHandle: 'h3' } }),
    ],
  });
  const c = new ExpandController(ctx);
  await flush(3);
  await c.sync('ns/csi');
  await c.sync('ns/ebs');
  await c.sync('ns/same');
  await assert.rejects(c.sync('ns/stolen'), /persistent Volume is not bound to PVC being updated : ns\/stolen/);
  assert.deepEqual(
    ctx.events.map((e) => [nameOf(e.object), e.reason, e.message]),
    [
      ['csi', 'ExternalExpanding', 'waiting for an external controller to expand this PVC'],
      ['ebs', 'ExternalExpanding', 'CSI migration enabled for kubernetes.io/aws-ebs; waiting for external resizer to expand the pvc'],
    ],
  );
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['patch persistentvolumeclaims/status ns/ebs']);
  assert.equal((ctx.clientset.tracker.get(PVCS, 'ns', 'ebs')!.metadata as { annotations: Record<string, string> }).annotations[ANN_STORAGE_RESIZER], 'ebs.csi.aws.com');
});
