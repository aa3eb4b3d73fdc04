// FlowSchema and PriorityLevelConfiguration: the bootstrap configuration against Kubernetes 1.33's
// (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go), validation with Kubernetes'
// paths and messages, the fixed mandatory specs, and kubectl's columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { create, edit, lines } from '../kinds.testutil.js';
import {
  AUTO_UPDATE_ANNOTATION,
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
  suggestedFlowSchemas,
  suggestedPriorityLevelConfigurations,
} from './bootstrap-configuration.js';
import { flowSchemaPrinter, flowSchemaStrategy } from './flowschema.js';
import { priorityLevelConfigurationPrinter, priorityLevelConfigurationStrategy } from './prioritylevelconfiguration.js';
import { requiredEntropyBits } from './validation.js';

const FS = 'flowcontrol.apiserver.k8s.io/v1';

test('the bootstrap levels: Kubernetes 1.33 names, types, shares, lendable percents and queuing', () => {
  const row = (pl: KubeObject) => {
    const spec = pl.spec as any;
    const q = spec.limited?.limitResponse?.queuing;
    return [(pl.metadata as any).name, spec.type, spec.limited?.nominalConcurrencyShares ?? spec.exempt?.nominalConcurrencyShares, spec.limited?.lendablePercent ?? spec.exempt?.lendablePercent, spec.limited?.limitResponse?.type ?? '', q ? `${q.queues}/${q.handSize}/${q.queueLengthLimit}` : ''];
  };
  assert.deepEqual(mandatoryPriorityLevelConfigurations.map(row), [
    ['exempt', 'Exempt', 0, 0, '', ''],
    ['catch-all', 'Limited', 5, 0, 'Reject', ''],
  ]);
  assert.deepEqual(suggestedPriorityLevelConfigurations.map(row), [
    ['system', 'Limited', 30, 33, 'Queue', '64/6/50'],
    ['node-high', 'Limited', 40, 25, 'Queue', '64/6/50'],
    ['leader-election', 'Limited', 10, 0, 'Queue', '16/4/50'],
    ['workload-high', 'Limited', 40, 50, 'Queue', '128/6/50'],
    ['workload-low', 'Limited', 100, 90, 'Queue', '128/6/50'],
    ['global-default', 'Limited', 20, 50, 'Queue', '128/6/50'],
  ]);
});

test('the bootstrap flow schemas: level, precedence, distinguisher, subjects and rules as Kubernetes 1.33 has them', () => {
  const subject = (s: any) => s.kind === 'Group' ? `group:${s.group.name}` : s.kind === 'User' ? `user:${s.user.name}` : `sa:${s.serviceAccount.namespace}/${s.serviceAccount.name}`;
  const row = (fs: KubeObject) => {
    const spec = fs.spec as any;
    const rule = spec.rules[0];
    return [
      (fs.metadata as any).name, spec.priorityLevelConfiguration.name, spec.matchingPrecedence, spec.distinguisherMethod?.type ?? '',
      rule.subjects.map(subject).join(' '),
      (rule.resourceRules ?? []).map((r: any) => `${r.verbs}|${r.apiGroups}|${r.resources}|${r.namespaces}|${r.clusterScope === true}`).join(' '),
      (rule.nonResourceRules ?? []).map((r: any) => `${r.verbs}|${r.nonResourceURLs}`).join(' '),
    ];
  };
  const everything = ['*|*|*|*|true', '*|*'] as const;
  assert.deepEqual(mandatoryFlowSchemas.map(row), [
    ['exempt', 'exempt', 1, '', 'group:system:masters', ...everything],
    ['catch-all', 'catch-all', 10000, 'ByUser', 'group:system:unauthenticated group:system:authenticated', ...everything],
  ]);
  assert.deepEqual(suggestedFlowSchemas.map(row), [
    ['system-nodes', 'system', 500, 'ByUser', 'group:system:nodes', ...everything],
    ['system-node-high', 'node-high', 400, 'ByUser', 'group:system:nodes', '*||nodes,nodes/status|*|true *|coordination.k8s.io|leases|*|false', ''],
    ['probes', 'exempt', 2, '', 'group:system:unauthenticated group:system:authenticated', '', 'get|/healthz,/readyz,/livez'],
    ['system-leader-election', 'leader-election', 100, 'ByUser', 'user:system:kube-controller-manager user:system:kube-scheduler sa:kube-system/*', 'get,create,update|coordination.k8s.io|leases|*|false', ''],
    ['workload-leader-election', 'leader-election', 200, 'ByUser', 'sa:kube-system/*', 'get,create,update||endpoints,configmaps|*|false get,create,update|coordination.k8s.io|leases|*|false', ''],
    ['endpoint-controller', 'workload-high', 150, 'ByUser', 'user:system:kube-controller-manager sa:kube-system/endpoint-controller sa:kube-system/endpointslicemirroring-controller', 'get,create,update||endpoints|*|false', ''],
    ['kube-controller-manager', 'workload-high', 800, 'ByNamespace', 'user:system:kube-controller-manager', ...everything],
    ['kube-scheduler', 'workload-high', 800, 'ByNamespace', 'user:system:kube-scheduler', ...everything],
    ['kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', 'sa:kube-system/*', ...everything],
    ['service-accounts', 'workload-low', 9000, 'ByUser', 'group:system:serviceaccounts', ...everything],
    ['global-default', 'global-default', 9900, 'ByUser', 'group:system:unauthenticated group:system:authenticated', ...everything],
  ]);
});

