// HorizontalPodAutoscaler, PodDisruptionBudget, evictions that honour budgets, and the scale
// subresource of the old groups, over HTTP and through real kubectl 1.33: `kubectl autoscale`,
// `kubectl get hpa` (kubectl's TARGETS column), autoscaling/v1 reads of a v2 object, `kubectl
// create pdb`, `kubectl get pdb`, `kubectl explain`, evictions refused with 429 while the budget
// allows no disruption and spending it when it does, and `kubectl scale` through apps/v1beta2.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as appsV1beta2 from '../../src/api/apps/v1beta2.js';
import * as autoscalingV1 from '../../src/api/autoscaling/v1.js';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';
import { decodeProtobuf } from '../../src/machinery/codec/protobuf.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { writeKubeconfig } from '../support/kubelite.js';

const NS = 'hpa-pdb';
type Json = Record<string, any>;

describe('autoscaling and policy', () => {
  let server: ApiServer;
  let dir: string;
  let kc: string;
  const call = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const res = await fetch(server.url + path, { method, headers: body === undefined ? {} : { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as Json };
  };
  const pods = `/api/v1/namespaces/${NS}/pods`;
  const pdbs = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;

  /** A running, ready (or unready) pod labelled app=<app>. */
  async function runningPod(name: string, app: string, ready = true): Promise<void> {
    assert.equal((await call('POST', pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).status, 201);
    const pod = (await call('GET', `${pods}/${name}`)).body;
    pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    assert.equal((await call('PUT', `${pods}/${name}/status`, pod)).status, 200);
  }

  /** Sets a budget's status as the disruption controller would. */
  async function budgetStatus(name: string, status: Json): Promise<void> {
    const pdb = (await call('GET', `${pdbs}/${name}`)).body;
    pdb.status = { observedGeneration: pdb.metadata.generation, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, ...status };
    const res = await call('PUT', `${pdbs}/${name}/status`, pdb);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  const evict = (name: string) => call('POST', `${pods}/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS } });

  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle'] });
    dir = mkdtempSync(join(tmpdir(), 'kubelite-hpa-'));
    kc = join(dir, 'kubeconfig');
    writeKubeconfig(kc, server.url);
    await kubectlOk(kc, ['create', 'namespace', NS]);
    await kubectlOk(kc, ['-n', NS, 'create', 'deployment', 'web', '--image=busybox']);
  });
  after(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl autoscale creates an HPA that kubectl get hpa prints and autoscaling/v1 reads', async () => {
    await kubectlOk(kc, ['-n', NS, 'autoscale', 'deployment', 'web', '--min', '1', '--max', '3', '--cpu-percent', '50']);
    const table = await kubectlOk(kc, ['-n', NS, 'get', 'hpa']);
    const [header, row] = table.trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    assert.deepEqual(row!.split(/\s{2,}/).slice(0, 6), ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', '3', '0']);
    const described = await kubectlOk(kc, ['-n', NS, 'describe', 'hpa', 'web']);
    assert.match(described, /Reference:\s+Deployment\/web/);
    assert.match(described, /Min replicas:\s+1/);
    const v1 = (await call('GET', `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/web`)).body;
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.spec, { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
    assert.equal(v1.metadata.annotations, undefined);
    const pb = await fetch(`${server.url}/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/web`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    const decoded = decodeProtobuf<Json>(new Uint8Array(await pb.arrayBuffer()), autoscalingV1.HorizontalPodAutoscaler);
    assert.deepEqual(decoded.typeMeta, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' });
    assert.deepEqual(decoded.object.spec, v1.spec);
    const v2 = (await call('GET', `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/web`)).body;
    assert.deepEqual(v2.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
  });

  it('an autoscaling/v1 HPA keeps v2 fields through its annotations and gets the default CPU target', async () => {
    const hpas = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;
    const created = await call('POST', hpas, {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'old', annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5 },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const v2 = (await call('GET', `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/old`)).body;
    assert.deepEqual(v2.spec.metrics, [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }]);
    assert.equal(v2.metadata.annotations, undefined);
    assert.equal(created.body.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]');
    assert.equal(created.body.spec.targetCPUUtilizationPercentage, undefined);
    const plain = await call('POST', hpas, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'plain' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 } });
    assert.equal(plain.body.spec.targetCPUUtilizationPercentage, 80);
    assert.equal(plain.body.spec.minReplicas, 1);
    const bad = await call('POST', hpas, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'bad' }, spec: { scaleTargetRef: { kind: 'Deployment' }, minReplicas: 3, maxReplicas: 2 } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.message, 'HorizontalPodAutoscaler.autoscaling "bad" is invalid: [spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`, spec.scaleTargetRef.name: Required value]');
  });

  it('kubectl create pdb, get pdb and explain', async () => {
    await kubectlOk(kc, ['-n', NS, 'create', 'pdb', 'budget', '--selector=app=guarded', '--min-available=1']);
    const [header, row] = (await kubectlOk(kc, ['-n', NS, 'get', 'pdb'])).trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
    assert.deepEqual(row!.split(/\s{2,}/).slice(0, 4), ['budget', '1', 'N/A', '0']);
    assert.match(await kubectlOk(kc, ['-n', NS, 'describe', 'pdb', 'budget']), /Min available:\s+1/);
    const both = await kubectl(kc, ['-n', NS, 'create', 'pdb', 'both', '--selector=app=x', '--min-available=1', '--max-unavailable=1']);
    assert.notEqual(both.code, 0);
    assert.match(await kubectlOk(kc, ['explain', 'hpa.spec']), /scaleTargetRef/);
    assert.match(await kubectlOk(kc, ['explain', 'pdb.spec']), /unhealthyPodEvictionPolicy/);
  });

  it('an eviction the budget does not allow is refused with 429; an allowed one spends it', async () => {
    await runningPod('guarded-1', 'guarded');
    await budgetStatus('budget', { disruptionsAllowed: 0 });
    const refused = await evict('guarded-1');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(refused.body.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget budget needs 1 healthy pods and has 1 currently' }]);
    assert.equal((await call('GET', `${pods}/guarded-1`)).status, 200);

    await budgetStatus('budget', { disruptionsAllowed: 1, currentHealthy: 2 });
    const dryRun = await call('POST', `${pods}/guarded-1/eviction?dryRun=All`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'guarded-1' } });
    assert.equal(dryRun.status, 201);
    assert.equal((await call('GET', `${pods}/guarded-1`)).status, 200);
    assert.equal((await call('GET', `${pdbs}/budget`)).body.status.disruptionsAllowed, 1);
    const evicted = await evict('guarded-1');
    assert.equal(evicted.status, 201, JSON.stringify(evicted.body));
    assert.equal((await call('GET', `${pods}/guarded-1`)).status, 404);
    const spent = (await call('GET', `${pdbs}/budget`)).body;
    assert.equal(spent.status.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(spent.status.disruptedPods), ['guarded-1']);
    assert.deepEqual(spent.status.conditions.map((c: Json) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'False', 'InsufficientPods']]);
  });

  it('an evicted pod gets the DisruptionTarget condition before its delete (not on a dry run)', async () => {
    assert.equal((await call('POST', pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).status, 201);
    assert.equal((await call('POST', `${pods}/held/eviction?dryRun=All`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'held' } })).status, 201);
    assert.equal((await call('GET', `${pods}/held`)).body.status.conditions, undefined);
    assert.equal((await evict('held')).status, 201);
    const held = (await call('GET', `${pods}/held`)).body;
    assert.ok(held.metadata.deletionTimestamp);
    const cond = held.status.conditions.find((c: Json) => c.type === 'DisruptionTarget');
    assert.deepEqual([cond.status, cond.reason, cond.message], ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting']);
    assert.equal((await call('PATCH', `${pods}/held`, { metadata: { finalizers: null } }, 'application/merge-patch+json')).status, 200);
  });

  it('a budget whose status lags its generation refuses with 429; two budgets are a 500; no budget evicts', async () => {
    await runningPod('guarded-2', 'guarded');
    const pdb = (await call('GET', `${pdbs}/budget`)).body;
    await budgetStatus('budget', { disruptionsAllowed: 5 });
    pdb.spec.minAvailable = 0;
    delete pdb.metadata.resourceVersion;
    assert.equal((await call('PUT', `${pdbs}/budget`, pdb)).status, 200);
    const lagging = await evict('guarded-2');
    assert.equal(lagging.status, 429);
    assert.deepEqual(lagging.body.details, { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget budget is still being processed by the server.' }], retryAfterSeconds: 10 });

    await kubectlOk(kc, ['-n', NS, 'create', 'pdb', 'second', '--selector=app=guarded', '--max-unavailable=1']);
    const two = await evict('guarded-2');
    assert.equal(two.status, 500);
    assert.equal(two.body.message, 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');

    await runningPod('free', 'free');
    assert.equal((await evict('free')).status, 201);
    assert.equal((await call('GET', `${pods}/free`)).status, 404);
  });

  it('an unready pod is evicted without spending the budget when its policy is AlwaysAllow', async () => {
    await kubectlOk(kc, ['-n', NS, 'create', 'pdb', 'always', '--selector=app=flaky', '--min-available=1']);
    const pdb = (await call('GET', `${pdbs}/always`)).body;
    pdb.spec.unhealthyPodEvictionPolicy = 'AlwaysAllow';
    assert.equal((await call('PUT', `${pdbs}/always`, pdb)).status, 200);
    await budgetStatus('always', { disruptionsAllowed: 0, currentHealthy: 0 });
    await runningPod('flaky', 'flaky', false);
    assert.equal((await evict('flaky')).status, 201);
    assert.equal((await call('GET', `${pdbs}/always`)).body.status.disruptionsAllowed, 0);
    // IfHealthyBudget (the default): an unready pod goes only while the budget is healthy.
    await kubectlOk(kc, ['-n', NS, 'create', 'pdb', 'ifhealthy', '--selector=app=sick', '--min-available=1']);
    await budgetStatus('ifhealthy', { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1 });
    await runningPod('sick-1', 'sick', false);
    assert.equal((await evict('sick-1')).status, 429);
    await budgetStatus('ifhealthy', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 });
    assert.equal((await evict('sick-1')).status, 201);
    assert.equal((await call('GET', `${pdbs}/ifhealthy`)).body.status.disruptionsAllowed, 0);
    const wrongName = await call('POST', `${pods}/x/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'y' } });
    assert.equal(wrongName.status, 400);
  });

  it('kubectl drain evicts through the budget, spending it', async () => {
    assert.equal((await call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'drained' } })).status, 201);
    await kubectlOk(kc, ['-n', NS, 'create', 'pdb', 'drain-budget', '--selector=app=drain', '--min-available=1']);
    assert.equal((await call('POST', pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'on-node', labels: { app: 'drain' } }, spec: { nodeName: 'drained', containers: [{ name: 'c', image: 'busybox' }] } })).status, 201);
    const pod = (await call('GET', `${pods}/on-node`)).body;
    pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    assert.equal((await call('PUT', `${pods}/on-node/status`, pod)).status, 200);
    // (kubectl retries a refused eviction every 5 seconds until its timeout: the 429s are checked above over HTTP.)
    await budgetStatus('drain-budget', { disruptionsAllowed: 1 });
    assert.match(await kubectlOk(kc, ['drain', 'drained', '--force', '--grace-period=0', '--timeout=20s']), /node\/drained drained/);
    assert.equal((await call('GET', `${pods}/on-node`)).status, 404);
    assert.deepEqual(Object.keys((await call('GET', `${pdbs}/drain-budget`)).body.status.disruptedPods), ['on-node']);
  });

  it('the scale subresource answers each group its own Scale; kubectl scale works through apps/v1beta2', async () => {
    const path = (gv: string) => `/apis/${gv}/namespaces/${NS}/deployments/web/scale`;
    const cases: Array<[string, string]> = [['apps/v1', 'autoscaling/v1'], ['apps/v1beta2', 'apps/v1beta2'], ['apps/v1beta1', 'apps/v1beta1'], ['extensions/v1beta1', 'extensions/v1beta1']];
    for (const [gv, scaleVersion] of cases) {
      const s = (await call('GET', path(gv))).body;
      assert.equal(s.apiVersion, scaleVersion, gv);
      assert.equal(s.kind, 'Scale');
      if (scaleVersion === 'autoscaling/v1') assert.equal(s.status.selector, 'app=web');
      else assert.deepEqual(s.status, { replicas: 0, selector: { app: 'web' }, targetSelector: 'app=web' });
    }
    await kubectlOk(kc, ['-n', NS, 'scale', 'deployments.v1beta2.apps/web', '--replicas=2']);
    assert.equal((await call('GET', path('apps/v1'))).body.spec.replicas, 2);
    const patched = await call('PATCH', path('extensions/v1beta1'), { spec: { replicas: 4 } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200);
    assert.equal(patched.body.apiVersion, 'extensions/v1beta1');
    assert.equal(patched.body.spec.replicas, 4);
    const applied = await call('PATCH', `${path('apps/v1beta1')}?fieldManager=e2e&force=true`, { apiVersion: 'apps/v1beta1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 5 } }, 'application/apply-patch+yaml');
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal(applied.body.apiVersion, 'apps/v1beta1');
    assert.equal(applied.body.spec.replicas, 5);
    const pb = await fetch(server.url + path('apps/v1beta2'), { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(pb.headers.get('content-type'), 'application/vnd.kubernetes.protobuf');
    const decoded = decodeProtobuf<Json>(new Uint8Array(await pb.arrayBuffer()), appsV1beta2.Scale);
    assert.deepEqual(decoded.typeMeta, { apiVersion: 'apps/v1beta2', kind: 'Scale' });
    assert.deepEqual(decoded.object.status, { replicas: 0, selector: { app: 'web' }, targetSelector: 'app=web' });
    const discovery = (await call('GET', '/apis/apps/v1beta2')).body;
    const scale = discovery.resources.find((r: Json) => r.name === 'deployments/scale');
    assert.deepEqual([scale.group, scale.version, scale.kind], ['apps', 'v1beta2', 'Scale']);
  });
});
