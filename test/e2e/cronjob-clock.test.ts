// A CronJob firing against a real `kubelite apiserver`: the cronjob and job controllers run
// in-process on src/client's REST clientset and shared informers, the CronJob controller on a
// manual clock (its requeue timer fires when the test moves the clock to the schedule time).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/client/clock.js';
import { SharedInformerFactory } from '../../src/client/informers.js';
import { loadRestConfig } from '../../src/client/kubeconfig.js';
import { newClientset } from '../../src/client/rest.js';
import type { ControllerContext } from '../../src/client/types.js';
import { newRateLimitingQueue } from '../../src/client/workqueue.js';
import { CronJobController } from '../../src/controllers/cronjob/controller.js';
import { JobController } from '../../src/controllers/job/controller.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';

let api: RunningApiserver;

async function json(path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${api.url}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe('cronjob controller against kubelite apiserver, on a manual clock', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    const r = await json('/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }) });
    assert.ok(r.status === 201 || r.status === 409);
  });
  after(async () => {
    await api?.stop();
  });

  it('fires at the schedule time: job <cronjob>-<minutes>, its pod, Complete, status.active and lastSuccessfulTime', async () => {
    const clientset = newClientset({ config: loadRestConfig({ kubeconfig: api.kubeconfig }), userAgent: 'kubelite-e2e/0 (linux) kubernetes/test', contentType: 'application/vnd.kubernetes.protobuf', qps: 0 });
    const informers = new SharedInformerFactory(clientset);
    const clock = new ManualClock(Date.now());
    const events: string[] = [];
    const ctx: ControllerContext = {
      clientset,
      informers,
      recorder: () => ({ event: (_o, type, reason, message) => void events.push(`${type} ${reason} ${message}`) }),
      options: {},
      now: () => clock.now(),
      log: () => {},
    };
    const cronjobs = new CronJobController(ctx, { queue: newRateLimitingQueue({ clock }) });
    const jobs = new JobController(ctx, { queue: newRateLimitingQueue(), orphanQueue: newRateLimitingQueue(), batchPeriodMs: 50 });
    const ac = new AbortController();
    informers.start(ac.signal);
    const running = Promise.all([cronjobs.run(1, ac.signal), jobs.run(1, ac.signal)]);
    try {
      const created = await json('/apis/batch/v1/namespaces/default/cronjobs', {
        method: 'POST',
        body: JSON.stringify({
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: { name: 'every5' },
          spec: {
            schedule: '*/5 * * * *',
            concurrencyPolicy: 'Forbid',
            jobTemplate: { metadata: { labels: { app: 'every5' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
          },
        }),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await waitFor(() => clock.pendingTimers() > 0 || undefined, 'the cronjob requeued for its first time', 10_000);
      const first = Math.floor(clock.now() / 300_000 + 1) * 300_000;
      const jobName = `every5-${first / 60_000}`;
      assert.equal((await json(`/apis/batch/v1/namespaces/default/jobs/${jobName}`)).status, 404, 'nothing before the schedule time');
      clock.set(first + 1000);
      const job = await waitFor(async () => {
        const r = await json(`/apis/batch/v1/namespaces/default/jobs/${jobName}`);
        return r.status === 200 ? r.body : undefined;
      }, `job ${jobName}`, 10_000);
      const m = job.metadata as { labels: Record<string, string>; annotations: Record<string, string>; ownerReferences: { kind: string; name: string; controller: boolean }[] };
      assert.equal(m.labels.app, 'every5');
      assert.equal(m.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], new Date(first).toISOString().replace('.000Z', 'Z'));
      assert.deepEqual(m.ownerReferences.map((r) => [r.kind, r.name, r.controller]), [['CronJob', 'every5', true]]);
      const cjStatus = async () => (await json('/apis/batch/v1/namespaces/default/cronjobs/every5')).body.status as { active?: { name: string }[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
      await waitFor(async () => ((await cjStatus()).active?.[0]?.name === jobName ? true : undefined), 'status.active', 10_000);
      assert.equal((await cjStatus()).lastScheduleTime, new Date(first).toISOString().replace('.000Z', 'Z'));
      // The kubelet's part: the job's pod succeeds.
      const pod = await waitFor(async () => {
        const r = await json(`/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`batch.kubernetes.io/job-name=${jobName}`)}`);
        return ((r.body.items ?? []) as Record<string, unknown>[])[0];
      }, 'the pod of the job', 10_000);
      const now = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
      const patched = await json(`/api/v1/namespaces/default/pods/${(pod.metadata as { name: string }).name}/status`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ status: { phase: 'Succeeded', containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, startedAt: now, finishedAt: now } } }] } }),
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      await waitFor(async () => ((await cjStatus()).lastSuccessfulTime ? true : undefined), 'lastSuccessfulTime', 10_000);
      assert.equal((await cjStatus()).active, undefined);
      assert.ok(events.includes(`Normal SuccessfulCreate Created job ${jobName}`), events.join('\n'));
      assert.ok(events.some((e) => e.startsWith('Normal SawCompletedJob')), events.join('\n'));
    } finally {
      ac.abort();
      await running;
      clientset.close();
    }
  });
});
