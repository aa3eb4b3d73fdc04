import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidPercent } from '../../../../machinery/validation/names.js';
import { create, created, ctxFor, edit, kindOf, lines, OBJECTS, readJSON, strategyFor, update, updateErrors } from '../../kinds.testutil.js';

const deployment = readJSON(`${OBJECTS}/Deployment.minimal.request.json`);
const errorsOf = (obj: Record<string, unknown>, fn: (o: any) => void): string[] => lines(create(edit(obj, fn)).errors);

test('deployments: selector required, non-empty, matching; replicas and seconds non-negative; progress deadline after minReady', () => {
  assert.deepEqual(errorsOf(deployment, () => {}), []);
  assert.deepEqual(
    errorsOf(deployment, (d) => delete d.spec.selector),
    ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"deployment-minimal"}: `selector` does not match template `labels`'],
  );
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.selector = {})), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
  ]);
  assert.deepEqual(
    errorsOf(deployment, (d) => (d.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Has' }] })),
    [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Has", Values:[]string(nil)}}}: invalid label selector',
    ],
  );
  assert.deepEqual(
    errorsOf(deployment, (d) => {
      d.spec.replicas = -1;
      d.spec.minReadySeconds = 10;
      d.spec.progressDeadlineSeconds = 10;
      d.spec.revisionHistoryLimit = -2;
    }),
    [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      'spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds',
    ],
  );
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.template.spec.restartPolicy = 'Never')), [
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ]);
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.template.spec.activeDeadlineSeconds = 5)), [
    'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
  ]);
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.template.spec.containers[0].name = '')), ['spec.template.spec.containers[0].name: Required value']);
});

test('deployment strategies: values, rolling update bounds', () => {
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.strategy = { type: 'Sideways' })), [
    'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Sideways", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
  ]);
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } })), [
    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
  ]);
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } })), [
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0',
  ]);
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: -1, maxUnavailable: '150%' } })), [
    'spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
  ]);
  assert.deepEqual(errorsOf(deployment, (d) => (d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 'half', maxUnavailable: 1 } })), [
    `spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: ${isValidPercent('half')[0]}`,
  ]);
});

test('deployment updates: the selector is immutable through apps/v1 only; annotation changes bump the generation', () => {
  const old = created('Deployment.minimal.created.json');
  const changed = edit(old, (d) => {
    d.spec.selector = { matchLabels: { app: 'other' } };
    d.spec.template.metadata.labels = { app: 'other' };
  });
  assert.deepEqual(updateErrors(changed, old), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  ]);
  assert.deepEqual(updateErrors(changed, old, 'extensions/v1beta1'), []);
  assert.deepEqual(updateErrors(changed, old, 'apps/v1beta1'), []);
  const annotated = update(edit(old, (d) => (d.metadata.annotations = { a: 'b' })), old).obj as any;
  assert.equal(annotated.metadata.generation, 2);
  const statusKept = update(edit(old, (d) => (d.status = { replicas: 9 })), edit(old, (d) => (d.status = { replicas: 1 }))).obj as any;
  assert.deepEqual(statusKept.status, { replicas: 1 }, 'the main resource does not change status');
});

test('workload status updates: counts non-negative and consistent, collisionCount never decreases', () => {
  const old = edit(created('Deployment.minimal.created.json'), (d) => (d.status = { replicas: 2, readyReplicas: 2, availableReplicas: 2, collisionCount: 3 }));
  const next = edit(old, (d) => (d.status = { replicas: 1, readyReplicas: 2, availableReplicas: 3, collisionCount: 1 }));
  assert.deepEqual(lines(updateStatus(next, old)), [
    'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
    'status.collisionCount: Invalid value: 1: cannot be decremented',
  ]);
});

function updateStatus(next: Record<string, unknown>, old: Record<string, unknown>) {
  const k = kindOf(next);
  const s = strategyFor(k.group, k.resource);
  const obj = structuredClone(next);
  s.prepareForStatusUpdate!(obj, old, ctxFor(k));
  return s.validateStatusUpdate!(obj, old, ctxFor(k));
}
