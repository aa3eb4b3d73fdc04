// A cluster CIDR cut into node-sized subnets (nodeipam's cidrset): subnets are handed out round
// robin from where the last one was, marked used when a node already has one, and released when
// its node goes. IPv4 and IPv6 alike (addresses as bigints).
import { canonicalIP } from '../../machinery/validation/ip-strict.js';
import { parseIP } from '../../machinery/validation/names.js';

/** nodeipam's clusterSubnetMaxDiff: an IPv6 cluster CIDR is cut into at most 2^16 node subnets. */
const MAX_SUBNET_DIFF = 16;

export interface Cidr {
  /** The network address. */
  base: bigint;
  prefix: number;
  /** 32 or 128. */
  bits: number;
}

const toBig = (bytes: readonly number[]): bigint => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);

function toBytes(n: bigint, bits: number): number[] {
  const out: number[] = [];
  for (let i = bits / 8 - 1; i >= 0; i--) out.push(Number((n >> BigInt(i * 8)) & 0xffn));
  return out;
}

/** net.ParseCIDR: the network (host bits cleared) of `a.b.c.d/n` or `x::/n`; undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(text.slice(0, slash).trim(), true);
  const len = text.slice(slash + 1).trim();
  if (!ip || !/^\d{1,3}$/.test(len)) return undefined;
  const bits = ip.length * 8;
  const prefix = Number(len);
  if (prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  return { base: (toBig(ip) >> hostBits) << hostBits, prefix, bits };
}

export const formatCidr = (c: Cidr): string => `${canonicalIP(toBytes(c.base, c.bits))}/${c.prefix}`;
export const isIPv6 = (c: Cidr): boolean => c.bits === 128;

export class CidrSetFullError extends Error {
  constructor() {
    super('CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range');
  }
}

export class CidrSet {
  readonly size: number;
  private readonly used: Uint8Array;
  private allocated = 0;
  private nextCandidate = 0;

  constructor(
    readonly cluster: Cidr,
    readonly subnetPrefix: number,
  ) {
    if (subnetPrefix < cluster.prefix || subnetPrefix > cluster.bits) throw new Error(`the node CIDR mask size ${subnetPrefix} must be between the cluster CIDR's ${cluster.prefix} and ${cluster.bits}`);
    if (subnetPrefix - cluster.prefix > (isIPv6(cluster) ? MAX_SUBNET_DIFF : 30)) throw new Error('New CIDR set failed; the node CIDR size is too big');
    this.size = 2 ** (subnetPrefix - cluster.prefix);
    this.used = new Uint8Array(this.size);
  }

  get free(): number {
    return this.size - this.allocated;
  }

  private subnet(index: number): Cidr {
    return { base: this.cluster.base + (BigInt(index) << BigInt(this.cluster.bits - this.subnetPrefix)), prefix: this.subnetPrefix, bits: this.cluster.bits };
  }

  allocateNext(): Cidr {
    for (let i = 0; i < this.size; i++) {
      const index = (this.nextCandidate + i) % this.size;
      if (this.used[index]) continue;
      this.used[index] = 1;
      this.allocated++;
      this.nextCandidate = (index + 1) % this.size;
      return this.subnet(index);
    }
    throw new CidrSetFullError();
  }

  /** The indexes of the node subnets `cidr` overlaps, or undefined when it lies outside the cluster CIDR. */
  private indexRange(cidr: Cidr): [number, number] | undefined {
    if (cidr.bits !== this.cluster.bits) return undefined;
    const hostBits = BigInt(this.cluster.bits - this.subnetPrefix);
    const clusterEnd = this.cluster.base + (1n << BigInt(this.cluster.bits - this.cluster.prefix)) - 1n;
    const start = cidr.base;
    const end = cidr.base + (1n << BigInt(cidr.bits - cidr.prefix)) - 1n;
    if (end < this.cluster.base || start > clusterEnd) return undefined;
    const from = start < this.cluster.base ? 0 : Number((start - this.cluster.base) >> hostBits);
    const to = end > clusterEnd ? this.size - 1 : Number((end - this.cluster.base) >> hostBits);
    return [from, to];
  }

  /** Occupy: marks what `cidr` covers as used (a node's existing podCIDR, or the service range). */
  occupy(cidr: Cidr): boolean {
    const range = this.indexRange(cidr);
    if (!range) return false;
    for (let i = range[0]; i <= range[1]; i++) {
      if (!this.used[i]) this.allocated++;
      this.used[i] = 1;
    }
    return true;
  }

  release(cidr: Cidr): void {
    const range = this.indexRange(cidr);
    if (!range) return;
    for (let i = range[0]; i <= range[1]; i++) {
      if (this.used[i]) this.allocated--;
      this.used[i] = 0;
    }
  }
}
