import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findKind } from '../../api/kinds.js';
import type { ValidatingAdmissionPolicy } from '../../api/types.js';
import { PolicyTypeChecker, typesToCheck, builtinKindsFor, type TypedExpressionChecker } from './type-checking.js';

const policy = (name: string, spec: NonNullable<ValidatingAdmissionPolicy['spec']>): ValidatingAdmissionPolicy => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec });

const withRules = (resourceRules: Array<Record<string, unknown>>) => policy('p', { matchConstraints: { resourceRules } });
const kinds = (p: ValidatingAdmissionPolicy) => typesToCheck(p, builtinKindsFor).map((k) => `${k.group}/${k.version}/${k.kind}`);

/** Reports an expression naming `object.spec.replicass` (a field no kind has), like a typed compile. */
const checker: TypedExpressionChecker = (expression, env) =>
  expression.includes('replicass') ? `ERROR: <input>:1:12: undefined field 'replicass' (${env.object.kind}${env.params ? `, params ${env.params.kind}` : ''})` : undefined;

describe('ValidatingAdmissionPolicy type checking', () => {
  it('checks the kinds the rules name exactly, sorted by group, version and kind', () => {
    assert.deepEqual(kinds(withRules([{ operations: ['CREATE'], apiGroups: ['apps', ''], apiVersions: ['v1'], resources: ['deployments', 'pods', 'replicasets'] }])), ['/v1/Pod', 'apps/v1/Deployment', 'apps/v1/ReplicaSet']);
    // Wildcard groups or versions name no kind; wildcard and subresource entries are left out.
    assert.deepEqual(kinds(withRules([{ operations: ['*'], apiGroups: ['*'], apiVersions: ['v1'], resources: ['pods'] }])), []);
    assert.deepEqual(kinds(withRules([{ operations: ['*'], apiGroups: [''], apiVersions: ['*'], resources: ['pods'] }])), []);
    assert.deepEqual(kinds(withRules([{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['*', 'pods/status', 'configmaps'] }])), ['/v1/ConfigMap']);
    // A resource not served names nothing.
    assert.deepEqual(kinds(withRules([{ operations: ['*'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }])), []);
  });

  it('stops at 10 kinds per rule', () => {
    const resources = ['configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'podtemplates', 'replicationcontrollers', 'secrets'];
    assert.equal(kinds(withRules([{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources }])).length, 10);
  });

  it('warns per expression and messageExpression, one line per kind, with the params kind', () => {
    const p = policy('p', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'replicasets'] }] },
      validations: [{ expression: 'object.spec.replicas > 1' }, { expression: 'object.spec.replicass > 1', messageExpression: "'x' + string(object.spec.replicass)" }],
    });
    const warnings = new PolicyTypeChecker(checker, builtinKindsFor, findKind).warnings(p);
    const issue = (kind: string) => `apps/v1, Kind=${kind}: ERROR: <input>:1:12: undefined field 'replicass' (${kind}, params ConfigMap)\n`;
    assert.deepEqual(warnings, [
      { fieldRef: 'spec.validations[1].expression', warning: `${issue('Deployment')}\n${issue('ReplicaSet')}` },
      { fieldRef: 'spec.validations[1].messageExpression', warning: `${issue('Deployment')}\n${issue('ReplicaSet')}` },
    ]);
    assert.deepEqual(new PolicyTypeChecker(checker).warnings({ ...p, spec: { ...p.spec, validations: [{ expression: 'object.spec.replicas > 1' }] } }), []);
  });
});
