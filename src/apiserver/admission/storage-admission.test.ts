// DefaultStorageClass and StorageObjectInUseProtection: which writes they touch and what they set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../api/kinds.js';
import { finalizersOf, nameOf } from '../../api/meta/object.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { DefaultStorageClass, defaultClassOf } from './default-storage-class.js';
import { PersistentVolumeClaimResize } from './pvc-resize.js';
import { StorageObjectInUseProtection } from './storage-object-in-use-protection.js';
import type { AdmissionAttributes, Operation } from './types.js';

function write(resource: string, object: KubeObject, operation: Operation = 'CREATE', subresource = ''): AdmissionAttributes {
  const kind = findResource('', 'v1', resource) as KindVersion;
  const namespace = kind.namespaced ? 'ns' : '';
  return { operation, kind, group: '', resource, subresource, namespace, name: '', object, user: { name: 'u', groups: [] }, dryRun: false };
}

const sc = (name: string, created: string, annotations: Record<string, string> = {}): KubeObject => ({
  metadata: { name, creationTimestamp: created, annotations },
  provisioner: 'example.com/p',
});
const DEFAULT = { 'storageclass.kubernetes.io/is-default-class': 'true' };
const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject => ({
  metadata: { name: 'c', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

describe('DefaultStorageClass', () => {
  const classes = [
    sc('old-default', '2024-01-01T00:00:00Z', DEFAULT),
    sc('plain', '2025-06-01T00:00:00Z'),
    sc('new-default', '2025-01-01T00:00:00Z', DEFAULT),
    sc('beta-default', '2025-01-01T00:00:00Z', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }),
    sc('not-quite', '2026-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'True' }),
  ];
  const plugin = new DefaultStorageClass({ list: async () => classes });

  it('picks the newest default class, the first name among equally new ones; "True" is not "true"', () => {
    assert.equal(nameOf(defaultClassOf(classes) ?? {}), 'beta-default');
    assert.equal(nameOf(defaultClassOf(classes.slice(0, 3)) ?? {}), 'new-default');
    assert.equal(defaultClassOf([sc('plain', '2025-06-01T00:00:00Z')]), undefined);
  });

  it('gives a claim without a class the default class', async () => {
    const pvc = claim();
    await plugin.admit(write('persistentvolumeclaims', pvc));
    assert.equal((pvc.spec as { storageClassName?: string }).storageClassName, 'beta-default');
  });

  it('leaves claims that name a class (even "" or by the beta annotation), updates and other resources alone', async () => {
    for (const [pvc, want] of [
      [claim({ storageClassName: '' }), ''],
      [claim({ storageClassName: 'plain' }), 'plain'],
      [claim({}, { 'volume.beta.kubernetes.io/storage-class': 'plain' }), undefined],
    ] as const) {
      await plugin.admit(write('persistentvolumeclaims', pvc));
      assert.equal((pvc.spec as { storageClassName?: string }).storageClassName, want);
    }
    const updated = claim();
    await plugin.admit(write('persistentvolumeclaims', updated, 'UPDATE'));
    assert.equal((updated.spec as { storageClassName?: string }).storageClassName, undefined);
    const none = new DefaultStorageClass({ list: async () => [sc('plain', '2025-06-01T00:00:00Z')] });
    const pvc = claim();
    await none.admit(write('persistentvolumeclaims', pvc));
    assert.equal((pvc.spec as { storageClassName?: string }).storageClassName, undefined);
  });
});

describe('StorageObjectInUseProtection', () => {
  const plugin = new StorageObjectInUseProtection();

  it('adds the PVC and PV protection finalizers on create, once', () => {
    const pvc = claim();
    plugin.admit(write('persistentvolumeclaims', pvc));
    assert.deepEqual(finalizersOf(pvc), ['kubernetes.io/pvc-protection']);
    plugin.admit(write('persistentvolumeclaims', pvc));
    assert.deepEqual(finalizersOf(pvc), ['kubernetes.io/pvc-protection']);
    const pv: KubeObject = { metadata: { name: 'v', finalizers: ['example.com/keep'] }, spec: {} };
    plugin.admit(write('persistentvolumes', pv));
    assert.deepEqual(finalizersOf(pv), ['example.com/keep', 'kubernetes.io/pv-protection']);
  });

  it('does not touch updates, status writes or other kinds', () => {
    const updated = claim();
    plugin.admit(write('persistentvolumeclaims', updated, 'UPDATE'));
    const status = claim();
    plugin.admit(write('persistentvolumeclaims', status, 'CREATE', 'status'));
    const cm: KubeObject = { metadata: { name: 'cm' } };
    plugin.admit(write('configmaps', cm));
    for (const o of [updated, status, cm]) assert.deepEqual(finalizersOf(o), []);
  });
});

describe('PersistentVolumeClaimResize', () => {
  const classes: Record<string, KubeObject> = {
    grow: { metadata: { name: 'grow' }, provisioner: 'csi.example.com', allowVolumeExpansion: true },
    fixed: { metadata: { name: 'fixed' }, provisioner: 'csi.example.com' },
  };
  const volumes: Record<string, KubeObject> = {
    'pv-csi': { metadata: { name: 'pv-csi' }, spec: { csi: { driver: 'csi.example.com', volumeHandle: 'h' } } },
    'pv-host': { metadata: { name: 'pv-host' }, spec: { hostPath: { path: '/x' } } },
  };
  const lookup = (m: Record<string, KubeObject>) => ({ get: async (name: string) => m[name], list: async () => Object.values(m) });
  const plugin = new PersistentVolumeClaimResize(lookup(volumes) as never, lookup(classes) as never);
  const pvc = (size: string, o: { cls?: string; pv?: string; phase?: string } = {}): KubeObject => ({
    metadata: { name: 'data', namespace: 'ns' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, storageClassName: o.cls ?? 'grow', volumeName: o.pv ?? 'pv-csi' },
    status: { phase: o.phase ?? 'Bound' },
  });
  const update = (next: KubeObject, old: KubeObject): AdmissionAttributes => ({ ...write('persistentvolumeclaims', next, 'UPDATE'), namespace: 'ns', name: 'data', oldObject: old });
  const refusal = async (next: KubeObject, old: KubeObject) => {
    try {
      await plugin.validate(update(next, old));
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('lets a bound claim of an expandable class on a CSI volume grow; refuses the rest with Kubernetes messages', async () => {
    const cases: [KubeObject, KubeObject, string | undefined][] = [
      [pvc('2Gi'), pvc('1Gi'), undefined],
      [pvc('1Gi'), pvc('2Gi'), undefined], // not growing: other rules apply
      [pvc('2Gi', { phase: 'Pending' }), pvc('1Gi', { phase: 'Pending' }), 'persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded'],
      [pvc('2Gi', { cls: 'fixed' }), pvc('1Gi', { cls: 'fixed' }), 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize'],
      [pvc('2Gi', { pv: 'gone' }), pvc('1Gi', { pv: 'gone' }), 'persistentvolumeclaims "data" is forbidden: Error updating persistent volume claim because fetching associated persistent volume failed'],
      [pvc('2Gi', { pv: 'pv-host' }), pvc('1Gi', { pv: 'pv-host' }), 'persistentvolumeclaims "data" is forbidden: volume plugin does not support resize'],
    ];
    for (const [next, old, want] of cases) assert.equal(await refusal(next, old), want);
  });
});
