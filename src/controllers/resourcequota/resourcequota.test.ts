import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { ResourceQuotaController } from './controller.js';

const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas' };
const PODS = { group: '', version: 'v1', resource: 'pods' };

const pod = (name: string, ns: string, cpu: string | undefined, phase = 'Running'): KubeObject => ({
  ...obj('v1', 'Pod', name, { namespace: ns, spec: { containers: [{ name: 'c', image: 'i', resources: cpu ? { requests: { cpu }, limits: { cpu } } : {} }] } }),
  status: { phase },
});

const quota = (name: string, hard: Record<string, string>, spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject => ({
  ...obj('v1', 'ResourceQuota', name, { namespace: 'ns', spec: { hard, ...spec } }),
  ...(status ? { status } : {}),
});

function setup(objects: KubeObject[], options: Record<string, unknown> = {}) {
  const ctx = fakeControllerContext({ objects, options });
  return { ctx, c: new ResourceQuotaController(ctx) };
}

const statusOf = (ctx: ReturnType<typeof setup>['ctx'], name: string) => (ctx.clientset.tracker.get(QUOTAS, 'ns', name) as { status?: unknown }).status;

test('sync sets status.hard from spec.hard and status.used from the namespace objects, by evaluator', async () => {
  const { ctx, c } = setup([
    quota('all', { pods: '5', 'requests.cpu': '2', 'limits.cpu': '4', 'count/configmaps': '3', 'count/deployments.apps': '2', 'services.nodeports': '4', services: '2' }),
    pod('running', 'ns', '500m'),
    pod('done', 'ns', '1', 'Succeeded'),
    pod('elsewhere', 'other', '1'),
    obj('v1', 'ConfigMap', 'cm', { namespace: 'ns' }),
    obj('apps/v1', 'Deployment', 'd', { namespace: 'ns', spec: { selector: { matchLabels: { a: 'b' } }, template: {} } }),
    obj('v1', 'Service', 'np', { namespace: 'ns', spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 81 }] } }),
  ]);
  await c.sync('ns/all');
  assert.deepEqual(statusOf(ctx, 'all'), {
    hard: { 'count/configmaps': '3', 'count/deployments.apps': '2', 'limits.cpu': '4', pods: '5', 'requests.cpu': '2', services: '2', 'services.nodeports': '4' },
    // The finished pod counts for nothing but count/pods; the other namespace's pod not at all.
    used: { 'count/configmaps': '1', 'count/deployments.apps': '1', 'limits.cpu': '500m', pods: '1', 'requests.cpu': '500m', services: '1', 'services.nodeports': '2' },
  });
  const writes = ctx.clientset.actions.filter((a) => a.verb === 'update').length;
  await c.sync('ns/all');
  assert.equal(ctx.clientset.actions.filter((a) => a.verb === 'update').length, writes, 'an unchanged status is not written again');
});

