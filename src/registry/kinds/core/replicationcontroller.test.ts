// core/v1 ReplicationController validation (ValidateReplicationController*, as Kubernetes renders
// the errors) through the create and update paths of the store.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { create, ctxFor, edit, kindOf, lines, strategyFor, update } from '../kinds.testutil.js';

const rc: KubeObject = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name: 'rc' },
  spec: { selector: { app: 'web' }, template: { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
};
const errorsOf = (fn: (o: any) => void): string[] => lines(create(edit(rc, fn)).errors);

test('a minimal replication controller is valid, defaulted (replicas 1, labels from the template) and its status dropped', () => {
  const { obj, errors } = create(edit(rc, (o) => (o.status = { replicas: 5 })));
  assert.deepEqual(lines(errors), []);
  assert.equal((obj.spec as any).replicas, 1);
  assert.deepEqual((obj.metadata as any).labels, { app: 'web', tier: 'front' });
  assert.equal(obj.status, undefined);
  // No selector: the template's labels become it.
  const defaulted = create(edit(rc, (o) => delete o.spec.selector));
  assert.deepEqual(lines(defaulted.errors), []);
  assert.deepEqual((defaulted.obj.spec as any).selector, { app: 'web', tier: 'front' });
});

test('the selector: required (non-empty), and every pair must be among the template labels', () => {
  assert.deepEqual(
    errorsOf((o) => {
      delete o.spec.selector;
      delete o.spec.template.metadata.labels;
    }),
    ['spec.selector: Required value'],
  );
  assert.deepEqual(errorsOf((o) => (o.spec.selector = { app: 'db' })), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web", "tier":"front"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(errorsOf((o) => (o.spec.selector = { app: 'web', tier: 'front' })), []);
});

test('the template: required, restartPolicy Always, no activeDeadlineSeconds, a valid pod template', () => {
  assert.deepEqual(errorsOf((o) => delete o.spec.template), ['spec.template: Required value']);
  assert.deepEqual(errorsOf((o) => (o.spec.template.spec.restartPolicy = 'OnFailure')), [
    'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
  ]);
  assert.deepEqual(errorsOf((o) => (o.spec.template.spec.activeDeadlineSeconds = 30)), [
    'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
  ]);
  assert.deepEqual(errorsOf((o) => (o.spec.template.spec.containers[0].name = '')), ['spec.template.spec.containers[0].name: Required value']);
  assert.deepEqual(errorsOf((o) => (o.spec.template.metadata.labels['bad key'] = 'x')).length > 0, true);
});

test('replicas and minReadySeconds: not negative; a writable GCE PD only for one replica', () => {
  assert.deepEqual(
    errorsOf((o) => {
      o.spec.replicas = -1;
      o.spec.minReadySeconds = -2;
    }),
    ['spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0', 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
  );
  assert.deepEqual(errorsOf((o) => (o.spec.replicas = 0)), []);
  const withDisk = (replicas: number, readOnly?: boolean) =>
    errorsOf((o) => {
      o.spec.replicas = replicas;
      o.spec.template.spec.volumes = [{ name: 'd', gcePersistentDisk: { pdName: 'pd', ...(readOnly === undefined ? {} : { readOnly }) } }];
    });
  assert.deepEqual(withDisk(1), []);
  assert.deepEqual(withDisk(2, true), []);
  assert.deepEqual(withDisk(2), [
    'spec.template.spec.volumes[0].gcePersistentDisk.readOnly: Invalid value: false: must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
  ]);
});

test('update: the selector may change (it is not immutable for ReplicationControllers); status is kept', () => {
  const old = create(rc).obj;
  (old.metadata as Record<string, unknown>).resourceVersion = '7';
  (old.status as unknown) = { replicas: 1, readyReplicas: 1 };
  const changed = update(
    edit(old, (o) => {
      o.spec.selector = { tier: 'front' };
      o.status = { replicas: 9 };
    }),
    old,
  );
  assert.deepEqual(lines(changed.errors), []);
  assert.deepEqual(changed.obj.status, { replicas: 1, readyReplicas: 1 });
  const bad = update(edit(old, (o) => (o.spec.replicas = -3)), old);
  assert.deepEqual(lines(bad.errors), ['spec.replicas: Invalid value: -3: must be greater than or equal to 0']);
});

test('status updates: the spec is kept; counts are non-negative and bounded by status.replicas', () => {
  const k = kindOf(rc);
  const s = strategyFor(k.group, k.resource);
  assert.equal(s.hasStatus, true);
  assert.equal(s.tracksGeneration, true);
  const old = create(rc).obj;
  const next = edit(old, (o) => {
    o.spec.replicas = 7;
    o.status = { replicas: 2, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 3, observedGeneration: -1 };
  });
  s.prepareForStatusUpdate!(next, old, ctxFor(k));
  assert.equal((next.spec as any).replicas, 1);
  assert.deepEqual(lines(s.validateStatusUpdate!(next, old, ctxFor(k))), [
    'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0',
    'status.fullyLabeledReplicas: Invalid value: 3: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
  ]);
  const ok = edit(old, (o) => (o.status = { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 }));
  assert.deepEqual(lines(s.validateStatusUpdate!(ok, old, ctxFor(k))), []);
});

test('warnings: the pod template warnings at spec.template', () => {
  const k = kindOf(rc);
  const s = strategyFor(k.group, k.resource);
  const o = create(edit(rc, (x) => (x.spec.template.spec.nodeSelector = { 'beta.kubernetes.io/arch': 'amd64' }))).obj;
  assert.deepEqual(s.warnings!(o, undefined), ['spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead']);
  assert.deepEqual(s.warnings!(edit(o, (x) => delete x.spec.template), undefined), []);
});