test('every bootstrap object carries autoupdate-spec "true", is unchanged by defaulting and valid', () => {
  for (const o of [...mandatoryPriorityLevelConfigurations, ...suggestedPriorityLevelConfigurations, ...mandatoryFlowSchemas, ...suggestedFlowSchemas] as KubeObject[]) {
    assert.equal((o.metadata as any).annotations[AUTO_UPDATE_ANNOTATION], 'true');
    const { obj, errors } = create(o);
    assert.deepEqual(lines(errors), [], (o.metadata as any).name);
    assert.deepEqual(obj.spec, o.spec, `${(o.metadata as any).name}: the defaults change nothing`);
  }
});

const fs = (spec: KubeObject, name = 'fs'): KubeObject => ({ apiVersion: FS, kind: 'FlowSchema', metadata: { name }, spec: { priorityLevelConfiguration: { name: 'pl' }, ...spec } });
const errorsOf = (o: KubeObject): string[] => lines(create(o).errors);
const rule = (r: KubeObject): KubeObject => fs({ rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }], ...r }] });
const resourceRule = (r: KubeObject): KubeObject => rule({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'], ...r }] });

test('FlowSchema validation: Kubernetes field paths and messages', () => {
  const cases: Array<[KubeObject, string[]]> = [
    [fs({ matchingPrecedence: -1 }), ['spec.matchingPrecedence: Invalid value: -1: must be a positive value']],
    [fs({ matchingPrecedence: 10001 }), ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000']],
    [fs({ matchingPrecedence: 1 }), ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"]],
    [fs({ distinguisherMethod: { type: 'ByColour' } }), ['spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByColour"}: supported values: "ByNamespace", "ByUser"']],
    [fs({ priorityLevelConfiguration: { name: '' } }), ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level']],
    [fs({ priorityLevelConfiguration: { name: 'Bad_Name' } }), [
      `spec.priorityLevelConfiguration.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]],
    [fs({ rules: [{ subjects: [] }] }), ['spec.rules[0].subjects: Required value: subjects must contain at least one value', 'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty']],
    [rule({ subjects: [{ kind: 'Robot' }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }), ['spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"']],
    [rule({ subjects: [{ kind: 'User', group: { name: 'g' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }), [
      "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
      "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
    ]],
    [rule({ subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: '' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }), [
      'spec.rules[0].subjects[0].serviceAccount.name: Required value',
      'spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
    ]],
    [resourceRule({ verbs: [] }), ['spec.rules[0].resourceRules[0].verbs: Required value: verbs must contain at least one value']],
    [resourceRule({ verbs: ['*', 'get'] }), [`spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`]],
    [resourceRule({ verbs: ['fly'] }), ['spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{"fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"']],
    [resourceRule({ apiGroups: [] }), ['spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group']],
    [resourceRule({ resources: ['*', 'pods'] }), [`spec.rules[0].resourceRules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources`]],
    [resourceRule({ namespaces: [] }), ['spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace']],
    [resourceRule({ namespaces: ['Bad'] }), [
      `spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: "Bad": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]],
    [rule({ nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['healthz', '/a b', '/a//b', '/a*', '/'] }] }), [
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash',
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a b": must not contain white-space',
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/a//b": must not contain double slash',
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[3]: Invalid value: "/a*": wildcard can only do suffix matching',
    ]],
    [rule({ nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [] }] }), ['spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value']],
  ];
  for (const [obj, want] of cases) assert.deepEqual(errorsOf(obj), want, JSON.stringify(obj.spec));
  assert.deepEqual(errorsOf(resourceRule({ namespaces: [], clusterScope: true })), []);
});

test("the mandatory flow schemas' specs are fixed", () => {
  const exempt = edit(mandatoryFlowSchemas[0]! as KubeObject, (o) => (o.spec.matchingPrecedence = 2));
  const errs = errorsOf(exempt);
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /^spec: Invalid value: flowcontrol\.FlowSchemaSpec\{PriorityLevelConfiguration:flowcontrol\.PriorityLevelConfigurationReference\{Name:"exempt"\}, MatchingPrecedence:2, DistinguisherMethod:\(\*flowcontrol\.FlowDistinguisherMethod\)\(nil\), Rules:\[\]flowcontrol\.PolicyRulesWithSubjects\{.*\}\}: spec of 'exempt' must equal the fixed value$/);
  assert.deepEqual(errorsOf(edit(mandatoryFlowSchemas[1]! as KubeObject, (o) => delete o.metadata.annotations)), [], 'the annotation is not part of the spec');
});

