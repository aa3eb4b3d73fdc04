// core/v1 ResourceQuota: ValidateResourceQuota(Update/StatusUpdate) with Kubernetes' paths and
// messages, status reset on spec writes and spec reset on status writes, `kubectl get quota` cells.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../../api/schema/kind.js';
import type { StructType } from '../../../../api/schema/dsl.js';
import { ComponentStatus, LimitRange, ResourceQuota } from '../../../../api/core/v1/resourcequota.js';
import { protoProblems, unwrapEnvelope } from '../../../../api/round-trip.testutil.js';
import { decodeProtobuf, encodeProtobuf } from '../../../../machinery/codec/index.js';
import { printerOf } from '../../index.js';
import { create, ctxFor, kindOf, lines, strategyFor, update } from '../../kinds.testutil.js';
import { validateResourceQuotaStatusUpdate } from './validation.js';

const quota = (spec: KubeObject, status?: KubeObject): KubeObject => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec, ...(status ? { status } : {}) });
const errorsOf = (spec: KubeObject) => lines(create(quota(spec)).errors);

test('valid quotas: standard and qualified names, scopes that fit the resources, scope selectors', () => {
  assert.deepEqual(errorsOf({ hard: { pods: '10', 'requests.cpu': '1', 'limits.memory': '1Gi', 'count/deployments.apps': '3', 'example.com/foo': '2', 'requests.hugepages-2Mi': '1Gi' } }), []);
  assert.deepEqual(errorsOf({ hard: { pods: '1', cpu: '1' }, scopes: ['Terminating', 'NotBestEffort'] }), []);
  assert.deepEqual(errorsOf({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }), []);
});

