// The nodeipam controller's configuration from the controller manager's flags, checked as
// kube-controller-manager's startNodeIpamController checks it: at most two cluster CIDRs, one per
// IP family; --node-cidr-mask-size for single-stack clusters, the per-family sizes for dual stack;
// no CloudAllocator without a cloud provider.
import { formatCidr, isIPv6, parseCidr, type Cidr } from './cidr-set.js';

export interface IpamConfig {
  clusterCidrs: Cidr[];
  /** The node subnet size for each cluster CIDR. */
  maskSizes: number[];
  serviceCidrs: Cidr[];
}

const DEFAULT_MASK_V4 = 24;
const DEFAULT_MASK_V6 = 64;

function cidrList(text: string | undefined, flag: string): Cidr[] {
  const parts = (text ?? '').split(',').map((p) => p.trim());
  const out: Cidr[] = [];
  for (const p of parts) {
    const c = parseCidr(p);
    if (!c) throw new Error(`${flag}: invalid CIDR address: ${p}`);
    out.push(c);
  }
  return out;
}

/** undefined when --allocate-node-cidrs is off (the controller then does nothing, as in Kubernetes). */
export function ipamConfig(o: Readonly<Record<string, unknown>>): IpamConfig | undefined {
  if (o.allocateNodeCidrs !== true) return undefined;
  if (o.cidrAllocatorType === 'CloudAllocator') throw new Error("--cidr-allocator-type is set to 'CloudAllocator' but cloud provider is not configured");
  if (typeof o.clusterCidr !== 'string' || o.clusterCidr.trim() === '') throw new Error('--allocate-node-cidrs needs --cluster-cidr');
  const clusterCidrs = cidrList(o.clusterCidr, '--cluster-cidr');
  const families = new Set(clusterCidrs.map(isIPv6));
  if (clusterCidrs.length > 2) throw new Error(`length of clusterCIDRs is:${clusterCidrs.length} more than max allowed of 2`);
  if (clusterCidrs.length > 1 && families.size < 2) throw new Error(`len of ClusterCIDRs==${clusterCidrs.length} and they are not configured as dual stack (at least one from each IPFamily`);
  const mask = typeof o.nodeCidrMaskSize === 'number' ? o.nodeCidrMaskSize : DEFAULT_MASK_V4;
  const maskV4 = typeof o.nodeCidrMaskSizeIpv4 === 'number' && o.nodeCidrMaskSizeIpv4 > 0 ? o.nodeCidrMaskSizeIpv4 : undefined;
  const maskV6 = typeof o.nodeCidrMaskSizeIpv6 === 'number' && o.nodeCidrMaskSizeIpv6 > 0 ? o.nodeCidrMaskSizeIpv6 : undefined;
  let maskSizes: number[];
  if (clusterCidrs.length > 1) {
    maskSizes = clusterCidrs.map((c) => (isIPv6(c) ? (maskV6 ?? DEFAULT_MASK_V6) : (maskV4 ?? DEFAULT_MASK_V4)));
  } else {
    const v6 = isIPv6(clusterCidrs[0]!);
    if (maskV4 !== undefined && v6) throw new Error('usage of --node-cidr-mask-size-ipv4 is not allowed for a single-stack IPv6 cluster');
    if (maskV6 !== undefined && !v6) throw new Error('usage of --node-cidr-mask-size-ipv6 is not allowed for a single-stack IPv4 cluster');
    // --node-cidr-mask-size's default of 24 does not fit an IPv6 cluster: its own size then applies
    maskSizes = [v6 ? (maskV6 ?? (mask === DEFAULT_MASK_V4 ? DEFAULT_MASK_V6 : mask)) : (maskV4 ?? mask)];
  }
  const serviceCidrs = typeof o.serviceClusterIpRange === 'string' && o.serviceClusterIpRange.trim() !== '' ? cidrList(o.serviceClusterIpRange, '--service-cluster-ip-range') : [];
  return { clusterCidrs, maskSizes, serviceCidrs };
}

export const describeConfig = (c: IpamConfig): string => c.clusterCidrs.map((cidr, i) => `${formatCidr(cidr)} in /${c.maskSizes[i]}`).join(', ');
