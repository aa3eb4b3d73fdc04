// Each kind's field label conversion and selectable fields, as its module declares them (the
// syntax and matching are machinery/selectors' own tests).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allKinds, findKind } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { dumpBody, readJson } from '../../api/vectors.testutil.js';
import {
  SelectorError,
  convertFieldLabel as convertWith,
  parseFieldSelectorWith,
  type FieldSelector,
} from '../../machinery/selectors/index.js';
import { fieldLabelsOf, fieldsOf, moduleOf } from './index.js';
import { selectorError } from '../../machinery/selectors/selectors.testutil.js';

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

function served(gvk: GroupVersionKind): KindVersion {
  const k = findKind(gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`, gvk.kind);
  assert.ok(k, `${gvk.group}/${gvk.version} ${gvk.kind} is served`);
  return k;
}
const convertFieldLabel = (gvk: GroupVersionKind, label: string, value: string): [string, string] => convertWith(fieldLabelsOf(served(gvk)), label, value);
const parseFieldSelectorFor = (gvk: GroupVersionKind, selector: string): FieldSelector => parseFieldSelectorWith(fieldLabelsOf(served(gvk)), selector);
const supportedFieldLabels = (gvk: GroupVersionKind): readonly string[] => fieldLabelsOf(served(gvk)).labels;
/** The fields.Set of a stored object of a kind (by its storage group and kind). */
function selectableFields(gk: { group: string; kind: string }, obj: object): Record<string, string> {
  const k = allKinds.find((s) => s.storage && s.group === gk.group && s.kind === gk.kind);
  assert.ok(k, `${gk.group}/${gk.kind} is stored`);
  return fieldsOf(moduleOf(k))(obj as KubeObject);
}
function compileFieldSelector(gvk: GroupVersionKind, selector: string): (obj: object) => boolean {
  const s = parseFieldSelectorFor(gvk, selector);
  return (obj) => s.isEmpty() || s.matches(selectableFields(gvk, obj));
}

const pods = { group: '', version: 'v1', kind: 'Pod' };


test('field label conversion: errors/invalid-field-selector.txt body byte for byte', () => {
  const { status, body } = dumpBody('errors', 'invalid-field-selector.txt');
  try {
    parseFieldSelectorFor(pods, 'spec.unknownField=x');
    assert.fail('no error');
  } catch (e) {
    assert.ok(e instanceof SelectorError);
    assert.equal(e.code, status);
    assert.equal(e.toJson(), body);
  }
});

test('field label conversion per kind', () => {
  const conv = (group: string, version: string, kind: string, label: string) => () => convertFieldLabel({ group, version, kind }, label, 'v');
  assert.deepEqual(convertFieldLabel(pods, 'spec.host', 'n1'), ['spec.nodeName', 'n1']);
  assert.equal(parseFieldSelectorFor(pods, 'spec.host=n1').toString(), 'spec.nodeName=n1');
  for (const label of supportedFieldLabels(pods)) assert.deepEqual(convertFieldLabel(pods, label, 'v'), [label, 'v']);
  assert.equal(selectorError(conv('', 'v1', 'Node', 'metadata.namespace')), 'field label not supported: metadata.namespace');
  assert.deepEqual(conv('', 'v1', 'Node', 'spec.unschedulable')(), ['spec.unschedulable', 'v']);
  assert.equal(selectorError(conv('', 'v1', 'Namespace', 'metadata.namespace')), 'field label not supported: metadata.namespace');
  assert.deepEqual(conv('', 'v1', 'Secret', 'type')(), ['type', 'v']);
  assert.deepEqual(conv('', 'v1', 'Event', 'involvedObject.uid')(), ['involvedObject.uid', 'v']);
  assert.deepEqual(conv('', 'v1', 'ReplicationController', 'status.replicas')(), ['status.replicas', 'v']);
  assert.deepEqual(conv('batch', 'v1', 'Job', 'status.successful')(), ['status.successful', 'v']);
  assert.equal(selectorError(conv('batch', 'v1', 'Job', 'status.failed')), 'field label "status.failed" not supported for batchv1.Job');
  assert.equal(selectorError(conv('batch', 'v1beta1', 'CronJob', 'spec.x')), 'field label "spec.x" not supported for "CronJob"');
  assert.equal(
    selectorError(conv('apps', 'v1beta2', 'StatefulSet', 'spec.replicas')),
    'field label not supported for appsv1beta2.StatefulSet: spec.replicas',
  );
  // Kinds without a conversion of their own accept metadata.name and metadata.namespace only
  // (apps/v1 ReplicaSet included: kube-apiserver rejects status.replicas there).
  const onlyMeta = '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"';
  assert.equal(selectorError(conv('apps', 'v1', 'ReplicaSet', 'status.replicas')), onlyMeta);
  assert.deepEqual(conv('apps', 'v1', 'Deployment', 'metadata.namespace')(), ['metadata.namespace', 'v']);
  assert.equal(
    selectorError(conv('', 'v1', 'ConfigMap', 'data.a"b')),
    '"data.a\\"b" is not a known field selector: only "metadata.name", "metadata.namespace"',
  );
});

test('selectable fields of a pod (the rich pod of the vectors)', () => {
  const pod = readJson('objects', 'Pod.pb.json');
  const fields = selectableFields(pods, pod);
  assert.deepEqual(fields, {
    'metadata.name': 'pod-rich',
    'metadata.namespace': 'vectors',
    'spec.nodeName': '',
    'spec.restartPolicy': 'Always',
    'spec.schedulerName': 'default-scheduler',
    'spec.serviceAccountName': 'default',
    'spec.hostNetwork': 'false',
    'status.phase': 'Pending',
    'status.podIP': '',
    'status.nominatedNodeName': '',
  });
  const match = (sel: string) => compileFieldSelector(pods, sel)(pod);
  assert.equal(match(''), true);
  assert.equal(match('status.phase=Pending,metadata.namespace=vectors'), true);
  assert.equal(match('spec.nodeName='), true);
  assert.equal(match('spec.host=node-1'), false);
  assert.equal(match('spec.hostNetwork!=true'), true);
  // Accepted by the conversion but not computed by the registry: always "".
  assert.equal(match('status.podIPs=10.0.0.1'), false);
  assert.equal(match('status.podIPs='), true);
  const running = { ...pod, status: { phase: 'Running', podIP: '10.0.0.9', podIPs: [{ ip: '10.0.0.9' }, { ip: 'fd00::9' }] } };
  assert.equal(compileFieldSelector(pods, 'status.podIP=10.0.0.9')(running), true);
});

test('selectable fields of the other kinds', () => {
  assert.deepEqual(selectableFields({ group: '', kind: 'Node' }, { metadata: { name: 'n1' }, spec: { unschedulable: true } }), {
    'metadata.name': 'n1',
    'metadata.namespace': '',
    'spec.unschedulable': 'true',
  });
  assert.equal(selectableFields({ group: '', kind: 'Node' }, { metadata: { name: 'n1' } })['spec.unschedulable'], 'false');
  assert.equal(selectableFields({ group: '', kind: 'Secret' }, { type: 'Opaque' }).type, 'Opaque');
  assert.equal(selectableFields({ group: '', kind: 'Namespace' }, { status: { phase: 'Active' } })['status.phase'], 'Active');
  assert.equal(selectableFields({ group: 'apps', kind: 'ReplicaSet' }, { status: { replicas: 3 } })['status.replicas'], '3');
  assert.equal(selectableFields({ group: '', kind: 'ReplicationController' }, {})['status.replicas'], '0');
  assert.equal(selectableFields({ group: 'batch', kind: 'Job' }, { status: { succeeded: 2 } })['status.successful'], '2');
  const event = readJson('objects', 'Event.pb.json');
  const fields = selectableFields({ group: '', kind: 'Event' }, event);
  for (const k of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) {
    const io = event.involvedObject as Record<string, string>;
    assert.equal(fields[`involvedObject.${k}`], io[k] ?? '', k);
  }
  // source falls back to reportingComponent when source.component is empty.
  assert.equal(selectableFields({ group: '', kind: 'Event' }, { reportingComponent: 'ctl', source: {} }).source, 'ctl');
  assert.equal(selectableFields({ group: '', kind: 'Event' }, { reportingComponent: 'ctl', source: { component: 'kubelet' } }).source, 'kubelet');
  const events = { group: '', version: 'v1', kind: 'Event' };
  assert.equal(compileFieldSelector(events, `involvedObject.name=${(event.involvedObject as Record<string, string>).name}`)(event), true);
});