test('invalid quotas: Kubernetes field paths and messages', () => {
  assert.deepEqual(errorsOf({ hard: { foo: '1' } }), ['spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified', 'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota']);
  assert.deepEqual(errorsOf({ hard: { storage: '1' } }), ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']);
  assert.deepEqual(errorsOf({ hard: { pods: '-1' } }), ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0']);
  assert.match(errorsOf({ hard: { pods: '1.5' } })[0]!, /^spec\.hard\[pods\]: Invalid value: resource\.Quantity\{.*\}: must be an integer$/);
  assert.deepEqual(errorsOf({ hard: { services: '1' }, scopes: ['BestEffort'] }), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource']);
  assert.deepEqual(errorsOf({ hard: { pods: '1' }, scopes: ['Foo'] }), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Foo"}: unsupported scope']);
  assert.deepEqual(errorsOf({ hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort'] }), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes']);
  assert.deepEqual(errorsOf({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'Terminating', operator: 'In', values: ['x'] }] } }), [
    "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
  ]);
  assert.deepEqual(errorsOf({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] } }), [
    "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
  ]);
  assert.deepEqual(errorsOf({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Exists', values: ['a'] }] } }), [
    'spec.scopeSelector.matchExpressions.values: Invalid value: []string{"a"}: must be no value when `operator` is \'Exist\' or \'DoesNotExist\' for scope selector',
  ]);
  assert.deepEqual(errorsOf({ hard: { configmaps: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Exists' }] } }), [
    'spec.scopeSelector.matchExpressions: Invalid value: core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{core.ScopedResourceSelectorRequirement{ScopeName:"PriorityClass", Operator:"Exists", Values:[]string(nil)}}}: unsupported scope applied to resource',
  ]);
  assert.deepEqual(errorsOf({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Gt', values: ['1'] }] } }), [
    'spec.scopeSelector.matchExpressions.operator: Invalid value: "Gt": not a valid selector operator',
  ]);
});

test('status is reset on create and kept on spec updates; scopes are immutable', () => {
  const { obj } = create(quota({ hard: { pods: '1' } }, { hard: { pods: '1' }, used: { pods: '1' } }));
  assert.deepEqual(obj.status, {});
  const old = { ...obj, metadata: { ...(obj.metadata as KubeObject), resourceVersion: '5' }, status: { hard: { pods: '1' }, used: { pods: '0' } } };
  const next = update({ ...old, spec: { hard: { pods: '2' } }, status: { used: { pods: '9' } } }, old);
  assert.deepEqual(next.errors, []);
  assert.deepEqual(next.obj.status, { hard: { pods: '1' }, used: { pods: '0' } });
  assert.deepEqual(lines(update({ ...old, spec: { hard: { pods: '1' }, scopes: ['Terminating'] } }, old).errors), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating"}: field is immutable']);
});

test('status writes keep the spec and validate the status lists', () => {
  const old = { ...quota({ hard: { pods: '1' } }), metadata: { name: 'q', namespace: 'ns', resourceVersion: '5' } };
  const status = strategyFor('', 'resourcequotas');
  const next = { ...old, spec: { hard: { pods: '100' } }, status: { hard: { pods: '1' }, used: { pods: '1' } } };
  status.prepareForStatusUpdate!(next, old, ctxFor(kindOf(old)));
  assert.deepEqual(next.spec, { hard: { pods: '1' } });
  assert.deepEqual(lines(validateResourceQuotaStatusUpdate({ ...next, status: { used: { bogus: '-1' } } } as never)), [
    'status.used[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified',
    'status.used[bogus]: Invalid value: "bogus": must be a standard resource for quota',
    'status.used[bogus]: Invalid value: "-1": must be greater than or equal to 0',
  ]);
  assert.deepEqual(lines(validateResourceQuotaStatusUpdate({ ...next, metadata: { name: 'q' } } as never)), ['resourceVersion: Required value']);
});

test('kubectl get quota: NAME AGE REQUEST LIMIT, `<resource>: <used>/<hard>` from status, limits.* in LIMIT', () => {
  const q = quota({}, { hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '2Gi', 'limits.cpu': '4' }, used: { pods: '1', 'limits.cpu': '500m' } });
  const printer = printerOf(kindOf(q));
  assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Age', 'Request', 'Limit']);
  const cells = printer.cells({ ...q, metadata: { name: 'q', creationTimestamp: '2026-01-01T00:00:00Z' } }, Date.parse('2026-01-01T00:05:00Z'));
  assert.deepEqual(cells, ['q', '5m', 'pods: 1/10, requests.cpu: 0/2', 'limits.cpu: 500m/4, limits.memory: 0/2Gi']);
});

test('protobuf round trip of a ResourceQuota, a LimitRange and a ComponentStatus, field numbers as generated.proto declares them', () => {
  const objects: Array<[StructType, KubeObject]> = [
    [ResourceQuota, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { hard: { pods: '10', 'requests.cpu': '1500m' }, scopes: ['NotTerminating'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }, status: { hard: { pods: '10' }, used: { pods: '3' } } }],
    [LimitRange, { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '100m' }, default: { cpu: '1' }, defaultRequest: { cpu: '500m' }, maxLimitRequestRatio: { cpu: '4' } }] } }],
    [ComponentStatus, { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'etcd-0', creationTimestamp: '2026-01-01T00:00:00Z' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok', error: 'none' }] }],
  ];
  for (const [type, obj] of objects) {
    const bytes = encodeProtobuf(obj, type);
    assert.deepEqual(protoProblems(type, unwrapEnvelope(bytes), (s) => s.name.startsWith('io.k8s.api.core.v1.')), [], type.name);
    assert.deepEqual(decodeProtobuf(bytes, type).object, obj, type.name);
  }
  assert.deepEqual([ResourceQuota.fields.spec.tag, ResourceQuota.fields.status.tag, ResourceQuotaSpecTags()], [2, 3, [1, 2, 3]]);
});

function ResourceQuotaSpecTags(): number[] {
  const spec = ResourceQuota.fields.spec.type as StructType;
  return ['hard', 'scopes', 'scopeSelector'].map((f) => spec.fields[f]!.tag);
}

test('a hard request above the hard limit warns on create (WarningsOnCreate), not on update', () => {
  const q = quota({ hard: { cpu: '2', 'limits.cpu': '1', 'requests.memory': '1Gi', 'limits.memory': '2Gi', 'requests.storage': '10Gi', 'limits.storage': '5Gi' } });
  const strategy = strategyFor('', 'resourcequotas');
  assert.deepEqual(strategy.warnings!(q, undefined), ['ResourceQuota cpu (2) should be less than limits.cpu (1)', 'ResourceQuota requests.storage (10Gi) should be less than limits.storage (5Gi)']);
  assert.deepEqual(strategy.warnings!(q, q), []);
});
