import assert from 'node:assert/strict';
import { test } from 'node:test';
import { create, created, edit, lines, OBJECTS, readJSON, updateErrors } from '../../kinds.testutil.js';

const statefulSet = readJSON(`${OBJECTS}/StatefulSet.minimal.request.json`);
const errorsOf = (obj: Record<string, unknown>, fn: (o: any) => void): string[] => lines(create(edit(obj, fn)).errors);

test('statefulsets: policies, strategies, only some spec fields may change', () => {
  assert.deepEqual(errorsOf(statefulSet, () => {}), []);
  assert.deepEqual(
    errorsOf(statefulSet, (s) => {
      s.spec.podManagementPolicy = 'Random';
      s.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 1 } };
    }),
    [
      `spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
      `spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'`,
    ],
  );
  assert.deepEqual(errorsOf(statefulSet, (s) => (s.spec.selector = {})), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
  ]);
  // A StatefulSet's pod spec is left to its pods' validation (as Kubernetes does).
  assert.deepEqual(errorsOf(statefulSet, (s) => (s.spec.template.spec.containers[0].name = 'Not_Valid')), []);
  const old = created('StatefulSet.minimal.created.json');
  assert.deepEqual(updateErrors(edit(old, (s) => (s.spec.replicas = 3)), old), []);
  assert.deepEqual(updateErrors(edit(old, (s) => (s.spec.podManagementPolicy = 'Parallel')), old), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
});
