// storage.k8s.io/v1: defaults, validation messages as kube-apiserver 1.33 renders them, update
// rules and the kubectl columns of StorageClass, CSIDriver, CSINode, CSIStorageCapacity and
// VolumeAttachment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, edit, kindOf, lines, strategyFor, update, ctxFor } from '../kinds.testutil.js';

const V1 = 'storage.k8s.io/v1';
const sc = (over: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: V1,
  kind: 'StorageClass',
  metadata: { name: 'fast', ...(annotations ? { annotations } : {}) },
  provisioner: 'example.com/disk',
  ...over,
});
const stored = (o: KubeObject): KubeObject => {
  const { obj, errors } = create(o);
  assert.deepEqual(lines(errors), []);
  (obj.metadata as Record<string, unknown>).resourceVersion = '1';
  return obj;
};
const NOW = Date.parse('2026-11-22T03:00:00Z');
const aged = (o: KubeObject): KubeObject => edit(o, (x) => (x.metadata.creationTimestamp = '2026-11-22T02:00:00Z'));

describe('StorageClass', () => {
  it('defaults reclaimPolicy Delete and volumeBindingMode Immediate', () => {
    const { obj } = create(sc());
    assert.equal(obj.reclaimPolicy, 'Delete');
    assert.equal(obj.volumeBindingMode, 'Immediate');
  });

  it('reports invalid classes with Kubernetes field paths and messages', () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ provisioner: '' }, ['provisioner: Required value']],
      [{ provisioner: 'bad/prov/x' }, ["provisioner: Invalid value: \"bad/prov/x\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
      [{ reclaimPolicy: 'Recycle' }, ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"']],
      [{ volumeBindingMode: 'Later' }, ['volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"']],
      [{ parameters: { '': 'x' } }, ['parameters: Invalid value: "": field can not be empty.']],
      [
        { allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }, { matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }] },
        ['allowedTopologies[1].matchLabelExpressions: Duplicate value: ""'],
      ],
      [{ allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }] }, ['allowedTopologies[0].matchLabelExpressions[0].values: Required value: must specify as least one value']],
    ];
    for (const [over, want] of cases) assert.deepEqual(lines(create(sc(over)).errors), want, JSON.stringify(over));
  });

  it('provisioner, parameters, reclaimPolicy and volumeBindingMode are fixed; other fields may change', () => {
    const old = stored(sc({ parameters: { type: 'ssd' } }));
    assert.deepEqual(lines(update(edit(old, (o) => (o.provisioner = 'example.com/other')), old).errors), ['provisioner: Forbidden: updates to provisioner are forbidden.']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.parameters.type = 'hdd')), old).errors), ['parameters: Forbidden: updates to parameters are forbidden.']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.reclaimPolicy = 'Retain')), old).errors), ['reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.volumeBindingMode = 'WaitForFirstConsumer')), old).errors), ['volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.allowVolumeExpansion = true)), old).errors), []);
  });

  it('kubectl get sc marks the default class', () => {
    const printer = printerOf(kindOf(sc()));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    assert.deepEqual(printer.cells(aged(stored(sc())), NOW), ['fast', 'example.com/disk', 'Delete', 'Immediate', false, '60m']);
    const def = aged(stored(sc({ allowVolumeExpansion: true }, { 'storageclass.kubernetes.io/is-default-class': 'true' })));
    assert.deepEqual(printer.cells(def, NOW), ['fast (default)', 'example.com/disk', 'Delete', 'Immediate', true, '60m']);
    const beta = stored(sc({}, { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }));
    assert.equal(printer.cells(beta, NOW)[0], 'fast (default)');
    assert.equal(printer.cells(stored(sc({}, { 'storageclass.kubernetes.io/is-default-class': 'yes' })), NOW)[0], 'fast');
  });
});

describe('CSIDriver', () => {
  const driver = (spec: Record<string, unknown> = {}): KubeObject => ({ apiVersion: V1, kind: 'CSIDriver', metadata: { name: 'disk.example.com' }, spec });

  it('defaults every flag Kubernetes does', () => {
    assert.deepEqual(create(driver()).obj.spec, {
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
    });
  });

  it('reports invalid drivers and the immutable fields', () => {
    assert.deepEqual(lines(create(driver({ fsGroupPolicy: 'Sometimes', volumeLifecycleModes: ['Forever'], tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }], nodeAllocatableUpdatePeriodSeconds: 5 })).errors), [
      'spec.fsGroupPolicy: Unsupported value: "Sometimes": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      'spec.tokenRequests[1].audience: Duplicate value: "a"',
      'spec.volumeLifecycleModes: Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"',
      'spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds',
    ]);
    const old = stored(driver());
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.attachRequired = false)), old).errors), ['spec.attachedRequired: Invalid value: false: field is immutable']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.podInfoOnMount = true)), old).errors), []);
  });

  it('kubectl get csidrivers', () => {
    const printer = printerOf(kindOf(driver()));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age']);
    assert.deepEqual(printer.cells(aged(stored(driver())), NOW), ['disk.example.com', true, false, false, '<unset>', false, 'Persistent', '60m']);
  });
});

