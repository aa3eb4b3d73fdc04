// ValidatingAdmissionPolicy and its binding: defaults, validation messages and paths, status
// validation, generation, the table columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findKind } from '../../../api/kinds.js';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, lines, update } from '../kinds.testutil.js';
import { validatePolicyStatus } from './policies.js';
import type { ValidatingAdmissionPolicy } from '../../../api/types.js';

const rule = { operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
const policy = (spec: KubeObject): KubeObject => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'replicas' }, spec });
const goodSpec = (): KubeObject => ({ matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'object.spec.replicas <= 5' }] });
const binding = (spec: KubeObject): KubeObject => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replicas-binding' }, spec });

test('policy defaults: failurePolicy Fail; match constraints Equivalent with empty selectors; rule scope *', () => {
  const { obj, errors } = create(policy(goodSpec()));
  assert.deepEqual(lines(errors), []);
  assert.deepEqual(obj.spec, {
    matchConstraints: { resourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    validations: [{ expression: 'object.spec.replicas <= 5' }],
    failurePolicy: 'Fail',
  });
});

test('policy validation: Kubernetes\' paths and messages', () => {
  const errs = (spec: KubeObject) => lines(create(policy(spec)).errors);
  assert.deepEqual(errs({ validations: [{ expression: 'true' }] }), ['spec.matchConstraints: Required value']);
  assert.deepEqual(errs({ matchConstraints: {} }), [
    'spec.matchConstraints.resourceRules: Required value',
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]);
  assert.deepEqual(errs({ ...goodSpec(), failurePolicy: 'Never', paramKind: { apiVersion: 'a/b/c', kind: 'Bad_Kind' } }), [
    'spec.failurePolicy: Unsupported value: "Never": supported values: "Fail", "Ignore"',
    'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    `spec.paramKind.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  assert.deepEqual(errs({ ...goodSpec(), validations: [{ expression: ' ', message: 'two\nlines', reason: 'Conflict' }], variables: [{ name: 'if', expression: 'x' }, { name: 'ok', expression: '' }] }), [
    'spec.variables[0].name: Invalid value: "if": name is not a valid CEL identifier',
    'spec.variables[1].expression: Required value: expression is not specified',
    'spec.validations[0].expression: Required value: expression is not specified',
    'spec.validations[0].message: Invalid value: "two\\nlines": message must not contain line breaks',
    'spec.validations[0].reason: Unsupported value: "Conflict": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
  ]);
  assert.deepEqual(errs({ matchConstraints: { resourceRules: [{ ...rule, resourceNames: ['a', 'a', 'b/c'] }] }, auditAnnotations: [{ key: 'k', valueExpression: '' }, { key: 'k', valueExpression: 'x' }] }), [
    'spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "a"',
    `spec.matchConstraints.resourceRules[0].resourceNames[2]: Invalid value: "b/c": may not contain '/'`,
    'spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified',
    'spec.auditAnnotations[1].key: Duplicate value: "k"',
  ]);
});

test('CEL expressions must compile: validations, message expressions, variables, audit annotations, match conditions', () => {
  const errs = (spec: KubeObject) => lines(create(policy(spec)).errors);
  const bad = 'object.spec.replicas <=';
  const detail = 'compilation failed: ERROR: <input>:1:22: Syntax error: found < but expecting end of input\n | object.spec.replicas <=\n | .....................^';
  assert.deepEqual(errs({ ...goodSpec(), validations: [{ expression: bad, messageExpression: bad }], variables: [{ name: 'v', expression: bad }], auditAnnotations: [{ key: 'k', valueExpression: bad }], matchConditions: [{ name: 'm', expression: bad }] }), [
    `spec.matchConditions[0].expression: Invalid value: "object.spec.replicas <=": ${detail}`,
    `spec.variables[0].expression: Invalid value: "object.spec.replicas <=": ${detail}`,
    `spec.validations[0].expression: Invalid value: "object.spec.replicas <=": ${detail}`,
    `spec.validations[0].messageExpression: Invalid value: "object.spec.replicas <=": ${detail}`,
    `spec.auditAnnotations[0].valueExpression: Invalid value: "object.spec.replicas <=": ${detail}`,
  ]);
});

test('policy status: type checking warnings and conditions are validated; a spec update is validated again', () => {
  const p = { status: { typeChecking: { expressionWarnings: [{ fieldRef: '', warning: '' }] }, conditions: [{ type: 'Ready', status: 'Maybe', reason: '' }] } } as ValidatingAdmissionPolicy;
  assert.deepEqual(lines(validatePolicyStatus(p)), [
    'status.typeChecking.expressionWarnings[0].warning: Required value',
    'status.typeChecking.expressionWarnings[0].fieldRef: Required value',
    'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    'status.conditions[0].lastTransitionTime: Required value: must be set',
    'status.conditions[0].reason: Required value: must be set',
  ]);
  const stored = create(policy(goodSpec())).obj;
  (stored.metadata as KubeObject).resourceVersion = '1';
  const changed = structuredClone(stored);
  ((changed.spec as KubeObject).validations as KubeObject[]).push({ expression: 'true' });
  const result = update(changed, stored);
  assert.deepEqual(lines(result.errors), []);
  ((changed.spec as KubeObject).validations as KubeObject[]).push({ expression: '' });
  assert.deepEqual(lines(update(changed, stored).errors), ['spec.validations[2].expression: Required value: expression is not specified']);
});

test('binding validation: policy name, paramRef, match resources, validation actions', () => {
  const errs = (spec: KubeObject) => lines(create(binding(spec)).errors);
  assert.deepEqual(errs({ policyName: 'replicas', validationActions: ['Deny'] }), []);
  assert.deepEqual(errs({}), ['spec.policyName: Required value', 'spec.validationActions: Required value: at least one validation action is required']);
  assert.deepEqual(errs({ policyName: 'Bad', paramRef: { name: 'p', selector: {} }, validationActions: ['Deny', 'Warn', 'Deny', 'Block'] }), [
    `spec.policyName: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.parameterNotFoundAction: Required value',
    'spec.validationActions[2]: Duplicate value: "Deny"',
    'spec.validationActions[3]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"',
    'spec.validationActions: Invalid value: []string{"Deny", "Warn", "Deny", "Block"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
  ]);
  const { obj } = create(binding({ policyName: 'replicas', validationActions: ['Deny'], matchResources: { resourceRules: [rule] } }));
  assert.deepEqual((obj.spec as KubeObject).matchResources, { resourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
});

test('kubectl get: NAME VALIDATIONS PARAMKIND AGE and NAME POLICYNAME PARAMREF AGE', () => {
  const now = Date.parse('2026-11-22T02:34:38Z');
  const p = policy({ ...goodSpec(), paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } });
  (p.metadata as KubeObject).creationTimestamp = '2026-11-22T02:33:38Z';
  const pp = printerOf(findKind('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy')!);
  assert.deepEqual(pp.columns.map((c) => c.name), ['Name', 'Validations', 'ParamKind', 'Age']);
  assert.deepEqual(pp.cells(p, now), ['replicas', 1, 'v1/ConfigMap', '60s']);
  assert.equal(pp.cells(policy(goodSpec()), now)[2], '<unset>');
  const bp = printerOf(findKind('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding')!);
  assert.deepEqual(bp.columns.map((c) => c.name), ['Name', 'PolicyName', 'ParamRef', 'Age']);
  assert.deepEqual(bp.cells(binding({ policyName: 'replicas', paramRef: { name: 'limits', namespace: 'team' } }), now).slice(0, 3), ['replicas-binding', 'replicas', 'team/limits']);
  assert.equal(bp.cells(binding({ paramRef: { name: 'limits' } }), now)[2], '*/limits');
  assert.equal(bp.cells(binding({ paramRef: { selector: { matchLabels: { a: 'b' } } } }), now)[2], 'a=b');
  assert.equal(bp.cells(binding({}), now)[2], '<unset>');
});