const pl = (spec: KubeObject, name = 'pl'): KubeObject => ({ apiVersion: FS, kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
const limited = (l: KubeObject, name = 'pl'): KubeObject => pl({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} }, ...l } }, name);

test('PriorityLevelConfiguration validation: Kubernetes field paths and messages', () => {
  const cases: Array<[KubeObject, string[]]> = [
    [pl({ type: 'Exempt' }), ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"]],
    [pl({ type: 'Sometimes' }), ['spec.type: Unsupported value: "Sometimes": supported values: "Exempt", "Limited"']],
    [pl({ type: 'Limited' }), ['spec.limited: Required value: must not be empty when type is Limited']],
    [pl({ type: 'Limited', exempt: {}, limited: { limitResponse: { type: 'Reject' } } }), ['spec.exempt: Forbidden: must be nil if the type is Limited']],
    [limited({ nominalConcurrencyShares: -1 }), ['spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer']],
    [limited({ lendablePercent: 101 }), ['spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive']],
    [limited({ borrowingLimitPercent: -5 }), ['spec.limited.borrowingLimitPercent: Invalid value: -5: if specified, must be a non-negative integer']],
    [limited({ limitResponse: { type: 'Reject', queuing: {} } }), ['spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited']],
    [limited({ limitResponse: { type: 'Queue' } }), ['spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited']],
    [limited({ limitResponse: { type: 'Drop' } }), ['spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"']],
    [limited({ limitResponse: { type: 'Queue', queuing: { queues: -2, handSize: -1, queueLengthLimit: -3 } } }), [
      'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -3: must be positive',
      'spec.limited.limitResponse.queuing.queues: Invalid value: -2: must be positive',
      'spec.limited.limitResponse.queuing.handSize: Invalid value: -1: must be positive',
    ]],
    [limited({ limitResponse: { type: 'Queue', queuing: { queues: 10_000_001, handSize: 1, queueLengthLimit: 1 } } }), ['spec.limited.limitResponse.queuing.queues: Invalid value: 10000001: must not be greater than 10000000']],
    [limited({ limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5, queueLengthLimit: 1 } } }), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)']],
    [limited({ limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 10, queueLengthLimit: 1 } } }), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 10: required entropy bits of deckSize 128 and handSize 10 should not be greater than 60']],
    [pl({ type: 'Exempt', exempt: { nominalConcurrencyShares: -1, lendablePercent: -1 } }, 'exempt'), [
      'spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
      'spec.exempt.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive',
    ]],
  ];
  for (const [obj, want] of cases) assert.deepEqual(errorsOf(obj), want, JSON.stringify(obj.spec));
  assert.equal(requiredEntropyBits(64, 8), 48);
  assert.deepEqual(errorsOf(limited({})), [], 'the defaults make a valid level');
});

