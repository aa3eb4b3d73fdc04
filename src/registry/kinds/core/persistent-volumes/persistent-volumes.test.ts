// core/v1 PersistentVolume and PersistentVolumeClaim: defaults, ValidatePersistentVolume(Claim)
// messages as kube-apiserver 1.33 renders them, the claim's update rules (resize of bound claims,
// immutability), status reset and the kubectl columns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/schema/kind.js';
import { printerOf } from '../../index.js';
import { create, edit, kindOf, lines, strategyFor, update, ctxFor } from '../../kinds.testutil.js';

const pv = (spec: Record<string, unknown>, name = 'pv1'): KubeObject => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec });
const good = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } };
const pvc = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec });
const claimSpec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
/** The first line of each error (a refused claim update appends go-cmp's diff of the specs). */
const heads = (errs: Parameters<typeof lines>[0]): string[] => lines(errs).map((l) => l.split('\n')[0]!);
const stored = (o: KubeObject, status?: Record<string, unknown>): KubeObject => {
  const { obj, errors } = create(o);
  assert.deepEqual(lines(errors), []);
  (obj.metadata as Record<string, unknown>).resourceVersion = '1';
  if (status) obj.status = status;
  return obj;
};

describe('PersistentVolume', () => {
  it('defaults reclaim policy Retain, volume mode Filesystem and the sources; starts Pending with a transition time', () => {
    const { obj, errors } = create(pv({ ...good, capacity: { storage: '1.0001' }, hostPath: { path: '/data' } }));
    assert.deepEqual(lines(errors), []);
    const spec = obj.spec as Record<string, unknown>;
    assert.equal(spec.persistentVolumeReclaimPolicy, 'Retain');
    assert.equal(spec.volumeMode, 'Filesystem');
    assert.deepEqual(spec.hostPath, { path: '/data', type: '' });
    assert.deepEqual(spec.capacity, { storage: '1001m' });
    assert.deepEqual(obj.status, { phase: 'Pending', lastPhaseTransitionTime: '2026-11-22T02:34:38Z' });
    const rbd = create(pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadOnlyMany'], rbd: { monitors: ['m'], image: 'i' } })).obj;
    assert.deepEqual((rbd.spec as Record<string, unknown>).rbd, { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
  });

  it('reports invalid volumes with Kubernetes field paths and messages', () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ capacity: { storage: '1Gi' }, hostPath: { path: '/d' } }, ['spec.accessModes: Required value']],
      [{ ...good, capacity: {} }, ['spec.capacity: Required value', 'spec.capacity: Unsupported value: core.ResourceList{}: supported values: "storage"']],
      [{ ...good, capacity: undefined }, ['spec.capacity: Required value', 'spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"']],
      [{ ...good, capacity: { storage: '0' } }, ['spec.capacity[storage]: Invalid value: "0": must be greater than zero']],
      [{ ...good, accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] }, ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']],
      [{ ...good, accessModes: ['Sometimes'] }, ['spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"']],
      [{ ...good, persistentVolumeReclaimPolicy: 'Keep' }, ['spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"']],
      [{ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] }, ['spec: Required value: must specify a volume type']],
      [{ ...good, nfs: { server: 's', path: '/e' } }, ['spec.nfs: Forbidden: may not specify more than 1 volume type']],
      [{ ...good, hostPath: undefined, cephfs: { monitors: ['m'] }, csi: { driver: 'd', volumeHandle: 'h' } }, ['spec.csi: Forbidden: may not specify more than 1 volume type']],
      [{ ...good, hostPath: undefined, local: { path: '/mnt/disk' } }, ['spec.nodeAffinity: Required value: Local volume requires node affinity']],
      [{ ...good, hostPath: undefined, local: { path: '/mnt/disk' }, nodeAffinity: {} }, ['spec.nodeAffinity.required: Required value: must specify required node constraints']],
      [
        { ...good, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' }] }] } } },
        ['spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\''],
      ],
      [{ ...good, nodeAffinity: { required: { nodeSelectorTerms: [] } } }, ['spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term']],
      [{ ...good, hostPath: { path: '//' }, persistentVolumeReclaimPolicy: 'Recycle' }, ["spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'"]],
      [{ ...good, storageClassName: 'Fast' }, ['spec.storageClassName: Invalid value: "Fast": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')']],
      [{ ...good, volumeMode: 'Raw' }, ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"']],
      // Each source's own checks.
      [{ ...good, hostPath: { path: '/a/../b' } }, ["spec.hostPath.path: Invalid value: \"/a/../b\": must not contain '..'"]],
      [{ ...good, hostPath: undefined, gcePersistentDisk: { pdName: '' } }, ['spec.persistentDisk.pdName: Required value']],
      [{ ...good, hostPath: undefined, glusterfs: { endpoints: 'ep', path: 'p', endpointsNamespace: '' } }, ['spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set, it must be a valid namespace name']],
      [{ ...good, hostPath: undefined, cinder: { volumeID: 'v', secretRef: { name: 's' } } }, ['spec.cinder.secretRef.namespace: Required value']],
      [
        { ...good, hostPath: undefined, csi: { driver: 'Disk.Example.COM', volumeHandle: '', nodeStageSecretRef: { name: 's' } } },
        ['spec.csi.volumeHandle: Required value', 'spec.csi.nodeStageSecretRef.namespace: Required value'],
      ],
      [{ ...good, hostPath: undefined, local: { path: '' }, nodeAffinity: { required: { nodeSelectorTerms: [{}] } } }, ['spec.local.path: Required value']],
    ];
    for (const [spec, want] of cases) assert.deepEqual(lines(create(pv(spec)).errors), want, JSON.stringify(spec));
  });

  it('keeps the source and volume mode, lets a CSI volume gain an expansion secret, and the claim ref change', () => {
    const old = stored(pv(good));
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.hostPath.path = '/other')), old).errors), [
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
    ]);
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.volumeMode = 'Block')), old).errors), ['volumeMode: Invalid value: "Block": field is immutable']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.claimRef = { namespace: 'ns', name: 'c' })), old).errors), []);
    const affinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } };
    const pinned = edit(old, (o) => (o.spec.nodeAffinity = affinity));
    assert.deepEqual(lines(update(pinned, old).errors), []);
    assert.deepEqual(lines(update(edit(pinned, (o) => (o.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values = ['b'])), pinned).errors), ['nodeAffinity: Invalid value: field is immutable']);
    const csi = stored(pv({ ...good, hostPath: undefined, csi: { driver: 'd', volumeHandle: 'h' } }));
    assert.deepEqual(lines(update(edit(csi, (o) => (o.spec.csi.controllerExpandSecretRef = { name: 's', namespace: 'n' })), csi).errors), []);
  });

  it('drops volumeAttributesClassName (VolumeAttributesClass is off in 1.33)', () => {
    const { obj } = create(pv({ ...good, volumeAttributesClassName: 'gold' }));
    assert.equal((obj.spec as Record<string, unknown>).volumeAttributesClassName, undefined);
  });

  it('status writes keep the spec and stamp a phase change', () => {
    const old = stored(pv(good));
    const s = strategyFor('', 'persistentvolumes');
    const next = edit(old, (o) => {
      o.spec.capacity.storage = '5Gi';
      o.status.phase = 'Available';
    });
    s.prepareForStatusUpdate!(next, old, { ...ctxFor(kindOf(old)), now: Date.parse('2026-11-23T00:00:00Z') });
    assert.deepEqual((next.spec as Record<string, any>).capacity, { storage: '1Gi' });
    assert.deepEqual(next.status, { phase: 'Available', lastPhaseTransitionTime: '2026-11-23T00:00:00Z' });
    // Same phase, time cleared: the old time is kept; a writer's own time on a change is kept.
    const same = edit(old, (o) => (o.status = { phase: 'Pending', message: 'waiting' }));
    s.prepareForStatusUpdate!(same, old, ctxFor(kindOf(old)));
    assert.deepEqual(same.status, { phase: 'Pending', message: 'waiting', lastPhaseTransitionTime: '2026-11-22T02:34:38Z' });
    const own = edit(old, (o) => (o.status = { phase: 'Failed', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' }));
    s.prepareForStatusUpdate!(own, old, ctxFor(kindOf(old)));
    assert.deepEqual(own.status, { phase: 'Failed', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' });
  });

  it('kubectl get pv: NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE (+VOLUMEMODE)', () => {
    const printer = printerOf(kindOf(pv(good)));
    assert.deepEqual(printer.columns.map((c) => `${c.name}${c.priority ? '*' : ''}`), [
      'Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode*',
    ]);
    const bound = edit(stored(pv({ ...good, storageClassName: 'fast', claimRef: { namespace: 'ns', name: 'data' } })), (o) => {
      // Printed in kubectl's fixed order whatever the stored order (a mix validation would refuse).
      o.spec.accessModes = ['ReadWriteOncePod', 'ReadWriteOnce', 'ReadOnlyMany'];
      o.metadata.creationTimestamp = '2026-11-22T02:00:00Z';
      o.status.phase = 'Bound';
    });
    assert.deepEqual(printer.cells(bound, Date.parse('2026-11-22T03:00:00Z')), ['pv1', '1Gi', 'RWO,ROX,RWOP', 'Retain', 'Bound', 'ns/data', 'fast', '<unset>', '', '60m', 'Filesystem']);
    const beta = edit(bound, (o) => {
      o.metadata.annotations = { 'volume.beta.kubernetes.io/storage-class': 'old' };
      o.metadata.deletionTimestamp = '2026-11-22T02:59:00Z';
    });
    const cells = printer.cells(beta, Date.parse('2026-11-22T03:00:00Z'));
    assert.equal(cells[4], 'Terminating');
    assert.equal(cells[6], 'old');
  });
});

describe('PersistentVolumeClaim', () => {
  it('defaults volume mode Filesystem and rounds requests; status starts Pending', () => {
    const { obj, errors } = create(pvc({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5Gi' } } }));
    assert.deepEqual(lines(errors), []);
    assert.equal((obj.spec as Record<string, unknown>).volumeMode, 'Filesystem');
    assert.deepEqual(obj.status, { phase: 'Pending' });
    const given = create({ ...pvc(claimSpec), status: { phase: 'Bound', capacity: { storage: '1Gi' } } }).obj;
    assert.deepEqual(given.status, { phase: 'Pending' });
  });

  it('a data source given one way is filled in the other (AnyVolumeDataSource), unless it is in another namespace', () => {
    const snap = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' };
    const spec = (o: KubeObject) => o.spec as Record<string, unknown>;
    assert.deepEqual(spec(create(pvc({ ...claimSpec, dataSource: snap })).obj).dataSourceRef, snap);
    assert.deepEqual(spec(create(pvc({ ...claimSpec, dataSourceRef: snap })).obj).dataSource, snap);
    assert.equal(spec(create(pvc({ ...claimSpec, dataSourceRef: { ...snap, namespace: 'other' } })).obj).dataSource, undefined);
  });

  it('reports invalid claims with Kubernetes field paths and messages', () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ resources: { requests: { storage: '1Gi' } } }, ['spec.accessModes: Required value: at least 1 access mode is required']],
      [{ accessModes: ['ReadWriteOnce'] }, ['spec.resources[storage]: Required value']],
      [{ ...claimSpec, resources: { requests: { storage: '0' } } }, ['spec.resources[storage]: Invalid value: "0": must be greater than zero']],
      [{ ...claimSpec, accessModes: ['ReadWriteOncePod', 'ReadWriteMany'] }, ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']],
      [{ ...claimSpec, volumeMode: 'Raw' }, ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"']],
      // Normalized before validation: the copy in dataSourceRef is reported too.
      [{ ...claimSpec, dataSource: { kind: 'VolumeSnapshot', name: '' } }, [
        'spec.dataSource.name: Required value',
        'spec.dataSource: Invalid value: "VolumeSnapshot": must be \'PersistentVolumeClaim\' when referencing the default apiGroup',
        'spec.dataSourceRef.name: Required value',
        'spec.dataSourceRef: Invalid value: "VolumeSnapshot": must be \'PersistentVolumeClaim\' when referencing the default apiGroup',
      ]],
      [
        { ...claimSpec, dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } },
        ['spec: Invalid value: spec.dataSource: must match dataSourceRef'],
      ],
      [{ ...claimSpec, dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's', namespace: 'Other' } }, [
        "spec.dataSourceRef.namespace: Invalid value: \"Other\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ]],
    ];
    for (const [spec, want] of cases) assert.deepEqual(lines(create(pvc(spec)).errors), want, JSON.stringify(spec));
  });

  it('spec is immutable but for volumeName once and a bound claim\'s storage request', () => {
    const pending = stored(pvc(claimSpec));
    const immutable = 'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';
    assert.deepEqual(heads(update(edit(pending, (o) => (o.spec.resources.requests.storage = '2Gi')), pending).errors), [immutable]);
    const modes = lines(update(edit(pending, (o) => (o.spec.accessModes = ['ReadWriteMany'])), pending).errors);
    assert.deepEqual(modes, [
      `${immutable}\n` +
        '  core.PersistentVolumeClaimSpec{\n' +
        '- \tAccessModes: []core.PersistentVolumeAccessMode{\n' +
        '- \t\t"ReadWriteOnce",\n' +
        '- \t},\n' +
        '+ \tAccessModes: []core.PersistentVolumeAccessMode{\n' +
        '+ \t\t"ReadWriteMany",\n' +
        '+ \t},\n' +
        '  \tSelector:  nil,\n' +
        '  \tResources: {Requests: {s"storage": {i: {...}, s: "1Gi", Format: "BinarySI"}}},\n' +
        '  \t... // 6 identical fields\n' +
        '  }\n',
    ]);
    assert.deepEqual(heads(update(edit(pending, (o) => (o.spec.volumeName = 'pv1')), pending).errors), []);
    const named = edit(pending, (o) => (o.spec.volumeName = 'pv1'));
    assert.deepEqual(heads(update(edit(named, (o) => (o.spec.volumeName = 'pv2')), named).errors), [immutable]);
    // The DefaultStorageClass controller may give a classless claim a class afterwards.
    assert.deepEqual(heads(update(edit(pending, (o) => (o.spec.storageClassName = 'fast')), pending).errors), []);
    const classed = edit(pending, (o) => (o.spec.storageClassName = 'fast'));
    assert.deepEqual(heads(update(edit(classed, (o) => (o.spec.storageClassName = 'slow')), classed).errors), [immutable]);
    assert.deepEqual(heads(update(edit(pending, (o) => (o.spec.volumeMode = 'Block')), pending).errors), [immutable, 'volumeMode: Invalid value: "Block": field is immutable']);
  });

  it('a bound claim may grow, and shrink only above its status capacity (RecoverVolumeExpansionFailure)', () => {
    const bound = stored(pvc({ ...claimSpec, resources: { requests: { storage: '2Gi' } } }), { phase: 'Bound', capacity: { storage: '1Gi' } });
    assert.deepEqual(heads(update(edit(bound, (o) => (o.spec.resources.requests.storage = '5Gi')), bound).errors), []);
    assert.deepEqual(heads(update(edit(bound, (o) => (o.spec.resources.requests.storage = '1500Mi')), bound).errors), []);
    assert.deepEqual(heads(update(edit(bound, (o) => (o.spec.resources.requests.storage = '1Gi')), bound).errors), [
      'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    ]);
    assert.deepEqual(heads(update(edit(bound, (o) => (o.spec.resources.limits = { storage: '9Gi' })), bound).errors), [
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ]);
  });

  it('volumeAttributesClassName cannot be set while VolumeAttributesClass is off', () => {
    const old = stored(pvc(claimSpec));
    const { obj, errors } = update(edit(old, (o) => (o.spec.volumeAttributesClassName = 'gold')), old);
    assert.deepEqual(lines(errors), []);
    assert.equal((obj.spec as Record<string, unknown>).volumeAttributesClassName, undefined);
  });

  it('status writes keep the spec', () => {
    const old = stored(pvc(claimSpec));
    const next = edit(old, (o) => {
      o.spec.resources.requests.storage = '9Gi';
      o.status = { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] };
    });
    strategyFor('', 'persistentvolumeclaims').prepareForStatusUpdate!(next, old, ctxFor(kindOf(old)));
    assert.deepEqual((next.spec as Record<string, any>).resources, { requests: { storage: '1Gi' } });
    assert.equal((next.status as Record<string, unknown>).phase, 'Bound');
    const s = strategyFor('', 'persistentvolumeclaims');
    const negative = edit(old, (o) => (o.status = { phase: 'Bound', capacity: { storage: '-2' } }));
    assert.deepEqual(lines(s.validateStatusUpdate!(negative, old, ctxFor(kindOf(old)))), ['status.capacity[storage]: Invalid value: -2: must be a valid resource quantity']);
  });

  it('kubectl get pvc: NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE (+VOLUMEMODE)', () => {
    const printer = printerOf(kindOf(pvc(claimSpec)));
    assert.deepEqual(printer.columns.map((c) => `${c.name}${c.priority ? '*' : ''}`), [
      'Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode*',
    ]);
    const now = Date.parse('2026-11-22T03:00:00Z');
    const pending = edit(stored(pvc({ ...claimSpec, storageClassName: 'fast' })), (o) => (o.metadata.creationTimestamp = '2026-11-22T02:59:30Z'));
    assert.deepEqual(printer.cells(pending, now), ['data', 'Pending', '', '', '', 'fast', '<unset>', '30s', 'Filesystem']);
    const bound = edit(pending, (o) => {
      o.spec.volumeName = 'pv1';
      o.status = { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'] };
    });
    assert.deepEqual(printer.cells(bound, now), ['data', 'Bound', 'pv1', '1Gi', 'RWO,RWX', 'fast', '<unset>', '30s', 'Filesystem']);
  });
});
