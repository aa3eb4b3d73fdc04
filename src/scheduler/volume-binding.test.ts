import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameOf, namespaceOf } from '../api/meta/object.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../api/types.js';
import type { KubeObject, Lister } from '../client/types.js';
import { ERR_BIND_CONFLICT, ERR_NODE_CONFLICT, ERR_PV_NOT_EXIST, ERR_UNBOUND_IMMEDIATE, findPodVolumes, volumePreFilter, type VolumeListers } from './volume-binding.js';

function lister(objs: KubeObject[]): Lister {
  const key = (o: KubeObject) => `${namespaceOf(o)}/${nameOf(o)}`;
  return {
    get: (ns, name) => objs.find((o) => key(o) === `${ns}/${name}`),
    list: () => objs,
    byIndex: () => [],
  };
}
const listers = (claims: PersistentVolumeClaim[], volumes: PersistentVolume[], classes: StorageClass[]): VolumeListers => ({
  claims: lister(claims as KubeObject[]),
  volumes: lister(volumes as KubeObject[]),
  classes: lister(classes as KubeObject[]),
});
const cls = (name: string, mode: string, provisioner = 'kubernetes.io/host-path', allowedTopologies?: StorageClass['allowedTopologies']): StorageClass => ({ metadata: { name }, provisioner, volumeBindingMode: mode, ...(allowedTopologies ? { allowedTopologies } : {}) });
const pvc = (name: string, o: { cls?: string; volumeName?: string; size?: string; deleting?: boolean; owner?: string } = {}): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}), ...(o.owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: o.owner, controller: true }] } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: o.size ?? '1Gi' } }, storageClassName: o.cls ?? 'wffc', ...(o.volumeName ? { volumeName: o.volumeName } : {}) },
});
const onNode = (n: string) => ({ required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [n] }] }] } });
const pv = (name: string, o: { size?: string; cls?: string; node?: string } = {}): PersistentVolume => ({
  metadata: { name },
  spec: { capacity: { storage: o.size ?? '1Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: o.cls ?? 'wffc', ...(o.node ? { nodeAffinity: onNode(o.node) } : {}) },
  status: { phase: 'Available' },
});
const pod = (volumes: NonNullable<Pod['spec']>['volumes']): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid' }, spec: { containers: [{ name: 'c' }], volumes } });
const uses = (...claims: string[]) => pod(claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })));
const node = (name: string, labels: Record<string, string> = {}) => ({ name, labels: { 'kubernetes.io/hostname': name, ...labels } });
const classes = [cls('wffc', 'WaitForFirstConsumer'), cls('now', 'Immediate'), cls('static', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner'), cls('zoned', 'WaitForFirstConsumer', 'kubernetes.io/host-path', [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }])];

test('PreFilter: missing, deleting, not owned ephemeral and unbound Immediate claims make the pod unschedulable', () => {
  const l = listers([pvc('gone', { deleting: true }), pvc('imm', { cls: 'now' }), pvc('p-eph', { owner: 'someone-else' }), pvc('ok')], [], classes);
  const cases: [Pod, string | undefined][] = [
    [uses('nope'), 'persistentvolumeclaim "nope" not found'],
    [uses('gone'), 'persistentvolumeclaim "gone" is being deleted'],
    [uses('ok', 'imm'), ERR_UNBOUND_IMMEDIATE],
    [pod([{ name: 'eph', ephemeral: { volumeClaimTemplate: { spec: {} } } }]), 'PVC ns/p-eph was not created for pod ns/p (pod is not owner)'],
    [uses('ok'), undefined],
    [pod([{ name: 'x', emptyDir: {} }]), undefined],
  ];
  for (const [p, want] of cases) assert.equal(volumePreFilter(p, l).error, want, JSON.stringify(p.spec?.volumes));
  assert.equal(volumePreFilter(pod([{ name: 'x', emptyDir: {} }]), l).volumes, undefined);
  assert.equal(volumePreFilter(uses('ok'), l).volumes?.toBind.length, 1);
});

test('Filter: bound volumes must admit the node; unbound WaitForFirstConsumer claims need a volume there or a provisioner allowed there', () => {
  const volumes = [pv('on-a', { node: 'a', cls: 'static' }), pv('bound-b', { node: 'b' })];
  const l = listers([pvc('s', { cls: 'static' }), pvc('b', { volumeName: 'bound-b' }), pvc('lost', { volumeName: 'missing' }), pvc('w'), pvc('z', { cls: 'zoned' })], volumes, classes);
  const reasons = (p: Pod, n: ReturnType<typeof node>, reserved: Set<string> = new Set()) => findPodVolumes(volumePreFilter(p, l).volumes!, n, volumes, reserved).reasons;
  assert.deepEqual(reasons(uses('s'), node('a')), []);
  assert.deepEqual(reasons(uses('s'), node('b')), [ERR_BIND_CONFLICT]);
  assert.deepEqual(reasons(uses('s'), node('a'), new Set(['on-a'])), [ERR_BIND_CONFLICT]);
  assert.deepEqual(reasons(uses('b'), node('a')), [ERR_NODE_CONFLICT]);
  assert.deepEqual(reasons(uses('b', 's'), node('c')), [ERR_NODE_CONFLICT, ERR_BIND_CONFLICT]);
  assert.deepEqual(reasons(uses('lost'), node('a')), [ERR_PV_NOT_EXIST]);
  assert.deepEqual(reasons(uses('w'), node('b')), []);
  assert.deepEqual(reasons(uses('z'), node('b', { zone: 'a' })), []);
  assert.deepEqual(reasons(uses('z'), node('b', { zone: 'c' })), [ERR_BIND_CONFLICT]);
  const d = findPodVolumes(volumePreFilter(uses('s', 'w'), l).volumes!, node('a'), volumes, new Set());
  assert.deepEqual(d.staticBindings.map((s) => s.volume.metadata?.name), ['on-a']);
  assert.deepEqual(d.provisions.map((c) => c.metadata?.name), ['w']);
});
