import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Node } from '../../api/types.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { CidrSet, CidrSetFullError, formatCidr, parseCidr } from './cidr-set.js';
import { ipamConfig } from './config.js';
import { NODES, NodeIpamController } from './controller.js';

test('a CIDR set hands out node subnets round robin, skips occupied ones and takes released ones back', () => {
  const set = new CidrSet(parseCidr('10.244.0.0/22')!, 24);
  assert.equal(set.size, 4);
  assert.ok(set.occupy(parseCidr('10.244.1.0/24')!));
  const got = [set.allocateNext(), set.allocateNext(), set.allocateNext()].map(formatCidr);
  assert.deepEqual(got, ['10.244.0.0/24', '10.244.2.0/24', '10.244.3.0/24']);
  assert.throws(() => set.allocateNext(), CidrSetFullError);
  set.release(parseCidr('10.244.2.0/24')!);
  assert.equal(formatCidr(set.allocateNext()), '10.244.2.0/24');
  assert.equal(set.occupy(parseCidr('192.168.0.0/24')!), false);
  const v6 = new CidrSet(parseCidr('fd00:10:244::/56')!, 64);
  assert.equal(formatCidr(v6.allocateNext()), 'fd00:10:244::/64');
  assert.equal(formatCidr(v6.allocateNext()), 'fd00:10:244:1::/64');
  assert.throws(() => new CidrSet(parseCidr('fd00::/32')!, 64), /the node CIDR size is too big/);
});

test('the configuration is checked as kube-controller-manager checks it', () => {
  const base = { allocateNodeCidrs: true, nodeCidrMaskSize: 24 };
  assert.equal(ipamConfig({ allocateNodeCidrs: false }), undefined);
  const cases: { opts: Record<string, unknown>; error?: RegExp; masks?: number[] }[] = [
    { opts: { clusterCidr: '10.244.0.0/16' }, masks: [24] },
    { opts: { clusterCidr: '10.244.0.0/16', nodeCidrMaskSize: 26 }, masks: [26] },
    { opts: { clusterCidr: '10.244.0.0/16,fd00:10:244::/56' }, masks: [24, 64] },
    { opts: { clusterCidr: 'fd00:10:244::/56' }, masks: [64] },
    { opts: {}, error: /needs --cluster-cidr/ },
    { opts: { clusterCidr: '10.244.0.0/16,10.245.0.0/16' }, error: /not configured as dual stack/ },
    { opts: { clusterCidr: '10.0.0.0/16,fd00::/56,10.1.0.0/16' }, error: /more than max allowed of 2/ },
    { opts: { clusterCidr: '10.244.0.0/16', nodeCidrMaskSizeIpv6: 64 }, error: /not allowed for a single-stack IPv4 cluster/ },
    { opts: { clusterCidr: '10.244.0.0/16', cidrAllocatorType: 'CloudAllocator' }, error: /cloud provider is not configured/ },
    { opts: { clusterCidr: 'nonsense' }, error: /invalid CIDR address: nonsense/ },
  ];
  for (const k of cases) {
    const run = () => ipamConfig({ ...base, ...k.opts });
    if (k.error) assert.throws(run, k.error, JSON.stringify(k.opts));
    else assert.deepEqual(run()!.maskSizes, k.masks, JSON.stringify(k.opts));
  }
});

test('nodes without a podCIDR get one; held and service ranges are skipped; a deleted node\'s returns; a full range is an event', async () => {
  const node = (name: string, cidr?: string) => obj('v1', 'Node', name, { spec: cidr ? { podCIDR: cidr, podCIDRs: [cidr] } : {} });
  const ctx = fakeControllerContext({
    objects: [node('has', '10.244.0.0/24'), node('a'), node('b')],
    options: { allocateNodeCidrs: true, clusterCidr: '10.244.0.0/22', nodeCidrMaskSize: 24, serviceClusterIpRange: '10.244.1.0/24' },
  });
  const c = new NodeIpamController(ctx);
  const abort = new AbortController();
  const running = c.run(1, abort.signal);
  try {
    const cidrOf = (name: string) => (ctx.clientset.tracker.get(NODES, '', name) as Node | undefined)?.spec?.podCIDRs;
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 200 && !cond(); i++) await flush(3);
    };
    await until(() => cidrOf('a') !== undefined && cidrOf('b') !== undefined);
    assert.deepEqual([cidrOf('a'), cidrOf('b')].map((x) => x?.[0]).sort(), ['10.244.2.0/24', '10.244.3.0/24']);
    assert.equal((ctx.clientset.tracker.get(NODES, '', 'a') as Node).spec?.podCIDR, cidrOf('a')![0]);
    ctx.clientset.tracker.add(node('c'));
    await until(() => ctx.events.some((e) => e.reason === 'CIDRNotAvailable'));
    assert.ok(ctx.events.some((e) => e.reason === 'CIDRNotAvailable' && e.message === 'Node c status is now: CIDRNotAvailable'));
    ctx.clientset.tracker.remove(NODES, '', 'c');
    const freed = cidrOf('a')![0];
    ctx.clientset.tracker.remove(NODES, '', 'a');
    ctx.clientset.tracker.add(node('d'));
    await until(() => cidrOf('d') !== undefined);
    assert.deepEqual(cidrOf('d'), [freed]);
  } finally {
    abort.abort();
    await running;
  }
});

test('a node whose spec loses its subnets (a snapshot restore writes the Node back) gets the same ones again', async () => {
  const ctx = fakeControllerContext({
    objects: [obj('v1', 'Node', 'a', { spec: {} })],
    options: { allocateNodeCidrs: true, clusterCidr: '10.244.0.0/22', nodeCidrMaskSize: 24 },
  });
  const c = new NodeIpamController(ctx);
  const abort = new AbortController();
  const running = c.run(1, abort.signal);
  try {
    const current = () => ctx.clientset.tracker.get(NODES, '', 'a') as Node;
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 200 && !cond(); i++) await flush(3);
    };
    await until(() => current().spec?.podCIDRs !== undefined);
    const first = current().spec!.podCIDRs;
    assert.equal(first?.length, 1);
    ctx.clientset.tracker.put(NODES, { ...current(), spec: {} });
    await until(() => current().spec?.podCIDRs !== undefined);
    assert.deepEqual(current().spec?.podCIDRs, first);
    assert.equal(current().spec?.podCIDR, first![0]);
  } finally {
    abort.abort();
    await running;
  }
});
