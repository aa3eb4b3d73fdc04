import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import type { KindVersion } from '../../../api/schema/kind.js';
import { memoryObjects, refused } from '../admission.testutil.js';
import type { Attributes, Authorizer } from '../../auth/types.js';
import type { AdmissionAttributes } from '../types.js';
import { PENDING, PolicyAuthorizer } from './authorizer.js';
import { celPolicyCompiler } from './cel.js';
import type { PolicyExpressionCompiler } from './compile.js';
import { ValidatingAdmissionPolicyPlugin } from './plugin.js';
import { binding, memoryContext, policy } from './policy.testutil.js';

const deployments = findResource('apps', 'v1', 'deployments') as KindVersion;
const write = (over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', kind: deployments, group: 'apps', resource: 'deployments', subresource: '', namespace: 'default', name: '', object: { metadata: { name: 'web' } }, user: { name: 'alice', groups: ['dev'] }, dryRun: false, ...over,
});

/** Allows alice to create deployments and the `deployer` service account to get secrets; counts the questions. */
function fakeAuthorizer(async: boolean) {
  const asked: Attributes[] = [];
  const authorizer: Authorizer = {
    authorize(attrs) {
      asked.push(attrs);
      const allowed = (attrs.user.name === 'alice' && attrs.verb === 'create' && attrs.resource === 'deployments') || (attrs.user.name === 'system:serviceaccount:ci:deployer' && attrs.resource === 'secrets');
      const r = { decision: allowed ? ('allow' as const) : ('no-opinion' as const), reason: allowed ? 'RBAC: allowed' : '' };
      return async ? Promise.resolve(r) : r;
    },
  };
  return { authorizer, asked };
}

describe('ValidatingAdmissionPolicy authorizer', () => {
  it('asks for the user on a resource in any version, caches the answer, and for service accounts', () => {
    const { authorizer, asked } = fakeAuthorizer(false);
    const authz = PolicyAuthorizer.forRequest(authorizer, write());
    assert.deepEqual(authz.requestResource, { group: 'apps', resource: 'deployments', subresource: '', namespace: 'default', name: 'web' });
    assert.deepEqual(authz.check({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default' }), { decision: 'allow', reason: 'RBAC: allowed' });
    authz.check({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default' });
    assert.equal(asked.length, 1);
    assert.deepEqual({ ...asked[0]! }, { user: { name: 'alice', groups: ['dev'] }, verb: 'create', resourceRequest: true, apiGroup: 'apps', apiVersion: '*', resource: 'deployments', subresource: '', namespace: 'default', name: '', path: '' });
    const sa = authz.serviceAccount('ci', 'deployer');
    assert.equal(sa.check({ verb: 'get', group: '', resource: 'secrets', namespace: 'ci' }).decision, 'allow');
    assert.deepEqual(asked[1]!.user, { name: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] });
    assert.deepEqual(authz.check({ verb: 'get', path: '/healthz' }).decision, 'no-opinion');
    assert.equal(asked[2]!.resourceRequest, false);
    assert.equal(asked[2]!.path, '/healthz');
  });

  it('an asynchronous answer is pending, then settled and cached', async () => {
    const { authorizer, asked } = fakeAuthorizer(true);
    const authz = PolicyAuthorizer.forRequest(authorizer, write());
    assert.equal(authz.check({ verb: 'create', group: 'apps', resource: 'deployments' }).error, PENDING);
    assert.equal(authz.pending, true);
    await authz.settle();
    assert.equal(authz.pending, false);
    assert.deepEqual(authz.check({ verb: 'create', group: 'apps', resource: 'deployments' }), { decision: 'allow', reason: 'RBAC: allowed' });
    assert.equal(asked.length, 1);
  });

  it("Kubernetes' CEL authorizer library asks it, synchronous or not", async () => {
    for (const async of [false, true]) {
      const { authorizer } = fakeAuthorizer(async);
      const ctx = { ...memoryContext([]), authorizer: (a: AdmissionAttributes) => PolicyAuthorizer.forRequest(authorizer, a) };
      const p = policy('deleters-only', { validations: [{ expression: "authorizer.group('apps').resource('deployments').namespace('default').check('delete').allowed()", message: 'may not delete' }, { expression: "authorizer.group('apps').resource('deployments').check('create').allowed()" }] });
      const plugin = new ValidatingAdmissionPolicyPlugin({ policies: memoryObjects([p]), bindings: memoryObjects([binding('b', 'deleters-only')]) }, celPolicyCompiler, ctx);
      assert.match((await refused(plugin.validate(write()))).message, /denied request: may not delete$/, `async: ${async}`);
    }
  });

  it('the dispatcher evaluates again once asynchronous answers are in', async () => {
    // A program standing for `authorizer.group('apps').resource('deployments').check('delete').allowed()`.
    const canDelete: PolicyExpressionCompiler = () => ({
      program: {
        evaluate(vars) {
          const d = (vars.authorizer as PolicyAuthorizer).check({ verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'default' });
          return d.error !== undefined ? { error: d.error, cost: 1 } : { value: d.decision === 'allow', cost: 1 };
        },
      },
    });
    for (const async of [false, true]) {
      const { authorizer, asked } = fakeAuthorizer(async);
      const ctx = { ...memoryContext([]), authorizer: (a: AdmissionAttributes) => PolicyAuthorizer.forRequest(authorizer, a) };
      const p = policy('deleters-only', { validations: [{ expression: 'authorizer...', message: 'only those who may delete deployments may create them' }] });
      const plugin = new ValidatingAdmissionPolicyPlugin({ policies: memoryObjects([p]), bindings: memoryObjects([binding('b', 'deleters-only')]) }, canDelete, ctx);
      assert.match((await refused(plugin.validate(write()))).message, /denied request: only those who may delete deployments may create them$/, `async: ${async}`);
      assert.equal(asked.length, 1);
    }
  });
});