test("the mandatory levels' specs are fixed; of exempt, only spec.exempt may change", () => {
  assert.deepEqual(errorsOf(pl({ type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 20 } }, 'exempt')), []);
  assert.deepEqual(errorsOf(limited({ nominalConcurrencyShares: 6, limitResponse: { type: 'Reject' } }, 'catch-all')), [
    "spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:\"Limited\", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000), Exempt:(*flowcontrol.ExemptPriorityLevelConfiguration)(nil)}: spec of 'catch-all' must equal the fixed value",
  ]);
  assert.deepEqual(errorsOf(limited({ nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } }, 'catch-all')), []);
});

test('status: conditions need a type, once each', () => {
  const obj = edit(fs({}), (o) => (o.status = { conditions: [{ type: 'Dangling', status: 'True' }, { type: 'Dangling' }, { status: 'x' }] }));
  assert.equal(create(obj).obj.status, undefined, 'status is dropped on create');
  const ctx = { kind: undefined as never, now: 0, newUid: () => '' };
  const want = ['status.conditions[1].type: Duplicate value: "Dangling"', 'status.conditions[2].type: Required value: must not be empty'];
  assert.deepEqual(lines(flowSchemaStrategy.validateStatusUpdate!(obj, obj, ctx)), want);
  assert.deepEqual(lines(priorityLevelConfigurationStrategy.validateStatusUpdate!({ ...pl({}), status: obj.status } as never, obj as never, ctx)), want);
});

test('kubectl columns: flow schemas and priority levels', () => {
  const now = Date.parse('2026-11-22T02:34:38Z');
  const fsObj = { metadata: { name: 'probes', creationTimestamp: '2026-11-22T02:34:08Z' }, spec: { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 2 } };
  assert.deepEqual(flowSchemaPrinter.columns.map((c) => c.name), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
  assert.deepEqual(flowSchemaPrinter.cells(fsObj, now), ['probes', 'exempt', 2, '<none>', '30s', '?']);
  const dangling = { ...fsObj, spec: { ...fsObj.spec, distinguisherMethod: { type: 'ByUser' } }, status: { conditions: [{ type: 'Dangling', status: 'False' }] } };
  assert.deepEqual(flowSchemaPrinter.cells(dangling, now), ['probes', 'exempt', 2, 'ByUser', '30s', 'False']);
  assert.deepEqual(priorityLevelConfigurationPrinter.columns.map((c) => c.name), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
  const system = suggestedPriorityLevelConfigurations[0]! as KubeObject;
  assert.deepEqual(priorityLevelConfigurationPrinter.cells({ ...system, metadata: { name: 'system', creationTimestamp: '2026-11-22T02:34:08Z' } }, now), ['system', 'Limited', 30, 64, 6, 50, '30s']);
  assert.deepEqual(priorityLevelConfigurationPrinter.cells(mandatoryPriorityLevelConfigurations[1]! as KubeObject, now), ['catch-all', 'Limited', 5, '<none>', '<none>', '<none>', '<unknown>']);
  assert.deepEqual(priorityLevelConfigurationPrinter.cells(mandatoryPriorityLevelConfigurations[0]! as KubeObject, now), ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '<unknown>']);
});
