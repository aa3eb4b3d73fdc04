// The golden vectors: every object kube-apiserver created validates, every request it accepted is
// accepted (and prepared as it was), and the refused requests fail with the exact Status it returned.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import type { KubeObject } from '../../api/schema/kind.js';
import { fieldError, invalidStatus } from '../../machinery/validation/field-errors.js';
import { validateObjectMeta } from '../../machinery/validation/object-meta.js';
import { validateScale } from '../replicas-scale.js';
import { create, created, ctxFor, edit, ERRORS, kindOf, lines, OBJECTS, readJSON, statusOf, strategyFor, update } from './kinds.testutil.js';

const objectFiles = readdirSync(OBJECTS).filter((f) => f.endsWith('.created.json') || f.endsWith('.pb.json'));

test('every object the server created (rich, minimal, and read back later) validates, also as an unchanged update', () => {
  assert.ok(objectFiles.length >= 51, `found ${objectFiles.length} objects`);
  for (const f of objectFiles) {
    const obj = readJSON(`${OBJECTS}/${f}`);
    const k = kindOf(obj);
    const s = strategyFor(k.group, k.resource);
    const ctx = ctxFor(k);
    const errs = [...validateObjectMeta(obj, { namespaced: k.namespaced, nameValidator: s.nameValidator }), ...s.validate(obj, ctx)];
    assert.deepEqual(lines(errs), [], f);
    assert.deepEqual(lines(s.validateUpdate(structuredClone(obj), obj, ctx)), [], `${f} (update)`);
    if (s.validateStatusUpdate) assert.deepEqual(lines(s.validateStatusUpdate(structuredClone(obj), obj, ctx)), [], `${f} (status update)`);
  }
});

test('every request the server accepted is accepted after defaults and preparation', () => {
  const requests = readdirSync(OBJECTS).filter((f) => f.endsWith('.request.json'));
  assert.ok(requests.length >= 34);
  for (const f of requests) {
    const { errors } = create(readJSON(`${OBJECTS}/${f}`));
    assert.deepEqual(lines(errors), [], f);
  }
});

test('prepareForCreate does what the server did: pod status, namespace finalizer and phase, node taint, secret stringData, job selector', () => {
  const pod = create(readJSON(`${OBJECTS}/Pod.request.json`)).obj;
  assert.deepEqual(pod.status, created('Pod.created.json').status);
  assert.deepEqual(create(readJSON(`${OBJECTS}/Pod.minimal.request.json`)).obj.status, { phase: 'Pending', qosClass: 'BestEffort' });

  const ns = create(readJSON(`${OBJECTS}/Namespace.request.json`)).obj;
  assert.deepEqual(ns.status, { phase: 'Active' });
  assert.deepEqual((ns.spec as any).finalizers, ['kubernetes']);

  const node = create(readJSON(`${OBJECTS}/Node.request.json`)).obj;
  assert.deepEqual((node.spec as any).taints, (created('Node.created.json').spec as any).taints);
  assert.deepEqual((node.status as any).capacity.cpu, '8', 'a node keeps the status it registers with');

  const secret = create(readJSON(`${OBJECTS}/Secret.request.json`)).obj;
  assert.deepEqual(secret.data, created('Secret.created.json').data);
  assert.equal(secret.stringData, undefined);

  const job = create(readJSON(`${OBJECTS}/Job.minimal.request.json`)).obj as any;
  const uid = job.metadata.uid;
  assert.deepEqual(job.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
  assert.deepEqual(job.spec.template.metadata.labels, {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': 'job-minimal',
    'controller-uid': uid,
    'job-name': 'job-minimal',
  });
  assert.deepEqual(job.metadata.labels, job.spec.template.metadata.labels, 'a job without labels shows its template labels');
  assert.deepEqual(job.metadata.annotations, { 'batch.kubernetes.io/job-tracking': '' });
  const rich = create(readJSON(`${OBJECTS}/Job.request.json`)).obj as any;
  assert.deepEqual(rich.metadata.labels, { app: 'rich' });

  const ds = create(readJSON(`${OBJECTS}/DaemonSet.request.json`)).obj as any;
  assert.equal(ds.metadata.annotations['deprecated.daemonset.template.generation'], '1');

  const svc = create(readJSON(`${OBJECTS}/Service.request.json`)).obj as any;
  assert.equal(svc.spec.ipFamilyPolicy, 'PreferDualStack');
  assert.deepEqual(svc.spec.ipFamilies, ['IPv4']);
});

test('error vectors: invalid-pod-multiple-causes and deployment-selector-mismatch give kube-apiserver’s Status', () => {
  for (const file of ['invalid-pod-multiple-causes', 'deployment-selector-mismatch']) {
    const req = readJSON(`${ERRORS}/${file}.request.json`);
    const { obj, errors } = create(req);
    const k = kindOf(obj);
    assert.deepEqual(invalidStatus(k.kind, k.group, String((obj.metadata as any).name), errors), statusOf(`${file}.txt`), file);
  }
});

test('error vector immutable-configmap-update: data of an immutable ConfigMap is forbidden to change', () => {
  const req = readJSON(`${ERRORS}/immutable-configmap-update.request.json`);
  const old = edit(req, (o) => {
    o.data = { a: '1' };
  });
  const { errors } = update(req, old);
  assert.deepEqual(invalidStatus('ConfigMap', '', 'immutable-cm', errors), statusOf('immutable-configmap-update.txt'));
});

test('error vector scale-negative-replicas: the Scale Status', () => {
  const errs = validateScale({ spec: { replicas: -1 } });
  assert.deepEqual(invalidStatus('Scale', 'autoscaling', 'deployment-minimal', errs), statusOf('scale-negative-replicas.txt'));
});

test('error vector pod-update-forbidden-field: the Status, go-cmp diff of the internal PodSpec included', () => {
  // The pod as it was then: the response of the strategic-merge patch that changed its image.
  const old = statusOf('strategic-patch-container-image-ok.txt') as KubeObject;
  const next = edit(old, (o) => {
    o.spec.restartPolicy = 'Never';
  });
  const { errors } = update(next, old);
  assert.deepEqual(invalidStatus('Pod', '', 'pod-rich', errors), statusOf('pod-update-forbidden-field.txt'));
});

test('error vector dryrun-invalid-value: a []string bad value renders as Go prints it', () => {
  const errs = [fieldError.notSupported('dryRun', ['Yes'], ['All'])];
  assert.deepEqual(invalidStatus('CreateOptions', 'meta.k8s.io', '', errs), statusOf('dryrun-invalid-value.txt'));
});

test('vector update-in-terminating-namespace: a pod being deleted still takes label updates', () => {
  const after = statusOf('update-in-terminating-namespace.txt') as KubeObject;
  const before = edit(after, (p) => delete p.metadata.labels);
  assert.deepEqual(lines(update(after, before).errors), []);
  // ... but no new finalizers.
  const more = edit(after, (p) => p.metadata.finalizers.push('example.com/another'));
  assert.deepEqual(lines(update(more, before).errors), [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/another"}',
  ]);
});
