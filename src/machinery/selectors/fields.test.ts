// Field selectors: fields.ParseSelector's syntax and escaping, matching, and each kind's field
// label conversion and selectable fields.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dumpBody, readJson } from '../../api/vectors.testutil.js';
import {
  FieldSelector,
  SelectorError,
  compileFieldSelector,
  convertFieldLabel,
  escapeFieldValue,
  parseFieldSelector,
  parseFieldSelectorFor,
  selectableFields,
  supportedFieldLabels,
} from './index.js';

const pods = { group: '', version: 'v1', kind: 'Pod' };

function selectorError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SelectorError, String(e));
    assert.equal(e.code, 400);
    return e.message;
  }
  return assert.fail('no error');
}

test('field selector syntax and canonical form', () => {
  const cases: Array<[string, string]> = [
    ['', ''],
    [',,', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a=b'],
    ['a!=b', 'a!=b'],
    ['b=1,a=2', 'a=2,b=1'],
    ['a=', 'a='],
    ['a=x\\,y', 'a=x\\,y'],
    ['a=x\\=y\\\\z', 'a=x\\=y\\\\z'],
    ['spec.nodeName=,status.phase!=Running', 'spec.nodeName=,status.phase!=Running'],
  ];
  for (const [input, out] of cases) assert.equal(parseFieldSelector(input).toString(), out, input);
  assert.deepEqual(parseFieldSelector('a=x\\,y').requirements, [{ field: 'a', operator: '=', value: 'x,y' }]);
  assert.deepEqual(parseFieldSelector('a=!b').requirements, [{ field: 'a', operator: '=', value: '!b' }]);
  assert.equal(escapeFieldValue('a,b=c\\'), 'a\\,b\\=c\\\\');
});

test('field selector syntax errors', () => {
  assert.equal(selectorError(() => parseFieldSelector('a')), "invalid selector: 'a'; can't understand 'a'");
  assert.equal(selectorError(() => parseFieldSelector('x=1,b')), "invalid selector: 'x=1,b'; can't understand 'b'");
  assert.equal(selectorError(() => parseFieldSelector('a=b=c')), 'invalid field selector: unescaped character in value: 61');
  assert.equal(selectorError(() => parseFieldSelector('a=\\x')), 'invalid field selector: invalid escape sequence: \\x');
  assert.equal(selectorError(() => parseFieldSelector('a=b\\')), 'invalid field selector: invalid escape sequence: \\');
});

test('field selector matching: a missing field is the empty string', () => {
  const s = parseFieldSelector('spec.nodeName=,status.phase!=Running');
  assert.equal(s.matches({ 'status.phase': 'Pending' }), true);
  assert.equal(s.matches({ 'spec.nodeName': 'n1', 'status.phase': 'Pending' }), false);
  assert.equal(s.matches({ 'status.phase': 'Running' }), false);
  assert.equal(FieldSelector.everything().matches({}), true);
  assert.equal(parseFieldSelector('metadata.name=a').requiresExactMatch('metadata.name'), 'a');
  assert.equal(parseFieldSelector('metadata.name!=a').requiresExactMatch('metadata.name'), undefined);
});

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
