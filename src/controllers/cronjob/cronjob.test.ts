import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeControllerContext, type FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { CRONJOBS, JOBS } from '../common/jobs.js';
import { CronJobController } from './controller.js';

const CJ_UID = 'cj-uid';
const min = (iso: string): number => Math.floor(Date.parse(iso) / 60_000);

function cronJob(spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'cj', namespace: 'default', uid: CJ_UID, creationTimestamp: '2026-01-01T00:00:30Z', resourceVersion: '1' },
    spec: {
      schedule: '*/5 * * * *',
      concurrencyPolicy: 'Allow',
      jobTemplate: { metadata: { labels: { team: 'a' }, annotations: { note: 'x' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
      ...spec,
    },
    status,
  };
}

function ownedJob(name: string, o: { finished?: 'Complete' | 'Failed'; start?: string; completion?: string; uid?: string } = {}): KubeObject {
  const conditions = o.finished ? [{ type: o.finished, status: 'True' }] : [];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'default',
      uid: o.uid ?? `uid-${name}`,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'cj', uid: CJ_UID, controller: true, blockOwnerDeletion: true }],
    },
    spec: {},
    status: { ...(o.start ? { startTime: o.start } : {}), ...(o.completion ? { completionTime: o.completion } : {}), conditions },
  };
}

const ref = (name: string) => ({ kind: 'Job', namespace: 'default', name, uid: `uid-${name}`, apiVersion: 'batch/v1' });

function setup(cj: KubeObject, jobs: KubeObject[], now: string): { ctx: FakeControllerContext; c: CronJobController } {
  const ctx = fakeControllerContext({ objects: [cj, ...jobs], now: Date.parse(now) });
  const c = new CronJobController(ctx);
  return { ctx, c };
}

const getCj = (ctx: FakeControllerContext): KubeObject => ctx.clientset.tracker.get(CRONJOBS, 'default', 'cj')!;
const jobNames = (ctx: FakeControllerContext): string[] => ctx.clientset.tracker.list(JOBS, 'default').map((j) => String((j.metadata as { name: string }).name)).sort();
const reasons = (ctx: FakeControllerContext): string[] => ctx.events.map((e) => e.reason);
const cjStatus = (ctx: FakeControllerContext) => (getCj(ctx).status ?? {}) as { active?: { name: string }[]; lastScheduleTime?: string; lastSuccessfulTime?: string };

test('cronjob: nothing before the first schedule time; requeued just after it', async () => {
  const { ctx, c } = setup(cronJob({}), [], '2026-01-01T00:04:00Z');
  const after = await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), []);
  assert.equal(after, 60_000 + 100);
});

test('cronjob: starts the job of the scheduled time with a deterministic name, owner, labels and annotation', async () => {
  const { ctx, c } = setup(cronJob({}), [], '2026-01-01T00:05:10Z');
  const after = await c.sync('default/cj');
  const name = `cj-${min('2026-01-01T00:05:00Z')}`;
  assert.deepEqual(jobNames(ctx), [name]);
  const job = ctx.clientset.tracker.get(JOBS, 'default', name)!;
  const m = job.metadata as Record<string, unknown>;
  assert.deepEqual(m.labels, { team: 'a' });
  assert.deepEqual(m.annotations, { note: 'x', 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T00:05:00Z' });
  assert.deepEqual(m.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'cj', uid: CJ_UID, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual((job.spec as { template: unknown }).template, { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } });
  const st = cjStatus(ctx);
  assert.equal(st.lastScheduleTime, '2026-01-01T00:05:00Z');
  assert.deepEqual(
    st.active?.map((r) => ({ ...r, resourceVersion: undefined })),
    [{ kind: 'Job', namespace: 'default', name, uid: (job.metadata as { uid: string }).uid, apiVersion: 'batch/v1', resourceVersion: undefined }],
  );
  assert.equal(after, 4 * 60_000 + 50_000 + 100, 'requeued at 00:10:00.1');
  assert.deepEqual(ctx.events.map((e) => `${e.type} ${e.reason} ${e.message}`), [`Normal SuccessfulCreate Created job ${name}`]);
  // The same schedule time is not started twice.
  await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), [name]);
});

