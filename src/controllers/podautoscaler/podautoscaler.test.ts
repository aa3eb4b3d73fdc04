import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HorizontalPodAutoscaler, Pod } from '../../api/types.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { rfc3339 } from '../common/time.js';
import { HorizontalController, HPAS } from './controller.js';
import { limitByPolicies, limitLegacy, stabilize } from './rate.js';
import { resourceReplicas, type PodMetric } from './replicas.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const NS = 'default';

function pod(name: string, o: { cpu?: string; phase?: string; ready?: boolean; startedAgoMs?: number; readySinceMs?: number } = {}): Pod {
  return obj('v1', 'Pod', name, {
    namespace: NS,
    labels: { app: 'web' },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: o.cpu ?? '1' } } }] },
    status: {
      phase: o.phase ?? 'Running',
      startTime: rfc3339(T0 - (o.startedAgoMs ?? 600_000)),
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: rfc3339(T0 - (o.readySinceMs ?? 590_000)) }],
    },
  }) as Pod;
}

const metricsOf = (values: Record<string, number>): Map<string, PodMetric> => new Map(Object.entries(values).map(([k, v]) => [k, { value: v, timestamp: T0, windowMs: 10_000 }]));
const OPTS = { tolerance: 0.1, cpuInitializationMs: 300_000, initialReadinessDelayMs: 30_000, now: T0 };

test('replica calculation for resource metrics (cases of Kubernetes replica_calculator_test.go)', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
  const cases: { name: string; current: number; pods: Pod[]; usage: Record<string, number>; target: { utilization: number } | { average: number }; want: number; utilization?: number }[] = [
    { name: 'scale up', current: 3, pods: names(3).map((n) => pod(n)), usage: { p0: 300, p1: 500, p2: 700 }, target: { utilization: 30 }, want: 5, utilization: 50 },
    { name: 'scale down', current: 5, pods: names(5).map((n) => pod(n)), usage: { p0: 100, p1: 300, p2: 500, p3: 250, p4: 250 }, target: { utilization: 50 }, want: 3, utilization: 28 },
    { name: 'within tolerance', current: 3, pods: [pod('p0', { cpu: '900m' }), pod('p1'), pod('p2', { cpu: '1100m' })], usage: { p0: 1010, p1: 1030, p2: 1020 }, target: { utilization: 100 }, want: 3, utilization: 102 },
    { name: 'unready pod counts as 0 on a scale-up', current: 3, pods: [pod('p0', { ready: false, startedAgoMs: 60_000, readySinceMs: 50_000 }), pod('p1'), pod('p2')], usage: { p0: 300, p1: 500, p2: 700 }, target: { utilization: 30 }, want: 4 },
    { name: 'a missing metric would flip the direction: no change', current: 4, pods: names(4).map((n) => pod(n)), usage: { p0: 400, p1: 95, p2: 950 }, target: { utilization: 50 }, want: 4 },
    { name: 'pending and failed pods are left out', current: 3, pods: [pod('p0'), pod('p1', { phase: 'Pending' }), pod('p2', { phase: 'Failed' })], usage: { p0: 1000, p1: 0, p2: 0 }, target: { utilization: 50 }, want: 3 },
    { name: 'average value', current: 3, pods: names(3).map((n) => pod(n)), usage: { p0: 300, p1: 500, p2: 1000 }, target: { average: 500 }, want: 4 },
  ];
  for (const k of cases) {
    const got = resourceReplicas(k.current, k.target, 'cpu', '', k.pods, metricsOf(k.usage), OPTS);
    assert.equal(got.replicas, k.want, k.name);
    if (k.utilization !== undefined) assert.equal(got.utilization, k.utilization, k.name);
  }
  assert.throws(() => resourceReplicas(1, { utilization: 50 }, 'cpu', '', [], new Map(), OPTS), /no pods returned by selector while calculating replica count/);
  const noRequest = pod('p0');
  noRequest.spec!.containers![0]!.resources = {};
  assert.throws(() => resourceReplicas(1, { utilization: 50 }, 'cpu', '', [noRequest], metricsOf({ p0: 1 }), OPTS), /missing request for cpu in container c of Pod p0/);
});

