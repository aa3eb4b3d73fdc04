// admissionregistration.k8s.io/v1 webhook configurations: Go struct order, protobuf field numbers
// (RuleWithOperations embeds Rule as message field 2), a protobuf round trip of a full object.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeProtobuf, encodeProtobuf } from '../../machinery/codec/protobuf.js';
import { parseMessage, protoProblems, unwrapEnvelope } from '../round-trip.testutil.js';
import { MutatingWebhook, MutatingWebhookConfiguration, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, ValidatingWebhook } from './v1.js';

const full = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name: 'cfg', generation: 1, creationTimestamp: '2026-11-22T02:34:38Z' },
  webhooks: [{
    name: 'a.example.com',
    clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/m', port: 443 }, caBundle: Buffer.from('ca').toString('base64') },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: 'Namespaced' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: { matchLabels: { env: 'prod' } },
    objectSelector: {},
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1', 'v1beta1'],
    reinvocationPolicy: 'IfNeeded',
    matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
  }],
};

test('the Go struct order of the webhooks and their field numbers', () => {
  assert.deepEqual(Object.keys(ValidatingWebhook.fields), ['name', 'clientConfig', 'rules', 'failurePolicy', 'matchPolicy', 'namespaceSelector', 'objectSelector', 'sideEffects', 'timeoutSeconds', 'admissionReviewVersions', 'matchConditions']);
  assert.deepEqual(Object.values(ValidatingWebhook.fields).map((f) => f.tag), [1, 2, 3, 4, 9, 5, 10, 6, 7, 8, 11]);
  assert.deepEqual(Object.values(MutatingWebhook.fields).map((f) => f.tag), [1, 2, 3, 4, 9, 5, 11, 6, 7, 8, 10, 12]);
});

test('protobuf round trip of a MutatingWebhookConfiguration; the rule is a nested message', () => {
  const bytes = encodeProtobuf(full, MutatingWebhookConfiguration);
  assert.deepEqual(decodeProtobuf(bytes, MutatingWebhookConfiguration).object, full);
  const message = unwrapEnvelope(bytes);
  assert.deepEqual(protoProblems(MutatingWebhookConfiguration, message, () => true), []);
  const hook = parseMessage(parseMessage(message).find((f) => f.tag === 2)!.bytes!);
  const rule = parseMessage(hook.find((f) => f.tag === 3)!.bytes!);
  assert.deepEqual(rule.map((f) => f.tag), [1, 1, 2]);
  assert.deepEqual(parseMessage(rule[2]!.bytes!).map((f) => f.tag), [1, 2, 3, 4]);
});

const policy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'replicas', generation: 2, creationTimestamp: '2026-11-22T02:34:38Z' },
  spec: {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: {
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ resourceNames: ['web'], operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*' }],
      excludeResourceRules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' }],
      matchPolicy: 'Equivalent',
    },
    validations: [{ expression: 'object.spec.replicas <= 5', message: 'too many', reason: 'Invalid', messageExpression: "'replicas: ' + string(object.spec.replicas)" }],
    failurePolicy: 'Fail',
    auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
    matchConditions: [{ name: 'apps', expression: 'true' }],
    variables: [{ name: 'limit', expression: 'params.data.limit' }],
  },
  status: {
    observedGeneration: 2,
    typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] },
    conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2, lastTransitionTime: '2026-11-22T02:35:00Z', reason: 'Checked', message: 'ok' }],
  },
};

test('ValidatingAdmissionPolicy: protobuf round trip; NamedRuleWithOperations nests RuleWithOperations which nests Rule', () => {
  const bytes = encodeProtobuf(policy, ValidatingAdmissionPolicy);
  assert.deepEqual(decodeProtobuf(bytes, ValidatingAdmissionPolicy).object, policy);
  const spec = parseMessage(parseMessage(unwrapEnvelope(bytes)).find((f) => f.tag === 2)!.bytes!);
  const match = parseMessage(spec.find((f) => f.tag === 2)!.bytes!);
  const named = parseMessage(match.find((f) => f.tag === 3)!.bytes!);
  // resourceNames (1), then RuleWithOperations (2): operations (1), Rule (2): apiGroups 1, apiVersions 2, resources 3, scope 4.
  assert.deepEqual(named.map((f) => f.tag), [1, 2]);
  const withOps = parseMessage(named[1]!.bytes!);
  assert.deepEqual(withOps.map((f) => f.tag), [1, 2]);
  assert.deepEqual(parseMessage(withOps[1]!.bytes!).map((f) => f.tag), [1, 2, 3, 4]);
  assert.equal(Buffer.from(parseMessage(withOps[1]!.bytes!)[2]!.bytes!).toString(), 'deployments');
});

test('ValidatingAdmissionPolicyBinding: protobuf round trip', () => {
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'b', creationTimestamp: '2026-11-22T02:34:38Z' },
    spec: { policyName: 'replicas', paramRef: { name: 'limits', namespace: 'team', parameterNotFoundAction: 'Deny' }, matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } }, objectSelector: {}, matchPolicy: 'Exact' }, validationActions: ['Deny', 'Audit'] },
  };
  assert.deepEqual(decodeProtobuf(encodeProtobuf(binding, ValidatingAdmissionPolicyBinding), ValidatingAdmissionPolicyBinding).object, binding);
});