test('cronjob: spec.timeZone schedules in that zone; the annotation carries its offset', async () => {
  const { ctx, c } = setup(cronJob({ schedule: '0 9 * * *', timeZone: 'America/New_York' }), [], '2026-01-01T14:00:30Z');
  await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), [`cj-${min('2026-01-01T14:00:00Z')}`]);
  const job = ctx.clientset.tracker.list(JOBS, 'default')[0]!;
  assert.equal((job.metadata as { annotations: Record<string, string> }).annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-01-01T09:00:00-05:00');
});

const running = `cj-${min('2026-01-01T00:05:00Z')}`;
for (const c of [
  { policy: 'Allow', jobs: [running, `cj-${min('2026-01-01T00:10:00Z')}`], active: 2, events: ['SuccessfulCreate'] },
  { policy: 'Forbid', jobs: [running], active: 1, events: ['JobAlreadyActive'] },
  { policy: 'Replace', jobs: [`cj-${min('2026-01-01T00:10:00Z')}`], active: 1, events: ['SuccessfulDelete', 'SuccessfulCreate'] },
]) {
  test(`cronjob: concurrencyPolicy ${c.policy} with a job still running`, async () => {
    const status = { active: [ref(running)], lastScheduleTime: '2026-01-01T00:05:00Z' };
    const { ctx, c: ctrl } = setup(cronJob({ concurrencyPolicy: c.policy }, status), [ownedJob(running)], '2026-01-01T00:10:05Z');
    const after = await ctrl.sync('default/cj');
    assert.deepEqual(jobNames(ctx), c.jobs);
    assert.equal(cjStatus(ctx).active?.length ?? 0, c.active);
    assert.deepEqual(reasons(ctx), c.events);
    assert.equal(after, 4 * 60_000 + 55_000 + 100);
    if (c.policy === 'Replace') {
      const del = ctx.clientset.actions.find((a) => a.verb === 'delete');
      assert.deepEqual(del?.options, { propagationPolicy: 'Background' });
    }
  });
}

test('cronjob: more than 100 missed times — a TooManyMissedTimes warning and only the latest is started', async () => {
  const { ctx, c } = setup(cronJob({ schedule: '* * * * *' }), [], '2026-01-01T03:00:20Z');
  await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), [`cj-${min('2026-01-01T03:00:00Z')}`]);
  const w = ctx.events.find((e) => e.reason === 'TooManyMissedTimes');
  assert.equal(w?.type, 'Warning');
  assert.equal(w?.message, 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
});

test('cronjob: a few missed times start only the latest, without a warning', async () => {
  const { ctx, c } = setup(cronJob({ schedule: '* * * * *' }), [], '2026-01-01T00:30:20Z');
  await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), [`cj-${min('2026-01-01T00:30:00Z')}`]);
  assert.deepEqual(reasons(ctx), ['SuccessfulCreate']);
});

test('cronjob: startingDeadlineSeconds bounds the missed times counted', async () => {
  const { ctx, c } = setup(cronJob({ schedule: '* * * * *', startingDeadlineSeconds: 200 }), [], '2026-01-01T03:00:20Z');
  await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), [`cj-${min('2026-01-01T03:00:00Z')}`]);
  assert.ok(!reasons(ctx).includes('TooManyMissedTimes'));
});

test('cronjob: a schedule time older than startingDeadlineSeconds is missed', async () => {
  const { ctx, c } = setup(cronJob({ schedule: '0 * * * *', startingDeadlineSeconds: 10 }), [], '2026-01-01T01:00:30Z');
  const after = await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), []);
  assert.deepEqual(reasons(ctx), []);
  assert.equal(after, 59 * 60_000 + 30_000 + 100);
});

