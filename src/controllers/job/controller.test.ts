import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeControllerContext, type FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { JOBS, PODS } from '../common/jobs.js';
import { rfc3339 } from '../common/time.js';
import { remainingBackoffMs } from './backoff.js';
import { JobController } from './controller.js';
import { JOB_TRACKING_FINALIZER } from './tracking-finalizer.js';

const UID = 'job-uid-1';

function job(name: string, spec: Record<string, unknown>): KubeObject {
  const labels = { 'batch.kubernetes.io/controller-uid': UID, 'batch.kubernetes.io/job-name': name, 'controller-uid': UID, 'job-name': name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid: UID, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: {
      parallelism: 1,
      backoffLimit: 6,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': UID } },
      template: { metadata: { labels: { ...labels, app: 'pi' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
  };
}

interface Harness {
  ctx: FakeControllerContext;
  c: JobController;
  delayed: [string, number][];
  sync(): Promise<void>;
  job(): KubeObject;
  pods(): KubeObject[];
  active(): KubeObject[];
  finish(pod: KubeObject, phase: 'Succeeded' | 'Failed'): void;
  setSpec(patch: Record<string, unknown>): void;
  reasons(): string[];
}

function harness(j: KubeObject): Harness {
  const ctx = fakeControllerContext({ objects: [j] });
  const c = new JobController(ctx, { batchPeriodMs: 0 });
  const delayed: [string, number][] = [];
  c.queue.addAfter = (k: string, ms: number) => void delayed.push([k, ms]);
  const name = String((j.metadata as { name: string }).name);
  const h: Harness = {
    ctx,
    c,
    delayed,
    sync: () => c.sync(`default/${name}`),
    job: () => ctx.clientset.tracker.get(JOBS, 'default', name)!,
    pods: () => ctx.clientset.tracker.list(PODS, 'default'),
    active: () => h.pods().filter((p) => !['Succeeded', 'Failed'].includes(String((p.status as { phase?: string } | undefined)?.phase)) && !(p.metadata as { deletionTimestamp?: string }).deletionTimestamp),
    finish(pod, phase) {
      const p = structuredClone(pod);
      p.status = {
        phase,
        containerStatuses: [{ name: 'c', restartCount: 0, state: { terminated: { exitCode: phase === 'Succeeded' ? 0 : 1, finishedAt: rfc3339(ctx.now()) } } }],
      };
      ctx.clientset.tracker.add(p);
    },
    setSpec(patch) {
      const cur = h.job();
      cur.spec = { ...(cur.spec as object), ...patch };
      ctx.clientset.tracker.add(cur);
    },
    reasons: () => ctx.events.map((e) => e.reason),
  };
  return h;
}

const status = (j: KubeObject): Record<string, unknown> => (j.status ?? {}) as Record<string, unknown>;
const conds = (j: KubeObject): string[] => ((status(j).conditions ?? []) as { type: string; status: string; reason?: string }[]).map((c) => `${c.type}=${c.status}${c.reason ? `/${c.reason}` : ''}`);

test('job: completions 5 / parallelism 2 runs at most 2 pods and completes after 5 successes', async () => {
  const h = harness(job('pi', { completions: 5, parallelism: 2 }));
  await h.sync();
  let pods = h.pods();
  assert.equal(pods.length, 2);
  for (const p of pods) {
    const m = p.metadata as { name: string; finalizers: string[]; labels: Record<string, string>; ownerReferences: { kind: string; name: string; uid: string; controller: boolean; blockOwnerDeletion: boolean }[] };
    assert.match(m.name, /^pi-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(m.finalizers, [JOB_TRACKING_FINALIZER]);
    assert.equal(m.labels['job-name'], 'pi');
    assert.equal(m.labels.app, 'pi');
    assert.deepEqual(m.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: UID, controller: true, blockOwnerDeletion: true }]);
  }
  assert.equal(status(h.job()).active, 2);
  assert.equal(status(h.job()).startTime, '2026-01-01T00:00:00Z');
  for (let round = 0; round < 10 && !conds(h.job()).includes('Complete=True/CompletionsReached'); round++) {
    assert.ok(h.active().length <= 2, 'never more than parallelism pods');
    for (const p of h.active()) h.finish(p, 'Succeeded');
    h.ctx.clock.advance(5000);
    await h.sync();
  }
  const j = h.job();
  assert.deepEqual(conds(j), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
  assert.equal(status(j).succeeded, 5);
  assert.equal(status(j).active, 0);
  assert.equal(status(j).failed ?? 0, 0);
  assert.ok(status(j).completionTime);
  assert.deepEqual(status(j).uncountedTerminatedPods, {});
  assert.equal(h.pods().length, 6 - 1, '5 pods, all without the finalizer');
  for (const p of h.pods()) assert.deepEqual((p.metadata as { finalizers?: string[] }).finalizers ?? [], []);
  assert.equal(h.reasons().filter((r) => r === 'SuccessfulCreate').length, 5);
  assert.equal(h.reasons().at(-1), 'Completed');
  // A finished job is left alone.
  const actions = h.ctx.clientset.actions.length;
  await h.sync();
  assert.equal(h.ctx.clientset.actions.length, actions);
});

test('job: a Job informer behind the controller\'s own status write does not make it create pods past completions', async () => {
  const h = harness(job('pi', { completions: 2, parallelism: 2 }));
  await h.sync();
  assert.equal(h.active().length, 2);
  // The Job as the informer will keep showing it: before any success was counted.
  const lister = (h.c as unknown as { jobLister: { get(ns: string, name: string): KubeObject | undefined } }).jobLister;
  const stale = structuredClone(lister.get('default', 'pi')!);
  h.finish(h.active()[0]!, 'Succeeded');
  await h.sync();
  assert.equal(status(h.job()).succeeded, 1, 'the success is counted and its pod loses its finalizer');
  assert.equal(h.active().length, 1);
  // A pod event starts a sync while the Job watch still lags behind that write.
  lister.get = () => structuredClone(stale);
  await h.sync();
  assert.equal(h.pods().length, 2, 'no third pod for two completions');
  h.finish(h.active()[0]!, 'Succeeded');
  await h.sync();
  assert.equal(h.pods().length, 2);
  assert.equal(status(h.job()).succeeded, 2);
  assert.ok(conds(h.job()).includes('Complete=True/CompletionsReached'), conds(h.job()).join());
});

test('job: completions unset — the first success ends it once no pod runs', async () => {
  const h = harness(job('q', { parallelism: 2 }));
  await h.sync();
  assert.equal(h.pods().length, 2);
  const [a, b] = h.pods();
  h.finish(a!, 'Succeeded');
  await h.sync();
  assert.equal(h.pods().length, 2, 'no new pod after a success');
  assert.deepEqual(conds(h.job()), []);
  h.finish(b!, 'Succeeded');
  await h.sync();
  assert.deepEqual(conds(h.job()), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
  assert.equal(status(h.job()).succeeded, 2);
});

test('job: failed pods back off 10s then 20s and the job fails past backoffLimit', async () => {
  const h = harness(job('bo', { completions: 1, backoffLimit: 2 }));
  await h.sync();
  const waits: number[] = [];
  for (let i = 0; i < 3; i++) {
    const running = h.active();
    assert.equal(running.length, 1, `attempt ${i + 1} runs one pod`);
    h.finish(running[0]!, 'Failed');
    h.delayed.length = 0;
    await h.sync();
    if (i < 2) {
      assert.equal(h.active().length, 0, 'no replacement before the back-off');
      const d = h.delayed.find(([k]) => k === 'default/bo');
      assert.ok(d, 'requeued after the back-off');
      waits.push(d[1]);
      h.ctx.clock.advance(d[1]);
      await h.sync();
    }
  }
  assert.deepEqual(waits, [10_000, 20_000]);
  let j = h.job();
  assert.equal(status(j).failed, 3);
  assert.ok(conds(j).includes('FailureTarget=True/BackoffLimitExceeded'));
  assert.ok(conds(j).includes('Failed=True/BackoffLimitExceeded'));
  assert.equal(status(j).completionTime, undefined);
  const ev = h.ctx.events.find((e) => e.reason === 'BackoffLimitExceeded');
  assert.equal(ev?.type, 'Warning');
  assert.equal(ev?.message, 'Job has reached the specified backoff limit');
  j = h.job();
  assert.equal(status(j).active, 0);
});

test('job: back-off doubles from 10s and is capped at 6 minutes', () => {
  const rec = (n: number) => ({ key: 'k', failuresAfterLastSuccess: n, lastFailureTime: 0 });
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => remainingBackoffMs(rec(n), 0)),
    [10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 360_000, 360_000, 360_000],
  );
  assert.equal(remainingBackoffMs(rec(2), 5000), 15_000);
  assert.equal(remainingBackoffMs(rec(2), 25_000), 0);
  assert.equal(remainingBackoffMs(rec(0), 0), 0);
});

test('job: activeDeadlineSeconds deletes running pods and fails the job with DeadlineExceeded', async () => {
  const h = harness(job('dl', { parallelism: 2, completions: 4, activeDeadlineSeconds: 60 }));
  await h.sync();
  assert.equal(h.pods().length, 2);
  assert.deepEqual(h.delayed.filter(([k]) => k === 'default/dl').at(-1), ['default/dl', 60_000]);
  h.ctx.clock.advance(61_000);
  await h.sync();
  let j = h.job();
  assert.ok(conds(j).includes('FailureTarget=True/DeadlineExceeded'), conds(j).join());
  assert.equal(status(j).failed, 2, 'the deleted pods count as failed');
  assert.equal(h.pods().length, 0, 'pods deleted (their finalizer removed)');
  if (!conds(j).includes('Failed=True/DeadlineExceeded')) await h.sync();
  j = h.job();
  assert.ok(conds(j).includes('Failed=True/DeadlineExceeded'), conds(j).join());
  assert.equal(status(j).active, 0);
  assert.equal(h.reasons().filter((r) => r === 'SuccessfulDelete').length, 2);
  assert.ok(h.reasons().includes('DeadlineExceeded'));
});

test('job: suspend deletes active pods without counting them, resume starts them again', async () => {
  const h = harness(job('sus', { parallelism: 2, completions: 2, suspend: true }));
  await h.sync();
  let j = h.job();
  assert.equal(h.pods().length, 0);
  assert.deepEqual(conds(j), ['Suspended=True/JobSuspended']);
  assert.equal(status(j).startTime, undefined);
  h.setSpec({ suspend: false });
  h.ctx.clock.advance(1000);
  await h.sync();
  j = h.job();
  assert.equal(h.pods().length, 2);
  assert.deepEqual(conds(j), ['Suspended=False/JobResumed']);
  assert.equal(status(j).startTime, '2026-01-01T00:00:01Z');
  h.setSpec({ suspend: true });
  await h.sync();
  j = h.job();
  assert.equal(h.pods().length, 0);
  assert.equal(status(j).active, 0);
  assert.equal(status(j).failed ?? 0, 0);
  assert.deepEqual(conds(j), ['Suspended=True/JobSuspended']);
  assert.deepEqual(
    h.reasons().filter((r) => r === 'Suspended' || r === 'Resumed'),
    ['Suspended', 'Resumed', 'Suspended'],
  );
});

test('job: pods of a deleted job lose the tracking finalizer', async () => {
  const h = harness(job('gone', { parallelism: 1 }));
  await h.sync();
  const [p] = h.pods();
  h.ctx.clientset.tracker.remove(JOBS, 'default', 'gone');
  assert.equal(h.c.orphanQueue.len(), 1);
  await h.c.syncOrphanPod(`default/${(p!.metadata as { name: string }).name}`);
  assert.deepEqual((h.pods()[0]!.metadata as { finalizers?: string[] }).finalizers ?? [], []);
});

test('job: Indexed completion mode — one pod per index (annotation, label, hostname, env), completedIndexes, duplicates removed', async () => {
  const h = harness(job('ix', { completions: 3, parallelism: 2, completionMode: 'Indexed' }));
  await h.sync();
  const ixOf = (p: KubeObject): string => (p.metadata as { annotations: Record<string, string> }).annotations['batch.kubernetes.io/job-completion-index']!;
  let pods = h.active();
  assert.deepEqual(pods.map(ixOf).sort(), ['0', '1']);
  for (const p of pods) {
    const ix = ixOf(p);
    const m = p.metadata as { name: string; labels: Record<string, string> };
    assert.match(m.name, new RegExp(`^ix-${ix}-[a-z0-9]{5}$`));
    assert.equal(m.labels['batch.kubernetes.io/job-completion-index'], ix);
    const spec = p.spec as { hostname: string; containers: { env: unknown[] }[] };
    assert.equal(spec.hostname, `ix-${ix}`);
    assert.deepEqual(spec.containers[0]!.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
  }
  h.finish(pods.find((p) => ixOf(p) === '1')!, 'Succeeded');
  await h.sync();
  assert.equal(status(h.job()).completedIndexes, '1');
  assert.equal(status(h.job()).succeeded, 1);
  pods = h.active();
  assert.deepEqual(pods.map(ixOf).sort(), ['0', '2']);
  // A second pod of index 0 (e.g. created by hand) is removed.
  const dup = structuredClone(pods.find((p) => ixOf(p) === '0')!);
  Object.assign(dup.metadata as object, { name: 'ix-0-dupli', uid: 'dup-uid', creationTimestamp: '2026-01-01T00:00:05Z' });
  h.ctx.clientset.tracker.add(dup);
  await h.sync();
  assert.deepEqual(h.active().map(ixOf).sort(), ['0', '2']);
  assert.equal(h.active().filter((p) => ixOf(p) === '0').length, 1);
  for (const p of h.active()) h.finish(p, 'Succeeded');
  await h.sync();
  const j = h.job();
  assert.equal(status(j).completedIndexes, '0-2');
  assert.equal(status(j).succeeded, 3);
  assert.deepEqual(conds(j), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
});

test('job: completedIndexes intervals as Kubernetes writes them', async () => {
  const { formatIndexes, parseIndexes } = await import('./indexed.js');
  assert.equal(formatIndexes([]), '');
  assert.equal(formatIndexes([0, 1, 2, 4, 6, 7, 9]), '0-2,4,6,7,9');
  assert.deepEqual([...parseIndexes('0-2,4,6,7,9', 8)].sort((a, b) => a - b), [0, 1, 2, 4, 6, 7]);
});

test('job: restartPolicy OnFailure — container restarts count towards backoffLimit', async () => {
  const j = job('rs', { completions: 1, backoffLimit: 2 });
  ((j.spec as { template: { spec: Record<string, unknown> } }).template.spec).restartPolicy = 'OnFailure';
  const h = harness(j);
  await h.sync();
  const [p] = h.pods();
  const running = structuredClone(p!);
  running.status = { phase: 'Running', containerStatuses: [{ name: 'c', restartCount: 1 }] };
  h.ctx.clientset.tracker.add(running);
  await h.sync();
  assert.deepEqual(conds(h.job()), []);
  running.status = { phase: 'Running', containerStatuses: [{ name: 'c', restartCount: 2 }] };
  h.ctx.clientset.tracker.add(running);
  await h.sync();
  if (!conds(h.job()).includes('Failed=True/BackoffLimitExceeded')) await h.sync();
  assert.deepEqual(conds(h.job()), ['FailureTarget=True/BackoffLimitExceeded', 'Failed=True/BackoffLimitExceeded']);
  assert.equal(h.pods().length, 0, 'the running pod is deleted');
  assert.equal(status(h.job()).failed, 1);
});

const exitPolicy = {
  rules: [
    { action: 'FailJob', onExitCodes: { containerName: 'c', operator: 'In', values: [42] } },
    { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
  ],
};

function failWith(h: Harness, pod: KubeObject, exitCode: number, conditions: unknown[] = []): void {
  const p = structuredClone(pod);
  p.status = { phase: 'Failed', conditions, containerStatuses: [{ name: 'c', restartCount: 0, state: { terminated: { exitCode, finishedAt: rfc3339(h.ctx.now()) } } }] };
  h.ctx.clientset.tracker.add(p);
}

test('job: podFailurePolicy FailJob on an exit code fails the job at once (reason PodFailurePolicy)', async () => {
  const h = harness(job('pfp', { completions: 2, parallelism: 2, backoffLimit: 6, podFailurePolicy: exitPolicy }));
  await h.sync();
  const [a] = h.active();
  failWith(h, a!, 42);
  await h.sync();
  if (!conds(h.job()).some((c) => c.startsWith('Failed='))) await h.sync();
  const j = h.job();
  assert.deepEqual(conds(j), ['FailureTarget=True/PodFailurePolicy', 'Failed=True/PodFailurePolicy']);
  const msg = ((status(j).conditions as { message: string }[])[1]!).message;
  assert.match(msg, /^Container c for pod default\/pfp-[a-z0-9]{5} failed with exit code 42 matching FailJob rule at index 0$/);
  assert.equal(status(j).failed, 2, 'the failed pod and the deleted running one');
});

test('job: podFailurePolicy Ignore does not count the failure towards backoffLimit', async () => {
  const h = harness(job('ign', { completions: 1, backoffLimit: 0, podFailurePolicy: exitPolicy }));
  await h.sync();
  const [a] = h.active();
  failWith(h, a!, 1, [{ type: 'DisruptionTarget', status: 'True' }]);
  await h.sync();
  const j = h.job();
  assert.deepEqual(conds(j), []);
  assert.equal(status(j).failed ?? 0, 0);
  // The pod back-off still applies to an ignored failure (as Kubernetes' backoff record counts it).
  assert.equal(h.active().length, 0);
  assert.deepEqual(h.delayed.at(-1), ['default/ign', 10_000]);
  h.ctx.clock.advance(10_000);
  await h.sync();
  assert.equal(h.active().length, 1, 'a replacement pod after the back-off');
  // A failure the policy does not ignore counts: past backoffLimit 0.
  failWith(h, h.active()[0]!, 1);
  await h.sync();
  if (!conds(h.job()).some((c) => c.startsWith('Failed='))) await h.sync();
  assert.deepEqual(conds(h.job()), ['FailureTarget=True/BackoffLimitExceeded', 'Failed=True/BackoffLimitExceeded']);
});

test('job: successPolicy — an Indexed job succeeds once the rule\'s indexes did; the other pods are deleted uncounted', async () => {
  const h = harness(job('leader', { completions: 3, parallelism: 3, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0' }] } }));
  await h.sync();
  const ixOf = (p: KubeObject): string => (p.metadata as { annotations: Record<string, string> }).annotations['batch.kubernetes.io/job-completion-index']!;
  assert.equal(h.active().length, 3);
  h.finish(h.active().find((p) => ixOf(p) === '0')!, 'Succeeded');
  await h.sync();
  let j = h.job();
  assert.ok(conds(j).includes('SuccessCriteriaMet=True/SuccessPolicy'), conds(j).join());
  if (!conds(j).includes('Complete=True/SuccessPolicy')) await h.sync();
  j = h.job();
  assert.deepEqual(conds(j), ['SuccessCriteriaMet=True/SuccessPolicy', 'Complete=True/SuccessPolicy']);
  assert.equal((status(j).conditions as { message: string }[])[1]!.message, 'Matched rules at index 0');
  assert.equal(status(j).completedIndexes, '0');
  assert.equal(status(j).succeeded, 1);
  assert.equal(status(j).failed ?? 0, 0);
  assert.equal(h.active().length, 0);
});

test('job: backoffLimitPerIndex — an index retries with its failure count until it fails; the job fails with FailedIndexes', async () => {
  const h = harness(job('pi', { completions: 3, parallelism: 3, completionMode: 'Indexed', backoffLimit: undefined, backoffLimitPerIndex: 1 }));
  await h.sync();
  const ann = (p: KubeObject): Record<string, string> => (p.metadata as { annotations: Record<string, string> }).annotations;
  const ofIndex = (ix: string) => h.active().find((p) => ann(p)['batch.kubernetes.io/job-completion-index'] === ix)!;
  assert.equal(h.active().length, 3);
  for (const p of h.active()) assert.equal(ann(p)['batch.kubernetes.io/job-index-failure-count'], '0');
  const first = ofIndex('1');
  h.finish(first, 'Failed');
  h.delayed.length = 0;
  await h.sync();
  assert.equal(h.active().length, 2, 'index 1 waits for its back-off');
  assert.deepEqual(h.delayed.at(-1), ['default/pi', 10_000]);
  assert.deepEqual((h.pods().find((p) => (p.metadata as { name: string }).name === (first.metadata as { name: string }).name)!.metadata as { finalizers?: string[] }).finalizers, [JOB_TRACKING_FINALIZER], 'the failed pod keeps its finalizer until replaced');
  assert.equal(status(h.job()).failed ?? 0, 0, 'counted once its finalizer goes');
  assert.equal(status(h.job()).failedIndexes, '');
  h.ctx.clock.advance(10_000);
  await h.sync();
  const second = ofIndex('1');
  assert.ok(second, 'index 1 recreated');
  assert.equal(ann(second)['batch.kubernetes.io/job-index-failure-count'], '1');
  await h.sync(); // (the replacement's add event) the replaced pod's finalizer goes, it is counted
  assert.equal(status(h.job()).failed, 1);
  h.finish(second, 'Failed');
  await h.sync();
  assert.equal(status(h.job()).failedIndexes, '1');
  assert.equal(h.active().length, 2, 'a failed index is not retried');
  h.finish(ofIndex('0'), 'Succeeded');
  h.finish(ofIndex('2'), 'Succeeded');
  await h.sync();
  if (!conds(h.job()).some((c) => c.startsWith('Failed='))) await h.sync();
  const j = h.job();
  assert.deepEqual(conds(j), ['FailureTarget=True/FailedIndexes', 'Failed=True/FailedIndexes']);
  assert.equal(status(j).completedIndexes, '0,2');
  assert.equal(status(j).failed, 2);
  for (const p of h.pods()) assert.deepEqual((p.metadata as { finalizers?: string[] }).finalizers ?? [], []);
});

test('job: an orphan pod matching the selector is adopted with the tracking finalizer and counted', async () => {
  const h = harness(job('adopt', { completions: 1 }));
  const labels = { 'batch.kubernetes.io/controller-uid': UID, 'batch.kubernetes.io/job-name': 'adopt' };
  h.ctx.clientset.tracker.add({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', namespace: 'default', labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] }, status: { phase: 'Running' } });
  await h.sync();
  assert.equal(h.pods().length, 1, 'no new pod: the stray one is adopted');
  const m = h.pods()[0]!.metadata as { ownerReferences: { uid: string; controller: boolean }[]; finalizers: string[] };
  assert.deepEqual(m.ownerReferences.map((r) => [r.uid, r.controller]), [[UID, true]]);
  assert.deepEqual(m.finalizers, [JOB_TRACKING_FINALIZER]);
  h.finish(h.pods()[0]!, 'Succeeded');
  await h.sync();
  assert.deepEqual(conds(h.job()), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
  assert.equal(status(h.job()).succeeded, 1);
});
