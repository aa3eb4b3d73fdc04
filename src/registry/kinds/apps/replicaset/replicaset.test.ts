import assert from 'node:assert/strict';
import { test } from 'node:test';
import { create, created, edit, lines, OBJECTS, readJSON, updateErrors } from '../../kinds.testutil.js';

const replicaSet = readJSON(`${OBJECTS}/ReplicaSet.minimal.request.json`);
const errorsOf = (obj: Record<string, unknown>, fn: (o: any) => void): string[] => lines(create(edit(obj, fn)).errors);

test('replicasets: same template rules, selector immutable in apps/v1', () => {
  assert.deepEqual(errorsOf(replicaSet, () => {}), []);
  assert.deepEqual(errorsOf(replicaSet, (r) => (r.spec.selector = { matchLabels: { app: 'x' } })), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"replicaset-minimal"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(errorsOf(replicaSet, (r) => (r.spec.minReadySeconds = -1)), ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0']);
  const old = created('ReplicaSet.minimal.created.json');
  const moved = edit(old, (r) => {
    r.spec.selector.matchLabels = { app: 'y' };
    r.spec.template.metadata.labels = { app: 'y' };
  });
  assert.equal(updateErrors(moved, old).length, 1);
  assert.deepEqual(updateErrors(moved, old, 'extensions/v1beta1'), []);
});
