import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clusterCIDRFor } from './cluster-cidr.js';

test('clusterCIDRFor: kind\'s /16 up to 256 nodes, then the smallest aligned range with a /24 per node', () => {
  assert.equal(clusterCIDRFor(3), '10.244.0.0/16');
  assert.equal(clusterCIDRFor(256), '10.244.0.0/16');
  assert.equal(clusterCIDRFor(257), '10.244.0.0/15');
  assert.equal(clusterCIDRFor(1000), '10.244.0.0/14');
  assert.equal(clusterCIDRFor(10_000), '10.192.0.0/10');
  assert.equal(clusterCIDRFor(32_768), '10.128.0.0/9');
  assert.equal(clusterCIDRFor(100_000), '10.128.0.0/9', 'no wider: it would reach the Services\' and the nodes\' ranges');
});
