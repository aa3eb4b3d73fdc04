import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/schema/kind.js';
import { fakeControllerContext } from '../../client/fake/index.js';
import { CONTROLLER_NAME, ValidatingAdmissionPolicyStatusController } from './controller.js';

const policy = (name: string, generation: number, expression: string, observedGeneration?: number): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name, generation },
  spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] }, validations: [{ expression }] },
  ...(observedGeneration === undefined ? {} : { status: { observedGeneration } }),
});

test('a policy past its observed generation gets its type checking status applied, forced, under the controller', async () => {
  const ctx = fakeControllerContext({ objects: [policy('typo', 2, 'object.spec.replicass > 1', 1), policy('fine', 1, 'object.spec.replicas > 1')] });
  const c = new ValidatingAdmissionPolicyStatusController(ctx);
  await c.sync('typo');
  await c.sync('fine');
  const patches = ctx.clientset.writes();
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['patch validatingadmissionpolicies/status typo', 'patch validatingadmissionpolicies/status fine']);
  assert.equal(patches[0]!.patchType, 'apply');
  assert.deepEqual(patches[0]!.options, { subresource: 'status', fieldManager: CONTROLLER_NAME, force: true });
  assert.deepEqual(patches[0]!.patch, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'typo' },
    status: { observedGeneration: 2, typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'\n | object.spec.replicass > 1\n | ...........^\n" }] } },
  });
  assert.deepEqual((patches[1]!.patch as KubeObject).status, { observedGeneration: 1, typeChecking: {} });
});

test('a policy whose status is current, or that is gone, is left alone', async () => {
  const ctx = fakeControllerContext({ objects: [policy('current', 3, 'true', 3)] });
  const c = new ValidatingAdmissionPolicyStatusController(ctx);
  await c.sync('current');
  await c.sync('gone');
  assert.deepEqual(ctx.clientset.writes(), []);
});
