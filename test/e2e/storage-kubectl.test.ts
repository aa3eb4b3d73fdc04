// Persistent volumes, claims and storage classes through kubectl against `kubelite apiserver`:
// create/get/apply/delete and explain for pv, pvc and storageclass; `kubectl get sc` marks the
// default class; a claim created without a class gets the default one and the protection
// finalizer (DefaultStorageClass and StorageObjectInUseProtection admission).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';

let api: RunningApiserver;
const k = (args: string[], input?: string) => kubectlOk(api.kubeconfig, args, input === undefined ? {} : { input });

const CLASSES = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: example.com/disk
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: example.com/disk
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
`;

const VOLUME = `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  storageClassName: slow
  hostPath: {path: /data/pv1}
`;

const CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

describe('storage through kubectl', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    await kubectl(api.kubeconfig, ['create', 'namespace', 'default']);
  });
  after(async () => {
    await api?.stop();
  });

  it('storage classes: create, get marks the default, apply, delete', async () => {
    assert.match(await k(['create', '-f', '-'], CLASSES), /storageclass.storage.k8s.io\/standard created/);
    const table = await k(['get', 'sc']);
    assert.match(table, /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$/m);
    assert.match(table, /^slow\s+example\.com\/disk\s+Retain\s+WaitForFirstConsumer\s+false\s+\S+$/m);
    assert.match(table, /^standard \(default\)\s+example\.com\/disk\s+Delete\s+Immediate\s+false\s+\S+$/m);
    assert.match(await k(['apply', '-f', '-'], CLASSES.replace('provisioner: example.com/disk\n---', 'provisioner: example.com/disk\nallowVolumeExpansion: true\n---')), /standard configured/);
    assert.equal(await k(['get', 'storageclass', 'standard', '-o', 'jsonpath={.allowVolumeExpansion}']), 'true');
    // provisioner is fixed once created.
    const r = await kubectl(api.kubeconfig, ['apply', '-f', '-'], { input: CLASSES.replace('provisioner: example.com/disk\n---', 'provisioner: example.com/other\n---') });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /provisioner: Forbidden: updates to provisioner are forbidden\./);
  });

  it('persistent volumes: create with defaults and the protection finalizer, get, apply, explain', async () => {
    assert.match(await k(['apply', '-f', '-'], VOLUME), /persistentvolume\/pv1 created/);
    const pv = JSON.parse(await k(['get', 'pv', 'pv1', '-o', 'json'])) as { metadata: { finalizers: string[] }; spec: Record<string, unknown>; status: Record<string, unknown> };
    assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection']);
    assert.equal(pv.spec.persistentVolumeReclaimPolicy, 'Retain');
    assert.equal(pv.spec.volumeMode, 'Filesystem');
    assert.equal(pv.status.phase, 'Pending');
    const table = await k(['get', 'pv', '-o', 'wide']);
    assert.match(table, /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE\s+VOLUMEMODE$/m);
    assert.match(table, /^pv1\s+2Gi\s+RWO,ROX\s+Retain\s+Pending\s+slow\s+<unset>\s+\S+\s+Filesystem$/m);
    assert.match(await k(['apply', '-f', '-'], VOLUME.replace('storageClassName: slow', 'storageClassName: slow\n  mountOptions: [ro]')), /persistentvolume\/pv1 configured/);
    const moved = await kubectl(api.kubeconfig, ['apply', '-f', '-'], { input: VOLUME.replace('/data/pv1', '/data/elsewhere') });
    assert.match(moved.stderr, /spec\.persistentvolumesource: Forbidden: spec\.persistentvolumesource is immutable after creation/);
    const explained = await k(['explain', 'pv.spec']);
    assert.match(explained, /persistentVolumeReclaimPolicy/);
    assert.match(explained, /csi\s+<CSIPersistentVolumeSource>/);
  });

  it('a claim without a class gets the default class and the protection finalizer; its spec is fixed while pending', async () => {
    assert.match(await k(['create', '-f', '-'], CLAIM), /persistentvolumeclaim\/data created/);
    const pvc = JSON.parse(await k(['get', 'pvc', 'data', '-n', 'default', '-o', 'json'])) as { metadata: { finalizers: string[] }; spec: Record<string, unknown>; status: Record<string, unknown> };
    assert.equal(pvc.spec.storageClassName, 'standard');
    assert.deepEqual(pvc.metadata.finalizers, ['kubernetes.io/pvc-protection']);
    assert.equal(pvc.spec.volumeMode, 'Filesystem');
    assert.equal(pvc.status.phase, 'Pending');
    const table = await k(['get', 'pvc', '-n', 'default']);
    assert.match(table, /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE$/m);
    assert.match(table, /^data\s+Pending\s+standard\s+<unset>\s+\S+$/m);
    const grown = await kubectl(api.kubeconfig, ['apply', '-f', '-'], { input: CLAIM.replace('storage: 1Gi', 'storage: 2Gi') });
    assert.match(grown.stderr, /spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/);
    // An explicit "" asks for no class.
    await k(['create', '-f', '-'], CLAIM.replace('name: data', 'name: none').replace('accessModes', 'storageClassName: ""\n  accessModes'));
    assert.equal(await k(['get', 'pvc', 'none', '-n', 'default', '-o', 'jsonpath={.spec.storageClassName}']), '');
    assert.match(await k(['explain', 'pvc.spec']), /storageClassName/);
  });

  it('deletes: claims and volumes wait for their protection finalizers to be removed', async () => {
    await k(['delete', 'pvc', 'data', '-n', 'default', '--wait=false']);
    assert.match(await k(['get', 'pvc', 'data', '-n', 'default']), /^data\s+Terminating\s/m);
    await k(['patch', 'pvc', 'data', '-n', 'default', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await k(['delete', 'pv', 'pv1', '--wait=false']);
    await k(['patch', 'pv', 'pv1', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await k(['delete', 'pvc', 'none', '-n', 'default', '--wait=false']);
    await k(['patch', 'pvc', 'none', '-n', 'default', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await k(['delete', 'sc', 'standard', 'slow']);
    assert.equal((await k(['get', 'pv,sc', '-o', 'name'])).trim(), '');
    assert.equal((await k(['get', 'pvc', '-n', 'default', '-o', 'name'])).trim(), '');
  });
});
