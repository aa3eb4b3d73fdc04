import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { cloudOf, KubeliteCloud } from './provider.js';
import { LB_FINALIZER, SERVICES, ServiceController } from './service.js';

test('the simulated cloud: load balancer addresses from its range, kept and given back; unknown providers refused', () => {
  const cloud = new KubeliteCloud({ loadBalancerIPRange: '10.9.0.0/30' });
  assert.equal(cloud.ensureLoadBalancer('a/x'), '10.9.0.1');
  assert.equal(cloud.ensureLoadBalancer('a/x'), '10.9.0.1');
  assert.equal(cloud.ensureLoadBalancer('a/y'), '10.9.0.2');
  assert.throws(() => cloud.ensureLoadBalancer('a/z'), /no load balancer address left/);
  cloud.ensureLoadBalancerDeleted('a/x');
  assert.equal(cloud.ensureLoadBalancer('a/z'), '10.9.0.1');
  assert.equal(new KubeliteCloud({ loadBalancerIPRange: '10.9.0.0/24' }).ensureLoadBalancer('s', '10.9.0.77'), '10.9.0.77', 'an address the service has is kept');
  assert.equal(cloudOf({ cloudProvider: '' }), undefined);
  assert.throws(() => cloudOf({ cloudProvider: 'aws' }), /cloud provider could not be initialized: could not init cloud provider "aws": unknown cloud provider "aws"/);
  assert.throws(() => new KubeliteCloud({ loadBalancerIPRange: 'nope' }), /is not an IPv4 CIDR/);
});

test('the service controller ensures and removes load balancers with the finalizer and events', async () => {
  const svc = obj('v1', 'Service', 'web', { namespace: 'default', spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
  const ctx = fakeControllerContext({ objects: [svc] });
  const c = new ServiceController(ctx, new KubeliteCloud({ loadBalancerIPRange: '10.9.0.0/24' }));
  await flush(3);
  await c.sync('default/web');
  let got = ctx.clientset.tracker.get(SERVICES, 'default', 'web') as { metadata: { finalizers?: string[] }; status?: { loadBalancer?: { ingress?: { ip: string }[] } } };
  assert.deepEqual(got.metadata.finalizers, [LB_FINALIZER]);
  assert.deepEqual(got.status?.loadBalancer?.ingress, [{ ip: '10.9.0.1', ipMode: 'VIP' }]);
  assert.deepEqual(ctx.events.map((e) => e.reason), ['EnsuringLoadBalancer', 'EnsuredLoadBalancer']);
  const changed = ctx.clientset.tracker.get(SERVICES, 'default', 'web')!;
  (changed.spec as { type: string }).type = 'ClusterIP';
  ctx.clientset.tracker.add(changed);
  await flush(3);
  await c.sync('default/web');
  got = ctx.clientset.tracker.get(SERVICES, 'default', 'web') as typeof got;
  assert.deepEqual(got.metadata.finalizers ?? [], []);
  assert.equal(got.status?.loadBalancer?.ingress, undefined);
  assert.deepEqual(ctx.events.map((e) => e.reason).slice(2), ['DeletingLoadBalancer', 'DeletedLoadBalancer']);
});
