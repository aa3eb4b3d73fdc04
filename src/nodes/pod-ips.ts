// Pod IPs of one simulated node: unique addresses from its pod CIDR (a /24: .2 to .254), handed
// out round-robin, and the ones a restarted agent finds already in use kept.

function podIPOf(cidr: string, slot: number): string {
  const base = cidr.split('/')[0]!.split('.');
  return `${base[0]}.${base[1]}.${base[2]}.${slot}`;
}

export class PodIPs {
  private cursor = 0;
  private readonly inUse = new Set<number>();

  constructor(private readonly podCIDR: string) {}

  allocate(): { ip: string; slot: number } {
    for (let tries = 0; tries < 253; tries++) {
      this.cursor = (this.cursor % 253) + 1;
      const slot = this.cursor + 1; // .2 .. .254
      if (!this.inUse.has(slot)) {
        this.inUse.add(slot);
        return { ip: podIPOf(this.podCIDR, slot), slot };
      }
    }
    const slot = this.cursor + 1;
    return { ip: podIPOf(this.podCIDR, slot), slot };
  }

  /** The slot of `ip` when it is one of this node's pod IPs (a pod reported before a restart), now in use. */
  adopt(ip: string): number | undefined {
    if (!ip.startsWith(this.podCIDR.split('.').slice(0, 3).join('.') + '.')) return undefined;
    const slot = Number(ip.split('.')[3]);
    this.inUse.add(slot);
    return slot;
  }

  release(slot: number): void {
    this.inUse.delete(slot);
  }
}
