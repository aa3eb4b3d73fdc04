// DefaultStorageClass and StorageObjectInUseProtection: which writes they touch and what they set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../api/kinds.js';
import { finalizersOf, nameOf } from '../../api/meta/object.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { DefaultStorageClass, defaultClassOf } from './default-storage-class.js';
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
