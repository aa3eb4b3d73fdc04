// The pods' range under `kubelite up`: kind's 10.244.0.0/16, of which nodeipam gives each node a
// /24 — room for 256 nodes. A larger cluster gets the smallest range around it with a /24 for
// every node (10.244.0.0/14 for 1,000 nodes, 10.192.0.0/10 for 10,000; at most 10.128.0.0/9,
// 32,768 nodes), clear of the Services' 10.96.0.0/12 and the nodes' own 10.0.0.0/16: without it
// every node past the 256th waits for a pod CIDR forever (CIDRNotAvailable) and runs no pod.
export const CLUSTER_CIDR = '10.244.0.0/16';
const NODE_MASK = 24;
const WIDEST_PREFIX = 9;

export function clusterCIDRFor(nodes: number): string {
  let prefix = 16;
  while (prefix > WIDEST_PREFIX && 2 ** (NODE_MASK - prefix) < nodes) prefix--;
  if (prefix === 16) return CLUSTER_CIDR;
  const second = 244 & ~(2 ** (16 - prefix) - 1) & 0xff;
  return `10.${second}.0.0/${prefix}`;
}
