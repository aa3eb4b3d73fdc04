import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findKind } from '../../../api/kinds.js';
import type { ValidatingAdmissionPolicy } from '../../../api/types.js';
import { startApiServer, type ApiServer } from '../../server.js';
import { policy } from './policy.testutil.js';
import { PolicyStatusController, typeCheckedStatus } from './status-controller.js';
import { PolicyTypeChecker, typesToCheck, builtinKindsFor, type TypedExpressionChecker } from './type-checking.js';

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
    assert.deepEqual(typeCheckedStatus({ ...p, metadata: { name: 'p', generation: 3 } }, new PolicyTypeChecker(checker, builtinKindsFor, findKind)).observedGeneration, 3);
    assert.deepEqual(typeCheckedStatus({ ...p, spec: { ...p.spec, validations: [{ expression: 'true' }] }, metadata: { name: 'p', generation: 2 } }, new PolicyTypeChecker(checker)), { observedGeneration: 2, typeChecking: {} });
  });
});

describe('the ValidatingAdmissionPolicy status controller', () => {
  let server: ApiServer;
  const store = () => server.registry.store('admissionregistration.k8s.io', 'validatingadmissionpolicies')!;
  const get = async () => (await store().get('', 'p')) as ValidatingAdmissionPolicy;
  const until = async (ok: (p: ValidatingAdmissionPolicy) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const p = await get();
      if (ok(p)) return p;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`status never settled: ${JSON.stringify((await get()).status)}`);
  };
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, policyTypeChecker: new PolicyTypeChecker(checker) });
  });
  after(() => server.close());

  it('reports the warnings and the observed generation of each spec change', async () => {
    await store().create('', policy('p', { validations: [{ expression: 'object.spec.replicass > 1' }] }));
    const first = await until((p) => p.status?.observedGeneration === 1 && (p.status.typeChecking?.expressionWarnings ?? []).length === 1);
    assert.equal(first.status!.typeChecking!.expressionWarnings![0]!.fieldRef, 'spec.validations[0].expression');
    assert.match(first.status!.typeChecking!.expressionWarnings![0]!.warning ?? '', /^apps\/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'/);
    await store().guaranteedUpdate('', 'p', (cur) => ({ ...cur, spec: { ...(cur.spec as object), validations: [{ expression: 'object.spec.replicas > 1' }] } }));
    const second = await until((p) => p.status?.observedGeneration === 2);
    assert.deepEqual(second.status!.typeChecking, {});
    // A status that is current is not written again.
    const rv = second.metadata!.resourceVersion ?? '';
    await new PolicyStatusController(server.registry, new PolicyTypeChecker(checker)).reconcile('p');
    assert.equal((await get()).metadata!.resourceVersion, rv);
  });
});
