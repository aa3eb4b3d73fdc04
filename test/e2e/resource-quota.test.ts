// End-to-end over HTTP: ResourceQuota admission charges a namespace's quotas with a
// compare-and-swap on status.used, so concurrent creates never exceed hard; refusals carry
// Kubernetes' 403 texts ("exceeded quota", "status unknown for quota", "failed quota").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';
import { Client } from '../support/http.js';

const NS = '/api/v1/namespaces/q';
const pod = (name: string, resources: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox', resources }] },
});

describe('ResourceQuota admission over HTTP', () => {
  let api: ApiServer;
  let c: Client;
  before(async () => {
    api = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'ResourceQuota'] });
    c = new Client(api.url);
    await c.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'q' } });
  });
  after(() => api.close());

  /** Creates a quota and writes its status as the controller would (hard = spec.hard, used). */
  async function quota(name: string, hard: Record<string, string>, used: Record<string, string> | undefined, spec: Record<string, unknown> = {}) {
    const q = await c.create(`${NS}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...spec } });
    const r = await c.put(`${NS}/resourcequotas/${name}/status`, { ...q, status: { hard, used } });
    assert.equal(r.status, 200, r.text);
  }

  it('30 concurrent pod creates against hard pods=10: exactly 10 succeed, the rest get the 403', async () => {
    await quota('pods10', { pods: '10' }, { pods: '0' });
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => c.post(`${NS}/pods`, pod(`p${i}`))));
    const created = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status === 403);
    assert.equal(created.length, 10, replies.map((r) => r.status).join(' '));
    assert.equal(refused.length, 20);
    const name = refused[0]!.json.details.name as string;
    assert.equal(refused[0]!.json.message, `pods "${name}" is forbidden: exceeded quota: pods10, requested: pods=1, used: pods=10, limited: pods=10`);
    const q = (await c.get(`${NS}/resourcequotas/pods10`)).json;
    assert.deepEqual(q.status.used, { pods: '10' });
    for (const r of created) assert.equal((await c.delete(`${NS}/pods/${r.json.metadata.name}`, { gracePeriodSeconds: 0 })).status, 200);
    assert.equal((await c.delete(`${NS}/resourcequotas/pods10`)).status, 200);
  });

  it('a quota whose usage is not computed refuses with "status unknown"; cpu quotas need each container to say cpu', async () => {
    await quota('unknown', { 'requests.cpu': '1' }, {});
    let r = await c.post(`${NS}/pods`, pod('u', { requests: { cpu: '100m' } }));
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'pods "u" is forbidden: status unknown for quota: unknown, resources: requests.cpu');
    await c.delete(`${NS}/resourcequotas/unknown`);

    await quota('cpu', { 'requests.cpu': '1', 'limits.cpu': '2' }, { 'requests.cpu': '0', 'limits.cpu': '0' });
    r = await c.post(`${NS}/pods`, pod('nocpu'));
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'pods "nocpu" is forbidden: failed quota: cpu: must specify limits.cpu for: c; must specify requests.cpu for: c');
    r = await c.post(`${NS}/pods`, pod('big', { requests: { cpu: '800m' }, limits: { cpu: '1' } }));
    assert.equal(r.status, 201, r.text);
    r = await c.post(`${NS}/pods`, pod('more', { requests: { cpu: '300m' }, limits: { cpu: '300m' } }));
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'pods "more" is forbidden: exceeded quota: cpu, requested: requests.cpu=300m, used: requests.cpu=800m, limited: requests.cpu=1');
    assert.deepEqual((await c.get(`${NS}/resourcequotas/cpu`)).json.status.used, { 'limits.cpu': '1', 'requests.cpu': '800m' });
    await c.delete(`${NS}/pods/big`, { gracePeriodSeconds: 0 });
    await c.delete(`${NS}/resourcequotas/cpu`);
  });

  it('object counts: count/configmaps and the legacy configmaps name', async () => {
    await quota('cm', { 'count/configmaps': '1' }, { 'count/configmaps': '0' });
    assert.equal((await c.post(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } })).status, 201);
    const r = await c.post(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } });
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'configmaps "b" is forbidden: exceeded quota: cm, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1');
  });
});

describe('LimitRanger admission over HTTP', () => {
  let api: ApiServer;
  let c: Client;
  const LR = '/api/v1/namespaces/lr';
  before(async () => {
    api = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'LimitRanger'] });
    c = new Client(api.url);
    await c.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lr' } });
  });
  after(() => api.close());

  it('defaults containers from the Container item (defaults of the LimitRange itself included), enforces max and ratio', async () => {
    const lr = await c.create(`${LR}/limitranges`, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1' }, default: { memory: '128Mi' }, maxLimitRequestRatio: { memory: '2' } }] },
    });
    // SetDefaults_LimitRangeItem: default limit from max, default request from the default limit.
    assert.deepEqual(lr.spec.limits[0].default, { cpu: '1', memory: '128Mi' });
    assert.deepEqual(lr.spec.limits[0].defaultRequest, { cpu: '1', memory: '128Mi' });

    const p = await c.create(`${LR}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'plain' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    assert.deepEqual(p.spec.containers[0].resources, { limits: { cpu: '1', memory: '128Mi' }, requests: { cpu: '1', memory: '128Mi' } });
    assert.equal(p.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c');
    assert.equal(p.status.qosClass, 'Guaranteed');

    let r = await c.post(`${LR}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big' }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '2' } } }] } });
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');

    r = await c.post(`${LR}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bursty' },
      spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '500m', memory: '32Mi' }, limits: { memory: '128Mi' } } }] },
    });
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, 'pods "bursty" is forbidden: memory max limit to request ratio per Container is 2, but provided ratio is 4.000000');
  });

  it('LimitRange validation answers 422 with Kubernetes field paths and messages', async () => {
    const r = await c.post(`${LR}/limitranges`, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'bad' },
      spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] },
    });
    assert.equal(r.status, 422, r.text);
    assert.match(r.json.message, /spec\.limits\[0\]\.min\[cpu\]: Invalid value: .*: min value 2 is greater than max value 1/);
  });
});