describe('CSINode, CSIStorageCapacity, VolumeAttachment', () => {
  const node = (drivers: unknown[]): KubeObject => ({ apiVersion: V1, kind: 'CSINode', metadata: { name: 'n1' }, spec: { drivers } });
  const capacity = (over: Record<string, unknown>): KubeObject => ({ apiVersion: V1, kind: 'CSIStorageCapacity', metadata: { name: 'c1' }, storageClassName: 'fast', ...over });
  const attachment = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: V1, kind: 'VolumeAttachment', metadata: { name: 'va1' }, spec: { attacher: 'disk.example.com', nodeName: 'n1', ...spec } });

  it('CSINode drivers: names, node IDs, topology keys; an existing driver entry is immutable', () => {
    assert.deepEqual(lines(create(node([{ name: 'Disk_X', nodeID: '', topologyKeys: ['zone', 'zone'] }, { name: 'Disk_X', nodeID: 'x'.repeat(193), topologyKeys: [] }])).errors), [
      "spec.drivers[0].name: Invalid value: \"Disk_X\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.drivers[0].nodeID: Required value',
      'spec.drivers[0]: Duplicate value: "zone"',
      "spec.drivers[1].name: Invalid value: \"Disk_X\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      `spec.drivers[1].nodeID: Invalid value: "${'x'.repeat(193)}": must be 192 characters or less`,
      'spec.drivers[1].name: Duplicate value: "Disk_X"',
    ]);
    const old = stored(node([{ name: 'd.example.com', nodeID: 'a', topologyKeys: ['zone'] }]));
    assert.equal(lines(update(edit(old, (o) => (o.spec.drivers[0].nodeID = 'b')), old).errors)[0]?.startsWith('spec.drivers: Invalid value: '), true);
    assert.deepEqual(lines(update(edit(old, (o) => o.spec.drivers.push({ name: 'e.example.com', nodeID: 'a', topologyKeys: [] })), old).errors), []);
    assert.deepEqual(printerOf(kindOf(old)).cells(aged(old), NOW), ['n1', 1, '60m']);
  });

  it('CSIStorageCapacity: class name, non-negative capacity, immutable class and topology', () => {
    assert.deepEqual(lines(create(capacity({ capacity: '-1' })).errors), ['capacity: Invalid value: "-1": must be greater than or equal to 0']);
    const old = stored(capacity({ capacity: '10Gi' }));
    assert.deepEqual(lines(update(edit(old, (o) => (o.storageClassName = 'slow')), old).errors), ['storageClassName: Invalid value: "slow": field is immutable']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.capacity = '5Gi')), old).errors), []);
    const printer = printerOf(kindOf(old));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'StorageClassName', 'Capacity']);
    assert.deepEqual(printer.cells(old, NOW), ['c1', 'fast', '10Gi']);
  });

  it('VolumeAttachment: exactly one source, an inline spec as a CSI inline volume, a read-only spec, status reset', () => {
    assert.deepEqual(lines(create(attachment({ source: {} })).errors), ['spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
    assert.deepEqual(lines(create(attachment({ source: { persistentVolumeName: 'pv', inlineVolumeSpec: { csi: { driver: 'd', volumeHandle: 'h' } } } })).errors), [
      'spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    ]);
    assert.deepEqual(lines(create(attachment({ source: { inlineVolumeSpec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], nfs: { server: 's', path: '/e' }, storageClassName: 'x' } } })).errors), [
      'spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.storageClassName: Forbidden: may not be specified in the context of inline volumes',
    ]);
    const { obj } = create({ ...attachment({ source: { persistentVolumeName: 'pv' } }), status: { attached: true } });
    assert.deepEqual(obj.status, { attached: false });
    const old = stored(attachment({ source: { persistentVolumeName: 'pv' } }));
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.nodeName = 'n2')), old).errors), ['spec: Invalid value: field is immutable']);
    const next = edit(old, (o) => {
      o.spec.nodeName = 'n2';
      o.status = { attached: true };
    });
    strategyFor('storage.k8s.io', 'volumeattachments').prepareForStatusUpdate!(next, old, ctxFor(kindOf(old)));
    assert.equal((next.spec as Record<string, unknown>).nodeName, 'n1');
    assert.deepEqual(printerOf(kindOf(old)).cells(aged(next), NOW), ['va1', 'disk.example.com', 'pv', 'n1', true, '60m']);
  });
});
