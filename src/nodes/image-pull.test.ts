import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod } from '../api/types.js';
import { fullReference, globMatches, isUnresolvableRegistry, parseImageReference } from './image-reference.js';
import { DEFAULT_IMAGE_PULL, goDuration, planImagePull, pullPolicyOf, pullTimeline, type ImagePlan } from './image-pull.js';
import { simulatePod } from './simulate.js';

const T0 = Date.UTC(2026, 0, 1);
const pod = (annotations: Record<string, string> = {}, containers: Container[] = [{ name: 'c', image: 'nginx' }]): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', uid: 'uid-1', annotations },
  spec: { containers },
});
const none = () => false;

test('image references parse as the kubelet parses them', () => {
  assert.equal(fullReference(parseImageReference('nginx')), 'docker.io/library/nginx:latest');
  assert.equal(fullReference(parseImageReference('bitnami/nginx:1.27')), 'docker.io/bitnami/nginx:1.27');
  assert.equal(fullReference(parseImageReference('registry.k8s.io/pause:3.10')), 'registry.k8s.io/pause:3.10');
  assert.equal(fullReference(parseImageReference('localhost:5000/app')), 'localhost:5000/app:latest');
  assert.equal(parseImageReference(`busybox@sha256:${'a'.repeat(64)}`).digest, `sha256:${'a'.repeat(64)}`);
  assert.throws(() => parseImageReference('Nginx'), /repository name \(library\/Nginx\) must be lowercase/);
  assert.throws(() => parseImageReference('nginx:'), /^Error: invalid reference format$/);
  assert.throws(() => parseImageReference('ngi nx'), /invalid reference format/);
  assert.throws(() => parseImageReference('a'.repeat(64)), /cannot specify 64-byte hexadecimal strings/);
  assert.ok(isUnresolvableRegistry('registry.invalid'));
  assert.ok(isUnresolvableRegistry('my.registry.test:5000'));
  assert.ok(isUnresolvableRegistry('foo.localhost'));
  assert.ok(!isUnresolvableRegistry('localhost:5000'));
  assert.ok(!isUnresolvableRegistry('docker.io'));
  assert.ok(globMatches('*/broken*', 'docker.io/library/broken:1'));
  assert.ok(!globMatches('broken', 'docker.io/library/broken:1'));
});

test('pull policy: the API server default when absent; the plan follows the policy and the node cache', () => {
  assert.equal(pullPolicyOf({ name: 'c', image: 'nginx' }), 'Always');
  assert.equal(pullPolicyOf({ name: 'c', image: 'nginx:latest' }), 'Always');
  assert.equal(pullPolicyOf({ name: 'c', image: 'nginx:1.27' }), 'IfNotPresent');
  assert.equal(pullPolicyOf({ name: 'c', image: 'localhost:5000/app' }), 'Always');
  const opts = { ...DEFAULT_IMAGE_PULL, pullMs: 1200 };
  const cached = (ref: string) => ref === 'docker.io/library/nginx:1.27';
  const ifNot = (image: string) => planImagePull(pod(), { name: 'c', image, imagePullPolicy: 'IfNotPresent' }, cached, opts);
  assert.equal(ifNot('nginx:1.27').kind, 'present');
  assert.deepEqual({ ...ifNot('nginx:1.28'), sizeBytes: 0 }, { kind: 'pull', pullMs: 1200, everyStart: false, sizeBytes: 0, ref: 'docker.io/library/nginx:1.28' });
  const always = planImagePull(pod(), { name: 'c', image: 'nginx:1.27', imagePullPolicy: 'Always' }, cached, opts);
  assert.equal(always.kind, 'pull');
  assert.equal(always.kind === 'pull' && always.everyStart, true);
  assert.equal(planImagePull(pod(), { name: 'c', image: 'nginx:1.27', imagePullPolicy: 'Never' }, cached, opts).kind, 'present');
  assert.deepEqual(planImagePull(pod(), { name: 'c', image: 'nginx:2', imagePullPolicy: 'Never' }, cached, opts), { kind: 'never', message: 'Container image "nginx:2" is not present with pull policy of Never' });
  assert.deepEqual(planImagePull(pod(), { name: 'c', image: 'Nginx', imagePullPolicy: 'Never' }, cached, opts), {
    kind: 'invalid',
    message: 'Failed to apply default image tag "Nginx": couldn\'t parse image reference "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase',
  });
});

test('failing pulls: reserved registry TLDs, --image-pull-failures globs, the annotation; slow pulls', () => {
  const plan = (image: string, annotations: Record<string, string> = {}, failures: string[] = []) => planImagePull(pod(annotations), { name: 'c', image }, none, { ...DEFAULT_IMAGE_PULL, failures });
  assert.deepEqual(plan('registry.invalid/app:1.0'), {
    kind: 'fail',
    pullMs: 0,
    error: 'failed to pull and unpack image "registry.invalid/app:1.0": failed to resolve reference "registry.invalid/app:1.0": failed to do request: Head "https://registry.invalid/v2/app/manifests/1.0": dial tcp: lookup registry.invalid: no such host',
  });
  assert.equal(plan('ghcr.io/acme/broken:2', {}, ['ghcr.io/acme/*']).kind, 'fail');
  assert.equal(plan('ghcr.io/acme/ok:2', {}, ['*/broken*']).kind, 'pull');
  const annotated = plan('nginx:1', { 'kubelite.dev/image-pull': 'fail' });
  assert.equal(annotated.kind === 'fail' && annotated.error, 'failed to pull and unpack image "docker.io/library/nginx:1": failed to resolve reference "docker.io/library/nginx:1": docker.io/library/nginx:1: not found');
  const slow = plan('nginx:1', { 'kubelite.dev/c.image-pull': 'slow:7' });
  assert.equal(slow.kind === 'pull' && slow.pullMs, 7000);
});