test('scopes: a BestEffort quota counts only best-effort pods, a Terminating one only pods with a deadline', async () => {
  const deadline = { ...pod('deadline', 'ns', undefined), spec: { activeDeadlineSeconds: 10, containers: [{ name: 'c', image: 'i' }] } };
  const { ctx, c } = setup([
    quota('be', { pods: '9' }, { scopes: ['BestEffort'] }),
    quota('term', { pods: '9' }, { scopes: ['Terminating'] }),
    quota('prio', { pods: '9' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }),
    pod('burstable', 'ns', '100m'),
    pod('besteffort', 'ns', undefined),
    deadline,
    { ...pod('high', 'ns', '1m'), spec: { priorityClassName: 'high', containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1m' } } }] } },
  ]);
  for (const q of ['be', 'term', 'prio']) await c.sync(`ns/${q}`);
  assert.deepEqual((statusOf(ctx, 'be') as { used: unknown }).used, { pods: '2' });
  assert.deepEqual((statusOf(ctx, 'term') as { used: unknown }).used, { pods: '1' });
  assert.deepEqual((statusOf(ctx, 'prio') as { used: unknown }).used, { pods: '1' });
});

test('a deleted pod or one that finishes enqueues the quotas limiting pods in its namespace; status writes do not', async () => {
  const ctx = fakeControllerContext({
    objects: [
      quota('q', { pods: '5' }, {}, { hard: { pods: '5' }, used: { pods: '1' } }),
      quota('cm', { configmaps: '5' }, {}, { hard: { configmaps: '5' }, used: { configmaps: '0' } }),
      pod('p', 'ns', '1m'),
    ],
  });
  const added: string[] = [];
  const c = new ResourceQuotaController(ctx);
  const add = c.queue.add.bind(c.queue);
  c.queue.add = (key: string) => void (added.push(key), add(key));
  await flush(3);
  added.length = 0;
  const running = pod('p', 'ns', '1m');
  ctx.clientset.tracker.put(PODS, { ...running, metadata: { ...(running.metadata as object), resourceVersion: '98' } });
  await flush(3);
  assert.deepEqual(added, [], 'an update that changes no usage replenishes nothing');
  ctx.clientset.tracker.put(PODS, { ...pod('p', 'ns', '1m', 'Succeeded'), metadata: { ...(running.metadata as object), resourceVersion: '99' } });
  await flush(3);
  assert.deepEqual(added, ['ns/q']);
  ctx.clientset.tracker.put(QUOTAS, { ...quota('q', { pods: '5' }, {}, { hard: { pods: '5' }, used: { pods: '3' } }), metadata: { name: 'q', namespace: 'ns', resourceVersion: '100' } });
  await flush(3);
  assert.deepEqual(added, ['ns/q'], 'a status write is no reason to sync');
  ctx.clientset.tracker.remove(PODS, 'ns', 'p');
  await flush(3);
  assert.deepEqual(added, ['ns/q', 'ns/q']);
  await c.sync('ns/q');
  assert.deepEqual(statusOf(ctx, 'q'), { hard: { pods: '5' }, used: { pods: '0' } });
});

test('--resource-quota-sync-period resyncs every quota; --concurrent-resource-quota-syncs is the descriptor worker option', async () => {
  const { resourceQuotaDescriptor } = await import('./index.js');
  assert.equal(resourceQuotaDescriptor.workersOption, 'concurrentResourceQuotaSyncs');
  const { ctx, c } = setup([quota('q', { pods: '5' })], { resourceQuotaSyncPeriod: 20 });
  const ac = new AbortController();
  const running = c.run(1, ac.signal);
  const deadline = Date.now() + 2000;
  while (statusOf(ctx, 'q') === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(statusOf(ctx, 'q'), { hard: { pods: '5' }, used: { pods: '0' } });
  ctx.clientset.tracker.add(pod('late', 'ns', '1m'));
  // No event enqueues the quota for a new pod (admission charged it); the periodic resync recounts.
  while ((statusOf(ctx, 'q') as { used: { pods: string } }).used.pods !== '1' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(statusOf(ctx, 'q'), { hard: { pods: '5' }, used: { pods: '1' } });
  ac.abort();
  await running;
});

test('count/<resource>.<group> counts a resource known only from discovery; its monitor replenishes on deletion; an unserved or cluster-scoped one counts nothing', async () => {
  const widgets = { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };
  const ctx = fakeControllerContext({ objects: [quota('q', { 'count/widgets.example.com': '3', 'count/nothings.example.com': '1', 'count/globals.example.com': '1' })] });
  ctx.clientset.fakeDiscovery.add({ ...widgets, verbs: ['create', 'delete', 'get', 'list', 'watch'] });
  ctx.clientset.fakeDiscovery.add({ group: 'example.com', version: 'v1', resource: 'globals', kind: 'Global', namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'watch'] });
  const w = ctx.clientset.resource(widgets);
  await w.create('ns', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' } });
  await w.create('ns', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'b' } });
  await w.create('other', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'c' } });
  const c = new ResourceQuotaController(ctx, { discoveryResyncMs: 20 });
  // before any discovery resync: listed in the version discovery prefers
  await c.sync('ns/q');
  assert.deepEqual(statusOf(ctx, 'q'), {
    hard: { 'count/globals.example.com': '1', 'count/nothings.example.com': '1', 'count/widgets.example.com': '3' },
    used: { 'count/globals.example.com': '0', 'count/nothings.example.com': '0', 'count/widgets.example.com': '2' },
  });
  assert.ok(ctx.clientset.actions.some((a) => a.verb === 'list' && a.resource === 'widgets' && a.namespace === 'ns'));
  // running: a monitor watches widgets (metadata only) and a deletion replenishes the quota at once
  const ac = new AbortController();
  const running = c.run(1, ac.signal);
  try {
    const deadline = Date.now() + 2000;
    while (!c.monitors.has('widgets.example.com') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.ok(c.monitors.has('widgets.example.com'));
    assert.ok(!c.monitors.has('globals.example.com'), 'cluster-scoped resources are not quotable');
    await w.delete('ns', 'a');
    while ((statusOf(ctx, 'q') as { used: Record<string, string> }).used['count/widgets.example.com'] !== '1' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal((statusOf(ctx, 'q') as { used: Record<string, string> }).used['count/widgets.example.com'], '1');
    // a resource that stops being served loses its monitor at the next resync
    ctx.clientset.fakeDiscovery.remove('example.com', 'widgets');
    while (c.monitors.has('widgets.example.com') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.ok(!c.monitors.has('widgets.example.com'));
  } finally {
    ac.abort();
    await running;
  }
});
