// Pod IPs: IPv4 from the node's pod CIDR, and on a dual-stack node (nodeipam gave it an IPv6 pod
// CIDR too) one address of each family, IPv4 first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flush } from '../client/fake/index.js';
import { NODES, setup, status } from './agent.testutil.js';
import { PodIPs } from './pod-ips.js';

test('a dual-stack node gives each pod the IPv6 address of its IPv4 slot', () => {
  const ips = new PodIPs('10.244.1.0/24', 'fd00:10:244:1::/64');
  const a = ips.allocate();
  assert.deepEqual([a.ip, ips.ipv6Of(a.slot)], ['10.244.1.2', 'fd00:10:244:1::2']);
  const b = ips.allocate();
  assert.deepEqual([b.ip, ips.ipv6Of(b.slot)], ['10.244.1.3', 'fd00:10:244:1::3']);
  assert.equal(new PodIPs('10.244.1.0/24').ipv6Of(2), undefined);
  assert.equal(new PodIPs('10.244.1.0/24', 'fd00::ff:ff00/120').ipv6Of(300), 'fd00::100:2c');
});

test('through the agent: nodeipam assigns both families, pods get status.podIPs of both (podIP the IPv4 one)', async () => {
  const { agent, clientset, createPod, getPod } = await setup({ registerPodCIDR: false, nodes: 1 });
  await createPod('waits', {});
  assert.equal(getPod('waits')!.status, undefined, 'no pod network before the node has its podCIDR');
  await clientset.resource(NODES).patch('', 'kubelite-node-0', 'merge', { spec: { podCIDR: '10.244.3.0/24', podCIDRs: ['10.244.3.0/24', 'fd00:10:244:3::/64'] } });
  await flush(40);
  const s = status(getPod('waits'));
  assert.equal(s.podIP, '10.244.3.2');
  assert.deepEqual(s.podIPs, [{ ip: '10.244.3.2' }, { ip: 'fd00:10:244:3::2' }]);
  await createPod('host', { hostNetwork: true });
  assert.deepEqual(status(getPod('host')).podIPs, [{ ip: '10.0.0.2' }], 'a host-network pod has the node\'s addresses');
  await agent.stop();
});