test('a failing pull: ErrImagePull, then ImagePullBackOff, retried after 10 s doubling to 300 s; none after the kill', () => {
  const plan: ImagePlan = { kind: 'fail', pullMs: 0, error: 'boom' };
  const at = (s: number, killAt?: number) => pullTimeline(plan, 'x', T0, T0 + s * 1000, killAt, 10_000);
  assert.deepEqual(at(0), { waitingReason: 'ErrImagePull', waitingMessage: 'boom', attempts: 1, backingOff: false, next: T0 + 1000 });
  assert.deepEqual(at(1), { waitingReason: 'ImagePullBackOff', waitingMessage: 'Back-off pulling image "x": ErrImagePull: boom', attempts: 1, backingOff: true, next: T0 + 10_000 });
  assert.equal(at(10).attempts, 2);
  assert.equal(at(10).waitingReason, 'ErrImagePull');
  assert.equal(at(29).next, T0 + 30_000); // second wait 20 s
  assert.equal(at(30).attempts, 3);
  // waits 10, 20, 40, 80, 160, 300, 300, ...: attempt starts at 0, 10, 30, 70, 150, 310, 610, 910
  assert.equal(at(909).attempts, 7);
  assert.equal(at(910).attempts, 8);
  const killed = at(20, T0 + 15_000);
  assert.equal(killed.attempts, 2);
  assert.equal(killed.next, undefined);
  const ok = pullTimeline({ kind: 'pull', pullMs: 1500, everyStart: false, sizeBytes: 1, ref: 'r' }, 'x', T0, T0 + 1000, undefined, 10_000);
  assert.deepEqual(ok, { waitingReason: 'ContainerCreating', attempts: 1, backingOff: false, next: T0 + 1500 });
  assert.equal(pullTimeline({ kind: 'pull', pullMs: 1500, everyStart: false, sizeBytes: 1, ref: 'r' }, 'x', T0, T0 + 1500, undefined, 10_000).runStart, T0 + 1500);
});

test('the pod timeline: a container waits for its image; one that never comes keeps the pod Pending; deletion stops it', () => {
  const p = pod({}, [{ name: 'c', image: 'registry.invalid/app:1' }]);
  const images = new Map([['c', planImagePull(p, p.spec!.containers![0]!, none, DEFAULT_IMAGE_PULL)]]);
  const sim = (s: number, deletion?: { at: number; graceMs: number }) => simulatePod({ pod: p, acceptedAt: T0, startDelayMs: 0, now: T0 + s * 1000, hostIP: '10.0.0.2', podIP: '10.64.0.2', images, imageBackoffMs: 10_000, ...(deletion ? { deletion } : {}) });
  assert.equal(sim(0).status.containerStatuses![0]!.state!.waiting!.reason, 'ErrImagePull');
  const r = sim(5);
  assert.equal(r.phase, 'Pending');
  assert.equal(r.status.containerStatuses![0]!.state!.waiting!.reason, 'ImagePullBackOff');
  assert.match(String(r.status.containerStatuses![0]!.state!.waiting!.message), /^Back-off pulling image "registry.invalid\/app:1": ErrImagePull: failed to pull and unpack image/);
  assert.equal(r.next, T0 + 10_000);
  const gone = sim(12, { at: T0 + 11_000, graceMs: 30_000 });
  assert.equal(gone.stopped, true);
  const slow = new Map([['c', { kind: 'pull' as const, pullMs: 2000, everyStart: false, sizeBytes: 1, ref: 'r' }]]);
  const s1 = simulatePod({ pod: pod(), acceptedAt: T0, startDelayMs: 0, now: T0 + 1000, hostIP: '10.0.0.2', podIP: '10.64.0.2', images: slow });
  assert.equal(s1.status.containerStatuses![0]!.state!.waiting!.reason, 'ContainerCreating');
  assert.equal(s1.next, T0 + 2000);
  const s2 = simulatePod({ pod: pod(), acceptedAt: T0, startDelayMs: 0, now: T0 + 2000, hostIP: '10.0.0.2', podIP: '10.64.0.2', images: slow });
  assert.equal(s2.phase, 'Running');
  assert.equal(s2.status.containerStatuses![0]!.state!.running!.startedAt, new Date(T0 + 2000).toISOString().replace(/\.\d+Z$/, 'Z'));
});

test('durations print as Go prints them', () => {
  assert.deepEqual([0, 5, 500, 1200, 1234.9, 60_000, 90_500, 3_600_000].map(goDuration), ['0s', '5ms', '500ms', '1.2s', '1.234s', '1m0s', '1m30.5s', '1h0m0s']);
});
