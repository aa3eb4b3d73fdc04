// The deployment and replicaset controllers together over the fakes, driven by their work queues:
// a deployment rolls out, a new template rolls through, and an undo rolls back, with the test
// playing the kubelet (pods marked Running and Ready).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../client/types.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { DeploymentController, DEPLOYMENTS } from './controller.js';
import { ReplicaSetController } from '../replicaset/controller.js';
import { REPLICASETS, PODS } from '../replicaset/kinds.js';
import { rfc3339 } from '../common/time.js';
import { REVISION_ANNOTATION, DEPRECATED_ROLLBACK_TO } from './revisions.js';

type Ctx = ReturnType<typeof fakeControllerContext>;

function deployment(image: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
  };
}

/** The kubelet: every pod not yet ready becomes Running and Ready; deleted ones are gone already (the fake deletes at once). */
async function kubelet(ctx: Ctx): Promise<number> {
  let n = 0;
  for (const p of ctx.clientset.tracker.list(PODS, 'default')) {
    const st = (p.status ?? {}) as any;
    if (st.phase === 'Running') continue;
    p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(ctx.now()) }] };
    (p.spec as any).nodeName = 'node-1';
    await ctx.clientset.resource(PODS).update('default', p, { subresource: 'status' });
    n++;
  }
  return n;
}

async function converge(ctx: Ctx, done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await flush(20);
    if (done()) return;
    await kubelet(ctx);
  }
  assert.fail(`did not converge: ${what}\n${JSON.stringify(ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')?.status)}`);
}

function status(ctx: Ctx): any {
  return ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')?.status ?? {};
}
function complete(ctx: Ctx, replicas: number): boolean {
  const d = ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')!;
  const st = status(ctx);
  const p = (st.conditions ?? []).find((c: any) => c.type === 'Progressing');
  return (
    st.observedGeneration === (d.metadata as any).generation &&
    st.updatedReplicas === replicas &&
    st.replicas === replicas &&
    st.availableReplicas === replicas &&
    p?.reason === 'NewReplicaSetAvailable'
  );
}
function images(ctx: Ctx): string[] {
  return ctx.clientset.tracker
    .list(PODS, 'default')
    .map((p) => (p.spec as any).containers[0].image)
    .sort();
}

test('rollout: deployment + replicaset controllers converge, roll a new image through, and roll back', { timeout: 30_000 }, async () => {
  const ctx = fakeControllerContext({ objects: [], options: { deploymentControllerSyncPeriod: 0 } });
  // As the API server's deployments/status: metadata (the revision annotation) is written too.
  ctx.clientset.prependReactor('update', 'deployments', (a) => {
    if (a.subresource !== 'status') return undefined;
    const cur = structuredClone(ctx.clientset.tracker.get(DEPLOYMENTS, a.namespace, a.name)!);
    const sent = a.object as any;
    if (sent.metadata.resourceVersion && sent.metadata.resourceVersion !== (cur.metadata as any).resourceVersion) {
      return { handled: true, error: Object.assign(new Error('conflict'), { code: 409, reason: 'Conflict' }) };
    }
    (cur.metadata as any).annotations = sent.metadata.annotations;
    (cur.metadata as any).resourceVersion = ctx.clientset.tracker.nextResourceVersion();
    cur.status = sent.status;
    return { handled: true, result: ctx.clientset.tracker.put(DEPLOYMENTS, cur) };
  });
  const ac = new AbortController();
  const dc = new DeploymentController(ctx);
  const rc = new ReplicaSetController(ctx);
  const running = [dc.run(2, ac.signal), rc.run(2, ac.signal)];
  try {
    await ctx.clientset.resource(DEPLOYMENTS).create('default', deployment('nginx:1', 4));
    await converge(ctx, () => complete(ctx, 4), 'initial rollout');
    assert.deepEqual(images(ctx), ['nginx:1', 'nginx:1', 'nginx:1', 'nginx:1']);
    const avail = status(ctx).conditions.find((c: any) => c.type === 'Available');
    assert.equal(avail.status, 'True');

    // A new image: the rollout never has fewer than 3 available nor more than 5 pods.
    const d = ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')!;
    (d.spec as any).template.spec.containers[0].image = 'nginx:2';
    await ctx.clientset.resource(DEPLOYMENTS).update('default', d);
    let maxPods = 0;
    for (let i = 0; i < 200 && !complete(ctx, 4); i++) {
      await flush(20);
      maxPods = Math.max(maxPods, ctx.clientset.tracker.list(PODS, 'default').length);
      await kubelet(ctx);
    }
    assert.ok(complete(ctx, 4), 'second rollout completes');
    assert.ok(maxPods <= 5, `at most replicas + maxSurge pods (saw ${maxPods})`);
    assert.deepEqual(images(ctx), ['nginx:2', 'nginx:2', 'nginx:2', 'nginx:2']);
    const rss = ctx.clientset.tracker.list(REPLICASETS, 'default');
    assert.equal(rss.length, 2);
    assert.deepEqual(rss.map((r) => (r.metadata as any).annotations[REVISION_ANNOTATION]).sort(), ['1', '2']);

    // The beta rollbackTo (as its annotation): back to revision 1.
    const d2 = ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')!;
    (d2.metadata as any).annotations = { ...((d2.metadata as any).annotations ?? {}), [DEPRECATED_ROLLBACK_TO]: '1' };
    await ctx.clientset.resource(DEPLOYMENTS).update('default', d2);
    await converge(ctx, () => complete(ctx, 4) && images(ctx).every((i) => i === 'nginx:1'), 'rollback');
    const d3 = ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')!;
    assert.equal((d3.metadata as any).annotations[DEPRECATED_ROLLBACK_TO], undefined);
    assert.equal(ctx.clientset.tracker.list(REPLICASETS, 'default').length, 2, 'the old replica set is reused');
    assert.ok(ctx.events.some((e) => e.reason === 'DeploymentRollback'));

    // Scale via spec.replicas (what /scale writes).
    const d4 = ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')!;
    (d4.spec as any).replicas = 2;
    await ctx.clientset.resource(DEPLOYMENTS).update('default', d4);
    await converge(ctx, () => complete(ctx, 2) && ctx.clientset.tracker.list(PODS, 'default').length === 2, 'scale down');
  } finally {
    ac.abort();
    await Promise.all(running);
  }
});
