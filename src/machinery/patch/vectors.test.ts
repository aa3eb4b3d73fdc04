// The patch bodies kubectl v1.32.4 sent (testdata/requests/v1.32.4) applied to the objects they
// were sent against, compared with what the real kube-apiserver answered; and the error bodies of
// testdata/errors for patches.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deployment } from '../../api/apps/v1.js';
import { Pod } from '../../api/core/v1/pod.js';
import { dumpBody, readJson } from '../../api/vectors.testutil.js';
import { PatchError, applyJsonPatch, applyMergePatch, patchTypeFromContentType, strategicMergePatch } from './index.js';

type Obj = Record<string, any>;
const req = (file: string) => readJson('requests', 'v1.32.4', file) as Obj;
const clone = <T>(v: T): T => structuredClone(v);

function withoutServerFields(o: Obj): Obj {
  const c = clone(o);
  delete c.status;
  for (const k of ['resourceVersion', 'generation', 'managedFields']) delete c.metadata[k];
  return c;
}

test('08 set image: $setElementOrder + merge by name gives the containers the server stored', () => {
  const after = req('08-set-image.PATCH.response.json');
  const before = clone(after);
  before.spec.template.spec.containers[0].image = 'nginx';
  const patched = strategicMergePatch(before, req('08-set-image.PATCH.json'), Deployment) as Obj;
  assert.deepEqual(patched.spec.template.spec.containers, after.spec.template.spec.containers);
  assert.deepEqual(withoutServerFields(patched), withoutServerFields(after));
});

test('11 client-side apply: env element deleted and added, image and labels changed', () => {
  const before = req('10-apply-client-side-1.POST.response.json');
  const after = req('11-apply-client-side-2.PATCH.response.json');
  const patched = strategicMergePatch(before, req('11-apply-client-side-2.PATCH.json'), Deployment) as Obj;
  assert.deepEqual(patched.spec, after.spec);
  assert.deepEqual(patched.metadata.labels, after.metadata.labels);
  // The deployment controller added the revision annotation meanwhile.
  const { ['deployment.kubernetes.io/revision']: _revision, ...annotations } = after.metadata.annotations;
  assert.deepEqual(patched.metadata.annotations, annotations);
});

test('09 rollout undo: JSON patch replacing the template and the annotations', () => {
  const before = req('08-set-image.PATCH.response.json');
  const patched = applyJsonPatch(before, req('09-rollout-undo.PATCH.json')) as Obj;
  // 09's response is protobuf; the template it stored is the one 14 (a label change) echoes back.
  const later = req('14-label.PATCH.response.json');
  assert.deepEqual(patched.spec.template, later.spec.template);
  assert.deepEqual(patched.metadata.annotations, { 'deployment.kubernetes.io/revision': '2' });
  assert.equal(before.spec.template.spec.containers[0].image, 'nginx:1.25', 'the original is not mutated');
});

test('14 label, 15 annotate, 16 merge patch: merge patches on the deployment', () => {
  const label = req('14-label.PATCH.response.json');
  const before = clone(label);
  delete before.metadata.labels.tier;
  assert.deepEqual((applyMergePatch(before, req('14-label.PATCH.json')) as Obj).metadata, label.metadata);
  // The same body sent as a strategic merge patch gives the same result.
  assert.deepEqual(strategicMergePatch(before, req('14-label.PATCH.json'), Deployment).metadata, label.metadata);

  const annotate = req('15-annotate.PATCH.response.json');
  const annotated = applyMergePatch(label, req('15-annotate.PATCH.json')) as Obj;
  assert.deepEqual(annotated.metadata.annotations, annotate.metadata.annotations);
  assert.deepEqual(annotated.metadata.labels, annotate.metadata.labels);

  const merged = applyMergePatch(annotate, req('16-patch-merge.PATCH.json')) as Obj;
  assert.deepEqual(merged.spec, req('16-patch-merge.PATCH.response.json').spec);
});

test('17 JSON patch and 18 strategic patch on the deployment', () => {
  const jsonPatched = applyJsonPatch(req('16-patch-merge.PATCH.response.json'), req('17-patch-json.PATCH.json')) as Obj;
  assert.deepEqual(jsonPatched.spec, req('17-patch-json.PATCH.response.json').spec);

  const smp = strategicMergePatch(req('17-patch-json.PATCH.response.json'), req('18-patch-strategic.PATCH.json'), Deployment) as Obj;
  assert.deepEqual(smp.spec, req('18-patch-strategic.PATCH.response.json').spec);
});

test('07 scale: merge patch on the Scale subresource', () => {
  const scale = req('07-scale.PATCH.response.json');
  const before = clone(scale);
  before.spec.replicas = 2;
  assert.deepEqual((applyMergePatch(before, req('07-scale.PATCH.json')) as Obj).spec, scale.spec);
});

test('errors/strategic-patch-container-image-ok: container image by merge key on the rich pod', () => {
  const before = readJson('objects', 'Pod.pb.json') as Obj;
  const patch = readJson('errors', 'strategic-patch-container-image-ok.request.json');
  const after = JSON.parse(dumpBody('errors', 'strategic-patch-container-image-ok.txt').body) as Obj;
  const patched = strategicMergePatch(before, patch, Pod) as Obj;
  assert.deepEqual(patched.spec, after.spec);
  assert.deepEqual(patched.metadata.labels, after.metadata.labels);
});

function assertStatus(fn: () => unknown, file: string): void {
  const { status, body } = dumpBody('errors', file);
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof PatchError, String(e));
    assert.equal(e.code, status);
    assert.equal(e.toJson(), body);
    return true;
  });
}

test('errors/json-patch-test-failed and json-patch-bad-path: 422 bodies byte for byte', () => {
  const configmap = readJson('objects', 'ConfigMap.created.json');
  assertStatus(() => applyJsonPatch(configmap, readJson('errors', 'json-patch-test-failed.request.json')), 'json-patch-test-failed.txt');
  assertStatus(() => applyJsonPatch(configmap, readJson('errors', 'json-patch-bad-path.request.json')), 'json-patch-bad-path.txt');
});

test('errors/patch-wrong-content-type: 415 body byte for byte', () => {
  assertStatus(() => patchTypeFromContentType('application/json'), 'patch-wrong-content-type.txt');
  assert.equal(patchTypeFromContentType('application/strategic-merge-patch+json; charset=utf-8'), 'strategic');
  assert.equal(patchTypeFromContentType('application/merge-patch+json'), 'merge');
  assert.equal(patchTypeFromContentType('application/json-patch+json'), 'json');
  assert.equal(patchTypeFromContentType('application/apply-patch+yaml'), 'apply');
  assert.throws(() => patchTypeFromContentType('application/strategic-merge-patch+json', { strategic: false }), PatchError);
  assert.throws(() => patchTypeFromContentType(undefined), PatchError);
});

test('managed-fields step 02: the JSON patch kubectl sends to migrate managedFields', () => {
  const mf = (file: string) => readJson('managed-fields', 'requests', file) as Obj;
  const before = mf('02-server-side-apply-manager-a.PATCH.response.json');
  const after = mf('02-server-side-apply-manager-a.2.PATCH.response.json');
  const patched = applyJsonPatch(before, mf('02-server-side-apply-manager-a.2.PATCH.json')) as Obj;
  assert.deepEqual(patched.metadata.managedFields, after.metadata.managedFields);
  assert.deepEqual(patched.spec, after.spec);
  assert.equal(patched.metadata.resourceVersion, before.metadata.resourceVersion);
});
