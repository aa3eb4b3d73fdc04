// The simulated CSI driver csi.kubelite.dev on `kubelite up`, through kubectl: a claim of its
// WaitForFirstConsumer class is provisioned for the node the scheduler picks, the attach/detach
// controller attaches the volume there (VolumeAttachment, node status) and only then does the pod
// start; the claim grows on request (admission allows it for this class only); the pod's end
// detaches the volume and the claim's deletion deletes it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const NS = 'csi';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });
const get = async (args: string[]) => (await k([...args, '-o', 'json'].flat())).trim();
const json = async <T = Record<string, unknown>>(args: string[]): Promise<T> => JSON.parse(await get(args)) as T;
const poll = <T>(check: () => Promise<T>, what: string) => waitFor(check, what, 60_000, 200);

describe('kubelite up: the simulated CSI driver', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2 });
    await k(['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('is registered: its CSIDriver and an entry on every CSINode', async () => {
    await poll(async () => (await kubectl(cluster.kubeconfig, ['get', 'csidriver', 'csi.kubelite.dev'])).code === 0, 'the CSIDriver');
    const driver = await json<{ spec: { attachRequired: boolean } }>(['get', 'csidriver', 'csi.kubelite.dev']);
    assert.equal(driver.spec.attachRequired, true);
    const nodes = await poll(async () => {
      const list = await json<{ items: { metadata: { name: string }; spec: { drivers: { name: string; nodeID: string }[] } }[] }>(['get', 'csinodes']);
      return list.items.length === 2 ? list.items : undefined;
    }, 'two CSINodes');
    for (const n of nodes) assert.deepEqual(n.spec.drivers.map((d) => [d.name, d.nodeID]), [['csi.kubelite.dev', n.metadata.name]]);
  });

  it('provisions for the chosen node, attaches there before the pod starts, grows the claim, detaches and deletes', async () => {
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'kubelite-csi' }, provisioner: 'csi.kubelite.dev', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true }));
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'disk', namespace: NS }, spec: { storageClassName: 'kubelite-csi', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db', namespace: NS }, spec: { containers: [{ name: 'c', image: 'postgres' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'disk' } }] } }));
    const pod = await poll(async () => {
      const p = await json<{ spec: { nodeName?: string }; status: { phase?: string } }>(['-n', NS, 'get', 'pod', 'db']);
      return p.status.phase === 'Running' ? p : undefined;
    }, 'the pod Running');
    const node = pod.spec.nodeName!;
    const claim = await json<{ spec: { volumeName: string }; metadata: { uid: string } }>(['-n', NS, 'get', 'pvc', 'disk']);
    const pv = await json<{ spec: { csi: { driver: string; volumeHandle: string } }; metadata: { annotations: Record<string, string> } }>(['get', 'pv', claim.spec.volumeName]);
    assert.equal(pv.spec.csi.driver, 'csi.kubelite.dev');
    assert.equal(pv.metadata.annotations['pv.kubernetes.io/provisioned-by'], 'csi.kubelite.dev');
    const unique = `kubernetes.io/csi/csi.kubelite.dev^${pv.spec.csi.volumeHandle}`;
    const attachments = await json<{ items: { spec: { nodeName: string; attacher: string; source: { persistentVolumeName: string } }; status?: { attached?: boolean } }[] }>(['get', 'volumeattachments']);
    assert.deepEqual(
      attachments.items.map((a) => [a.spec.attacher, a.spec.nodeName, a.spec.source.persistentVolumeName, a.status?.attached]),
      [['csi.kubelite.dev', node, claim.spec.volumeName, true]],
    );
    const status = await json<{ status: { volumesAttached?: { name: string }[] } }>(['get', 'node', node]);
    assert.deepEqual(status.status.volumesAttached?.map((v) => v.name), [unique]);
    assert.match(await k(['-n', NS, 'get', 'events', '--field-selector', 'involvedObject.name=db']), new RegExp(`SuccessfulAttachVolume\\s+pod/db\\s+AttachVolume.Attach succeeded for volume "${claim.spec.volumeName}"`));

    // Grow it: the volume first, then the claim's capacity once the running pod's node expands the file system.
    await k(['-n', NS, 'patch', 'pvc', 'disk', '--type=merge', '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}']);
    await poll(async () => (await k(['-n', NS, 'get', 'pvc', 'disk', '-o', 'jsonpath={.status.capacity.storage}'])).trim() === '2Gi', 'the claim grown');
    assert.equal((await k(['get', 'pv', claim.spec.volumeName, '-o', 'jsonpath={.spec.capacity.storage}'])).trim(), '2Gi');
    assert.match(await k(['-n', NS, 'get', 'events', '--field-selector', 'involvedObject.name=db']), /FileSystemResizeSuccessful/);

    // The pod goes: the volume is detached; the claim goes: the volume is deleted.
    await k(['-n', NS, 'delete', 'pod', 'db', '--wait=true']);
    await poll(async () => (await json<{ items: unknown[] }>(['get', 'volumeattachments'])).items.length === 0, 'the attachment gone');
    await poll(async () => ((await json<{ status: { volumesAttached?: unknown[] } }>(['get', 'node', node])).status.volumesAttached ?? []).length === 0, 'the node status without it');
    await k(['-n', NS, 'delete', 'pvc', 'disk']);
    await poll(async () => (await kubectl(cluster.kubeconfig, ['get', 'pv', claim.spec.volumeName])).code !== 0, 'the volume deleted');
  });

  it('refuses to grow a claim whose class does not allow expansion', async () => {
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'fixed', namespace: NS }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
    await poll(async () => (await k(['-n', NS, 'get', 'pvc', 'fixed', '-o', 'jsonpath={.status.phase}'])).trim() === 'Bound', 'bound');
    const r = await kubectl(cluster.kubeconfig, ['-n', NS, 'patch', 'pvc', 'fixed', '--type=merge', '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /persistentvolumeclaims "fixed" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize/);
  });
});
