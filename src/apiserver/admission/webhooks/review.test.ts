// The AdmissionReview a webhook is sent and the checks of its answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import type { AdmissionAttributes } from '../types.js';
import { answerOf, BadAnswer, callFailure, denial, reviewOf } from './review.js';

const kind = findResource('apps', 'v1', 'deployments')!;
const a: AdmissionAttributes = {
  operation: 'UPDATE',
  kind,
  group: 'apps',
  resource: 'deployments',
  subresource: '',
  namespace: 'ns',
  name: 'web',
  object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ns' }, spec: { replicas: 2 } },
  oldObject: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ns' }, spec: { replicas: 1 } },
  user: { name: 'alice', groups: ['devs'] },
  dryRun: true,
};

test('the review carries the request, its objects in the matched version, the user and dry run', () => {
  const { uid, review } = reviewOf(a, kind, a.object);
  const request = review.request as Record<string, any>;
  assert.equal(request.uid, uid);
  assert.deepEqual([request.kind, request.resource, request.operation, request.name, request.namespace, request.dryRun], [{ group: 'apps', version: 'v1', kind: 'Deployment' }, { group: 'apps', version: 'v1', resource: 'deployments' }, 'UPDATE', 'web', 'ns', true]);
  assert.equal(request.object.spec.replicas, 2);
  assert.equal(request.oldObject.spec.replicas, 1);
  assert.deepEqual(request.userInfo, { username: 'alice', groups: ['devs'] });
  const beta = findResource('apps', 'v1beta2', 'deployments')!;
  assert.equal((reviewOf(a, beta, a.object).review.request as Record<string, any>).object.apiVersion, 'apps/v1beta2');
});

test('answers are checked as Kubernetes checks them', () => {
  const ok = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u1', allowed: true, warnings: ['w'] } };
  assert.deepEqual(answerOf(ok, 'u1'), { allowed: true, warnings: ['w'] });
  assert.throws(() => answerOf({ ...ok, response: { ...ok.response, uid: 'other' } }, 'u1'), (e: unknown) => e instanceof BadAnswer && /expected response.uid="u1", got "other"/.test(e.message));
  assert.throws(() => answerOf({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview' }, 'u1'), /expected webhook response of admission.k8s.io\/v1, Kind=AdmissionReview, got admission.k8s.io\/v1beta1/);
  assert.throws(() => answerOf('nope', 'u1'), /not an object/);
  assert.throws(() => answerOf({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u1' } }, 'u1'), /no "allowed" field/);
});

test('denials and failures read as Kubernetes writes them', () => {
  const d = denial('check.example.com', { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'nope' } });
  assert.deepEqual([d.code, d.reason, d.message], [403, 'Forbidden', 'admission webhook "check.example.com" denied the request: nope']);
  // No code (or one below 400): 400, as Kubernetes' ToStatusErr.
  assert.equal(denial('check.example.com', { allowed: false, status: { message: 'nope' } }).code, 400);
  const silent = denial('check.example.com', { allowed: false, status: { code: 422 } });
  assert.deepEqual([silent.code, silent.message], [422, 'admission webhook "check.example.com" denied the request without explanation']);
  const failed = callFailure('check.example.com', new Error('Post "https://x": connect ECONNREFUSED'));
  assert.deepEqual([failed.code, failed.message], [500, 'Internal error occurred: failed calling webhook "check.example.com": failed to call webhook: Post "https://x": connect ECONNREFUSED']);
});
