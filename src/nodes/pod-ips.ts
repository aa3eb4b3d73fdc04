// Pod IPs of one simulated node: unique addresses from its IPv4 pod CIDR (the network address, the
// first host — the bridge's — and the broadcast address excluded: .2 to .254 of a /24), handed out
// round-robin, and the ones a restarted agent finds already in use kept. On a dual-stack node each
// pod also has the address of the same slot in the node's IPv6 pod CIDR.
import { canonicalIP } from '../machinery/validation/ip-strict.js';
import { parseIP } from '../machinery/validation/names.js';

/** At most this many addresses per node (a /16 would otherwise mean 65,000 candidates per pod). */
const MAX_SLOTS = 4096;

function ipToInt(ip: string): number {
  return ip.split('.').reduce((n, p) => n * 256 + Number(p), 0);
}

function intToIp(n: number): string {
  return [Math.floor(n / 2 ** 24) % 256, Math.floor(n / 2 ** 16) % 256, Math.floor(n / 256) % 256, n % 256].join('.');
}

export class PodIPs {
  private cursor = 0;
  private readonly inUse = new Set<number>();
  private readonly base: number;
  /** Usable slots: 2 .. slots + 1. */
  private readonly slots: number;

  /** The IPv6 pod CIDR's network address (bytes), when the node has one. */
  private readonly base6: number[] | undefined;

  constructor(podCIDR: string, podCIDRv6 = '') {
    const v6 = parseIP(podCIDRv6.split('/')[0] ?? '');
    this.base6 = v6?.length === 16 ? v6 : undefined;
    const [addr = '', bits = '24'] = podCIDR.split('/');
    const size = 2 ** (32 - Math.min(30, Math.max(8, Number(bits) || 24)));
    this.base = ipToInt(addr) - (ipToInt(addr) % size);
    this.slots = Math.min(MAX_SLOTS, size - 3);
  }

  allocate(): { ip: string; slot: number } {
    for (let tries = 0; tries < this.slots; tries++) {
      this.cursor = (this.cursor % this.slots) + 1;
      const slot = this.cursor + 1;
      if (!this.inUse.has(slot)) {
        this.inUse.add(slot);
        return { ip: intToIp(this.base + slot), slot };
      }
    }
    const slot = this.cursor + 1;
    return { ip: intToIp(this.base + slot), slot };
  }

  /** The slot of `ip` when it is one of this node's pod IPs (a pod reported before a restart), now in use. */
  adopt(ip: string): number | undefined {
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return undefined;
    const slot = ipToInt(ip) - this.base;
    if (slot < 2 || slot > this.slots + 1) return undefined;
    this.inUse.add(slot);
    return slot;
  }

  /** The IPv6 address of a slot (undefined: the node is not dual-stack). */
  ipv6Of(slot: number): string | undefined {
    if (!this.base6) return undefined;
    const bytes = [...this.base6];
    let carry = slot;
    for (let i = 15; i >= 0 && carry > 0; i--) {
      const v = bytes[i]! + carry;
      bytes[i] = v % 256;
      carry = Math.floor(v / 256);
    }
    return canonicalIP(bytes);
  }

  release(slot: number): void {
    this.inUse.delete(slot);
  }
}
