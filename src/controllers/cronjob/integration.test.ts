// The cronjob, job and ttl-after-finished controllers running together (run(), real work queues
// on the fake clock) against the fake clientset; the test plays the kubelet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { newRateLimitingQueue } from '../../client/workqueue.js';
import { CRONJOBS, JOBS, PODS, isJobSucceeded } from '../common/jobs.js';
import { waitFor } from '../common/testutil.js';
import { JobController } from '../job/controller.js';
import { TTLAfterFinishedController } from '../ttlafterfinished/controller.js';
import { CronJobController } from './controller.js';

test('cronjob → job → pods → Complete → lastSuccessfulTime → ttl deletes the job, on a fake clock', async () => {
  const cj: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'tick', namespace: 'default', uid: 'uid-tick', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: {
      schedule: '* * * * *',
      concurrencyPolicy: 'Forbid',
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { spec: { ttlSecondsAfterFinished: 30, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
    },
  };
  const ctx = fakeControllerContext({ objects: [cj] });
  const clock = ctx.clock;
  // The API server generates a job's selector and labels; the fake does not, so do it here.
  ctx.clientset.prependReactor('create', 'jobs', (action) => {
    const job = structuredClone(action.object!);
    const m = job.metadata as Record<string, unknown>;
    const uid = `uid-${String(m.name)}`;
    m.uid = uid;
    const spec = job.spec as Record<string, unknown>;
    spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    const t = spec.template as { metadata?: { labels?: Record<string, string> } };
    t.metadata = { ...(t.metadata ?? {}), labels: { ...(t.metadata?.labels ?? {}), 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': String(m.name) } };
    if (ctx.clientset.tracker.get(JOBS, 'default', String(m.name))) return undefined;
    return { handled: true, result: ctx.clientset.tracker.add(job, JOBS) };
  });
  const controllers = [
    new CronJobController(ctx, { queue: newRateLimitingQueue({ clock }) }),
    new JobController(ctx, { queue: newRateLimitingQueue({ clock }), orphanQueue: newRateLimitingQueue({ clock }), batchPeriodMs: 0 }),
    new TTLAfterFinishedController(ctx, { queue: newRateLimitingQueue({ clock }) }),
  ];
  const ac = new AbortController();
  const running = Promise.all(controllers.map((c) => c.run(1, ac.signal)));
  try {
    const jobs = (): KubeObject[] => ctx.clientset.tracker.list(JOBS, 'default');
    const pods = (): KubeObject[] => ctx.clientset.tracker.list(PODS, 'default');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(jobs().length, 0, 'nothing before 00:01');
    clock.advance(60_000 + 100);
    await waitFor(() => pods().length === 1, 2000, 'the job and its pod');
    assert.deepEqual(
      jobs().map((j) => (j.metadata as { name: string }).name),
      [`tick-${Date.UTC(2026, 0, 1, 0, 1) / 60_000}`],
    );
    // The kubelet: the pod runs and succeeds.
    const pod = pods()[0]!;
    pod.status = { phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, finishedAt: '2026-01-01T00:01:05Z' } } }] };
    clock.advance(5000);
    ctx.clientset.tracker.add(pod);
    await waitFor(() => jobs().length === 1 && isJobSucceeded(jobs()[0]!), 2000, 'job Complete');
    await waitFor(() => (ctx.clientset.tracker.get(CRONJOBS, 'default', 'tick')!.status as { lastSuccessfulTime?: string }).lastSuccessfulTime !== undefined, 2000, 'lastSuccessfulTime');
    const st = ctx.clientset.tracker.get(CRONJOBS, 'default', 'tick')!.status as { active?: unknown[]; lastScheduleTime?: string };
    assert.equal(st.active, undefined);
    assert.equal(st.lastScheduleTime, '2026-01-01T00:01:00Z');
    // ttlSecondsAfterFinished: 30 after the job finished.
    clock.advance(31_000);
    await waitFor(() => jobs().length === 0, 2000, 'the ttl controller deleting the job');
  } finally {
    ac.abort();
    await running;
  }
});