test('stabilization windows and scaling policies', () => {
  const history = [{ value: 10, at: T0 - 60_000 }, { value: 4, at: T0 - 30_000 }];
  assert.equal(stabilize([...history], 3, 8, 0, 300, T0).replicas, 8, 'not below the highest of the down window (10), from 8: stays');
  assert.equal(stabilize([{ value: 6, at: T0 - 60_000 }], 3, 8, 0, 300, T0).replicas, 6, 'down to the highest of the down window');
  assert.equal(stabilize([...history], 3, 8, 0, 0, T0).replicas, 3);
  assert.equal(stabilize([{ value: 5, at: T0 - 10_000 }], 12, 4, 60, 0, T0).replicas, 5, 'the lowest of the up window');
  const up = { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
  const down = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] };
  const base = { min: 1, max: 100, scaleUp: up, scaleDown: down, upEvents: [], downEvents: [], now: T0 };
  assert.deepEqual(limitByPolicies({ ...base, current: 10, desired: 50 }), { replicas: 20, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
  assert.deepEqual(limitByPolicies({ ...base, current: 2, desired: 50 }).replicas, 6, 'Pods 4 beats Percent 100 at 2');
  assert.deepEqual(limitByPolicies({ ...base, current: 10, desired: 15, upEvents: [{ change: 10, at: T0 - 5_000 }] }).replicas, 10, 'already grew this period');
  assert.deepEqual(limitByPolicies({ ...base, current: 10, desired: 1 }), { replicas: 5, reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' });
  assert.deepEqual(limitByPolicies({ ...base, current: 10, desired: 1, scaleDown: { selectPolicy: 'Disabled' } }).replicas, 10);
  assert.deepEqual(limitLegacy(3, 20, 1, 10), { replicas: 6, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
  assert.deepEqual(limitLegacy(3, 0, 2, 10).reason, 'TooFewReplicas');
});

function hpa(metrics: unknown[], behavior?: unknown): KubeObject {
  const h = obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', { namespace: NS, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 10, metrics, ...(behavior ? { behavior } : {}) } });
  (h.metadata as Record<string, unknown>).generation = 1;
  return h;
}

function cluster(h: KubeObject, usage: Record<string, string>): ReturnType<typeof fakeControllerContext> {
  const deployment = obj('apps/v1', 'Deployment', 'web', { namespace: NS, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } } });
  const pods = Object.keys(usage).map((n) => pod(n, { cpu: '100m' }) as KubeObject);
  const ctx = fakeControllerContext({ objects: [deployment, h, ...pods], now: T0 });
  ctx.clientset.prependReactor('list', 'pods', (a) => {
    if (a.ref.group !== 'metrics.k8s.io') return undefined;
    const items = Object.entries(usage).map(([name, cpu]) => ({ metadata: { name, namespace: NS }, timestamp: rfc3339(T0), window: '10s', containers: [{ name: 'c', usage: { cpu, memory: '10Mi' } }] }));
    return { handled: true, result: { metadata: {}, items } as unknown as KubeObject };
  });
  return ctx;
}

test('an HPA scales its Deployment through the scale subresource and reports metrics, conditions and an event', async () => {
  const ctx = cluster(hpa([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]), { a: '90m', b: '90m' });
  const c = new HorizontalController(ctx);
  c.queue.addAfter = () => {};
  await flush(3);
  await c.sync(`${NS}/web`);
  const d = ctx.clientset.tracker.get({ group: 'apps', resource: 'deployments' }, NS, 'web') as { spec: { replicas: number } };
  assert.equal(d.spec.replicas, 4);
  assert.ok(ctx.events.some((e) => e.reason === 'SuccessfulRescale' && e.message === 'New size: 4; reason: cpu resource utilization (percentage of request) above target'));
  const h = ctx.clientset.tracker.get(HPAS, NS, 'web') as HorizontalPodAutoscaler;
  assert.deepEqual(h.status?.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 90, averageValue: '90m' } } }]);
  assert.deepEqual([h.status?.currentReplicas, h.status?.desiredReplicas], [2, 4]);
  const cond = Object.fromEntries((h.status?.conditions ?? []).map((x) => [x?.type, [x?.status, x?.reason, x?.message]]));
  assert.deepEqual(cond.AbleToScale, ['True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 4']);
  assert.deepEqual(cond.ScalingActive, ['True', 'ValidMetricFound', 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)']);
  assert.deepEqual(cond.ScalingLimited, ['False', 'DesiredWithinRange', 'the desired count is within the acceptable range']);
});

test('metrics no API serves leave the HPA inactive with the reason', async () => {
  const ctx = cluster(hpa([{ type: 'Pods', pods: { metric: { name: 'packets' }, target: { type: 'AverageValue', averageValue: '1k' } } }]), { a: '90m', b: '90m' });
  const c = new HorizontalController(ctx);
  c.queue.addAfter = () => {};
  await flush(3);
  await assert.rejects(c.sync(`${NS}/web`), /failed to compute desired number of replicas/);
  const h = ctx.clientset.tracker.get(HPAS, NS, 'web') as HorizontalPodAutoscaler;
  const active = h.status?.conditions?.find((x) => x?.type === 'ScalingActive');
  assert.deepEqual([active?.status, active?.reason], ['False', 'FailedGetPodsMetric']);
  assert.match(active?.message ?? '', /^the HPA was unable to compute the replica count: unable to get metric packets: .*no custom metrics API \(custom\.metrics\.k8s\.io\) registered$/);
});
