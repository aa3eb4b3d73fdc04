import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../api/kinds.js';
import type { KindVersion } from '../../api/schema/kind.js';
import type { ResourceQuota } from '../../api/types.js';
import { apiError } from '../../registry/errors.js';
import { StatusError } from '../../machinery/status.js';
import { ResourceQuotaAdmission, type QuotaAccess } from './resource-quota.js';
import type { AdmissionAttributes } from './types.js';

/** Quotas with resourceVersions; a status write with a stale one fails with 409 as the store's does. */
class FakeQuotas implements QuotaAccess {
  readonly quotas = new Map<string, ResourceQuota>();
  writes = 0;
  /** Status writes to fail with a conflict after bumping the quota (another writer came first). */
  interfere: ((q: ResourceQuota) => void) | undefined;
  put(q: ResourceQuota) {
    this.quotas.set(q.metadata!.name!, q);
  }
  async list() {
    return [...this.quotas.values()].map((q) => structuredClone(q));
  }
  async get(_ns: string, name: string) {
    const q = this.quotas.get(name);
    return q && structuredClone(q);
  }
  async updateStatus(q: ResourceQuota) {
    const cur = this.quotas.get(q.metadata!.name!)!;
    if (this.interfere) {
      const f = this.interfere;
      this.interfere = undefined;
      f(cur);
      cur.metadata!.resourceVersion = String(Number(cur.metadata!.resourceVersion) + 1);
    }
    if (cur.metadata!.resourceVersion !== q.metadata!.resourceVersion) throw apiError.modified({ group: '', resource: 'resourcequotas' }, q.metadata!.name!);
    this.writes++;
    this.put({ ...structuredClone(q), metadata: { ...q.metadata, resourceVersion: String(Number(cur.metadata!.resourceVersion) + 1) } });
  }
}

const quota = (name: string, hard: Record<string, string>, used?: Record<string, string>, spec: ResourceQuota['spec'] = {}): ResourceQuota => ({
  metadata: { name, namespace: 'ns', resourceVersion: '1' },
  spec: { hard, ...spec },
  status: { hard, ...(used ? { used } : {}) },
});

function attrs(resource: string, over: Partial<AdmissionAttributes>): AdmissionAttributes {
  const [group, res] = resource.includes('/') ? (resource.split('/') as [string, string]) : ['', resource];
  const kind = findResource(group, 'v1', res) as KindVersion;
  return { operation: 'CREATE', kind, group, resource: res, subresource: '', namespace: 'ns', name: '', user: { name: 'u', groups: [] }, dryRun: false, ...over };
}

const pod = (name: string, cpu?: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', resources: cpu ? { requests: { cpu }, limits: { cpu } } : {} }] } });

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError && err.code === 403, String(err));
    return err.message;
  }
  return assert.fail('admitted');
}

test('charges matching quotas, re-reads and re-checks after a lost race', async () => {
  const quotas = new FakeQuotas();
  quotas.put(quota('pods', { pods: '2' }, { pods: '0' }));
  quotas.put(quota('other', { configmaps: '1' }, { configmaps: '0' }));
  const plugin = new ResourceQuotaAdmission(quotas);
  await plugin.validate(attrs('pods', { object: pod('a') }));
  assert.deepEqual(quotas.quotas.get('pods')!.status!.used, { pods: '1' });
  assert.deepEqual(quotas.quotas.get('other')!.status!.used, { configmaps: '0' });
  // Another writer takes the last pod between our read and our write: the retry sees it and refuses.
  quotas.interfere = (q) => (q.status!.used = { pods: '2' });
  assert.equal(await refusal(plugin.validate(attrs('pods', { object: pod('b') }))), 'pods "b" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2');
});

test('updates are charged by their growth only; dry runs are checked but not charged; deletes and subresources pass', async () => {
  const quotas = new FakeQuotas();
  quotas.put(quota('ports', { 'services.nodeports': '3', 'services.loadbalancers': '0' }, { 'services.nodeports': '1', 'services.loadbalancers': '0' }));
  const plugin = new ResourceQuotaAdmission(quotas);
  const svc = (type: string, ports: number) => ({ metadata: { name: 's', resourceVersion: '3' }, spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ port: 80 + i })) } });
  // One NodePort port already counted: growing to three ports charges two more.
  await plugin.validate(attrs('services', { operation: 'UPDATE', object: svc('NodePort', 3), oldObject: svc('NodePort', 1) }));
  assert.deepEqual(quotas.quotas.get('ports')!.status!.used, { 'services.loadbalancers': '0', 'services.nodeports': '3' });
  await plugin.validate(attrs('services', { operation: 'UPDATE', object: svc('NodePort', 2), oldObject: svc('NodePort', 3) }));
  assert.equal(quotas.writes, 1, 'a shrinking update charges nothing');
  assert.equal(
    await refusal(plugin.validate(attrs('services', { operation: 'UPDATE', object: svc('LoadBalancer', 3), oldObject: svc('NodePort', 3) }))),
    'services "s" is forbidden: exceeded quota: ports, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0',
  );
  quotas.put(quota('cpu', { 'requests.cpu': '1', 'limits.cpu': '1' }, { 'requests.cpu': '700m', 'limits.cpu': '700m' }));
  await plugin.validate(attrs('pods', { object: pod('dry', '300m'), dryRun: true }));
  assert.deepEqual(quotas.quotas.get('cpu')!.status!.used, { 'limits.cpu': '700m', 'requests.cpu': '700m' });
  assert.equal(
    await refusal(plugin.validate(attrs('pods', { object: pod('big', '400m') }))),
    'pods "big" is forbidden: exceeded quota: cpu, requested: limits.cpu=400m,requests.cpu=400m, used: limits.cpu=700m,requests.cpu=700m, limited: limits.cpu=1,requests.cpu=1',
  );
  const old = { ...pod('p', '500m'), metadata: { name: 'p', resourceVersion: '3' } };
  await plugin.validate(attrs('pods', { operation: 'UPDATE', object: pod('p', '900m'), oldObject: old }));
  await plugin.validate(attrs('pods', { operation: 'DELETE', oldObject: old }));
  await plugin.validate(attrs('pods', { subresource: 'status', operation: 'UPDATE', object: pod('p', '2'), oldObject: old }));
  assert.equal(quotas.writes, 1);
});

test('object counts are charged on create only; quotas of other scopes or resources do not apply', async () => {
  const quotas = new FakeQuotas();
  quotas.put(quota('deploy', { 'count/deployments.apps': '0' }, { 'count/deployments.apps': '0' }));
  quotas.put(quota('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] }));
  const plugin = new ResourceQuotaAdmission(quotas);
  assert.equal(
    await refusal(plugin.validate(attrs('apps/deployments', { object: { metadata: { name: 'd' } } }))),
    'deployments.apps "d" is forbidden: exceeded quota: deploy, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0',
  );
  await plugin.validate(attrs('apps/deployments', { operation: 'UPDATE', object: { metadata: { name: 'd' } }, oldObject: { metadata: { name: 'd', resourceVersion: '1' } } }));
  await plugin.validate(attrs('pods', { object: pod('burstable', '1m') }));
  assert.equal(await refusal(plugin.validate(attrs('pods', { object: pod('besteffort') }))), 'pods "besteffort" is forbidden: exceeded quota: be, requested: pods=1, used: pods=0, limited: pods=0');
  assert.equal(quotas.writes, 0);
});
