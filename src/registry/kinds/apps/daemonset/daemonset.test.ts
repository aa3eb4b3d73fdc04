import assert from 'node:assert/strict';
import { test } from 'node:test';
import { create, created, edit, lines, OBJECTS, readJSON, update } from '../../kinds.testutil.js';

const daemonSet = readJSON(`${OBJECTS}/DaemonSet.minimal.request.json`);
const errorsOf = (obj: Record<string, unknown>, fn: (o: any) => void): string[] => lines(create(edit(obj, fn)).errors);

test('daemonsets: update strategy, selector, template generation annotation', () => {
  assert.deepEqual(errorsOf(daemonSet, () => {}), []);
  assert.deepEqual(errorsOf(daemonSet, (d) => (d.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } })), [
    'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
  ]);
  assert.deepEqual(errorsOf(daemonSet, (d) => (d.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } })), [
    'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
  ]);
  assert.deepEqual(errorsOf(daemonSet, (d) => (d.spec.updateStrategy = { type: 'Never' })), [
    'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Never", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
  ]);
  assert.deepEqual(errorsOf(daemonSet, (d) => (d.spec.template.spec.restartPolicy = 'OnFailure')), [
    'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
  ]);
  const old = created('DaemonSet.minimal.created.json');
  const same = update(edit(old, (d) => (d.metadata.labels = { x: 'y' })), old).obj as any;
  assert.equal(same.metadata.annotations['deprecated.daemonset.template.generation'], '1');
  const bumped = update(edit(old, (d) => (d.spec.template.spec.containers[0].image = 'nginx:2')), old).obj as any;
  assert.equal(bumped.metadata.annotations['deprecated.daemonset.template.generation'], '2');
  const forged = update(edit(old, (d) => (d.metadata.annotations['deprecated.daemonset.template.generation'] = '9')), old).obj as any;
  assert.equal(forged.metadata.annotations['deprecated.daemonset.template.generation'], '1', 'the template generation is the server’s');
});