test('cronjob: suspend starts nothing and does not requeue', async () => {
  const { ctx, c } = setup(cronJob({ suspend: true }), [], '2026-01-01T00:05:10Z');
  assert.equal(await c.sync('default/cj'), undefined);
  assert.deepEqual(jobNames(ctx), []);
});

test('cronjob: finished jobs leave status.active; lastSuccessfulTime; missing jobs are dropped', async () => {
  const status = { active: [ref('cj-done'), ref('cj-gone')], lastScheduleTime: '2026-01-01T00:05:00Z' };
  const jobs = [ownedJob('cj-done', { finished: 'Complete', start: '2026-01-01T00:05:01Z', completion: '2026-01-01T00:06:00Z' })];
  const { ctx, c } = setup(cronJob({}, status), jobs, '2026-01-01T00:07:00Z');
  await c.sync('default/cj');
  const st = cjStatus(ctx);
  assert.equal(st.active, undefined);
  assert.deepEqual(reasons(ctx).sort(), ['MissingJob', 'SawCompletedJob']);
  await c.sync('default/cj');
  assert.equal(cjStatus(ctx).lastSuccessfulTime, '2026-01-01T00:06:00Z');
});

test('cronjob: history limits delete the oldest finished jobs', async () => {
  const jobs = [
    ownedJob('ok-1', { finished: 'Complete', start: '2026-01-01T00:01:00Z' }),
    ownedJob('ok-2', { finished: 'Complete', start: '2026-01-01T00:02:00Z' }),
    ownedJob('ok-3', { finished: 'Complete', start: '2026-01-01T00:03:00Z' }),
    ownedJob('bad-1', { finished: 'Failed', start: '2026-01-01T00:01:30Z' }),
    ownedJob('bad-2', { finished: 'Failed', start: '2026-01-01T00:02:30Z' }),
    ownedJob('running', { start: '2026-01-01T00:03:30Z' }),
  ];
  const status = { active: [ref('running')], lastScheduleTime: '2026-01-01T00:00:00Z' };
  const { ctx, c } = setup(cronJob({ schedule: '@hourly', successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1 }, status), jobs, '2026-01-01T00:04:00Z');
  await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), ['bad-2', 'ok-3', 'running']);
  assert.deepEqual(reasons(ctx), ['SuccessfulDelete', 'SuccessfulDelete', 'SuccessfulDelete']);
  assert.deepEqual(cjStatus(ctx).active?.map((r) => r.name), ['running']);
});

test('cronjob: a changed schedule requeues at the new next time', async () => {
  const { ctx, c } = setup(cronJob({}), [], '2026-01-01T00:04:00Z');
  const delayed: [string, number][] = [];
  c.queue.addAfter = (k: string, ms: number) => void delayed.push([k, ms]);
  const cj = getCj(ctx);
  (cj.spec as Record<string, unknown>).schedule = '30 * * * *';
  ctx.clientset.tracker.add(cj);
  assert.deepEqual(delayed, [['default/cj', 26 * 60_000 + 100]]);
});

test('cronjob: a TZ= prefix in the schedule still runs, with an UnsupportedSchedule warning; a bad schedule is reported', async () => {
  const { ctx, c } = setup(cronJob({ schedule: 'TZ=Asia/Tokyo 0 9 * * *' }), [], '2026-01-02T00:00:30Z');
  await c.sync('default/cj');
  assert.deepEqual(jobNames(ctx), [`cj-${min('2026-01-02T00:00:00Z')}`]);
  assert.equal(ctx.events[0]?.reason, 'UnsupportedSchedule');
  assert.equal(ctx.events[0]?.type, 'Warning');
  const bad = setup(cronJob({ schedule: '61 * * * *' }), [], '2026-01-01T00:00:30Z');
  assert.equal(await bad.c.sync('default/cj'), undefined);
  assert.deepEqual(bad.ctx.events.map((e) => `${e.type} ${e.reason} ${e.message}`), ['Warning UnparseableSchedule unparseable schedule: "61 * * * *" : end of range (61) above maximum (59): 61']);
});
