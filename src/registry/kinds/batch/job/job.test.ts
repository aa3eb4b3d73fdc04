import assert from 'node:assert/strict';
import { test } from 'node:test';
import { create, created, edit, lines, OBJECTS, readJSON, updateErrors } from '../../kinds.testutil.js';

const job = readJSON(`${OBJECTS}/Job.minimal.request.json`);
const errorsOf = (obj: Record<string, unknown>, fn: (o: any) => void): string[] => lines(create(edit(obj, fn)).errors);

test('jobs: counts non-negative, restart policy, completion modes, pod failure policies', () => {
  assert.deepEqual(errorsOf(job, () => {}), []);
  assert.deepEqual(
    errorsOf(job, (j) => {
      j.spec.parallelism = -1;
      j.spec.backoffLimit = -2;
      j.spec.activeDeadlineSeconds = -3;
    }),
    [
      'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      'spec.activeDeadlineSeconds: Invalid value: -3: must be greater than or equal to 0',
      'spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0',
    ],
  );
  assert.deepEqual(errorsOf(job, (j) => (j.spec.template.spec.restartPolicy = 'Always')), [
    'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
  ]);
  assert.deepEqual(errorsOf(job, (j) => (j.spec.completionMode = 'Sometimes')), ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']);
  assert.deepEqual(
    errorsOf(job, (j) => {
      j.metadata.name = 'a'.repeat(62);
      j.spec.completionMode = 'Indexed';
      j.spec.completions = 10;
    }),
    [`metadata.name: Invalid value: "${'a'.repeat(62)}": will not able to create pod with invalid DNS label: ${'a'.repeat(62)}-9`],
  );
  assert.deepEqual(
    errorsOf(job, (j) => {
      j.spec.template.spec.restartPolicy = 'Never';
      j.spec.podFailurePolicy = { rules: [{ action: 'Explode', onExitCodes: { operator: 'In', values: [3, 0, 1] } }, { action: 'Ignore' }] };
    }),
    [
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Explode": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 1}: must be ordered',
      'spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    ],
  );
});

test('jobs: a manual selector must match the template; a generated one must not be forged', () => {
  assert.deepEqual(
    errorsOf(job, (j) => {
      j.spec.manualSelector = true;
      j.spec.selector = { matchLabels: { run: 'x' } };
    }),
    ['spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`'],
  );
  const forged = errorsOf(job, (j) => (j.spec.template.metadata = { labels: { 'controller-uid': 'someone-else' } }));
  // The generated selector is on the prefixed label, which the template still gets; the legacy one is checked by itself.
  assert.equal(forged.length, 1);
  assert.match(forged[0]!, /^spec\.template\.metadata\.labels\[controller-uid\]: Invalid value: map\[string\]string\{.*"controller-uid":"someone-else".*\}: must be '00000000-0000-4000-8000-\d+'$/);
});

test('job updates: selector, completions, completion mode and template are immutable; a suspended unstarted job may move', () => {
  const old = created('Job.minimal.created.json');
  assert.deepEqual(updateErrors(edit(old, (j) => (j.spec.parallelism = 5)), old), []);
  assert.deepEqual(updateErrors(edit(old, (j) => (j.spec.completions = 3)), old), ['spec.completions: Invalid value: 3: field is immutable']);
  assert.deepEqual(updateErrors(edit(old, (j) => (j.spec.template.spec.containers[0].image = 'busybox:2')), old), [
    'spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable',
  ]);
  const suspended = edit(old, (j) => {
    j.spec.suspend = true;
    delete j.status.startTime;
  });
  assert.deepEqual(updateErrors(edit(suspended, (j) => (j.spec.template.spec.nodeSelector = { zone: 'a' })), suspended), []);
  assert.deepEqual(updateErrors(edit(suspended, (j) => (j.spec.template.spec.containers[0].image = 'x')), suspended), [
    'spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable',
  ]);
});
