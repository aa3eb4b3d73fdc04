// The pods' IPs under the process runtime: each pod gets its own loopback address from a /16
// (`--process-pod-cidr`, default 127.64.0.0/16), so processes of different pods bind the same port
// without clashing (Linux routes all of 127.0.0.0/8 to the loopback interface).
export class LoopbackIPs {
  private readonly base: number;
  private readonly size: number;
  private readonly used = new Set<number>();
  private nextOffset = 1;

  constructor(cidr: string) {
    const parsed = parseLoopbackCIDR(cidr);
    if (!parsed) throw new Error(`pod CIDR ${JSON.stringify(cidr)} must be a loopback range 127.x.0.0/16 to /24`);
    this.base = parsed.base;
    this.size = parsed.size;
  }

  /** A free address (undefined: the range is used up). */
  allocate(): string | undefined {
    for (let tries = 0; tries < this.size; tries++) {
      const offset = this.nextOffset;
      this.nextOffset = this.nextOffset + 1 >= this.size - 1 ? 1 : this.nextOffset + 1;
      // neither the network nor the broadcast address of any /24 inside: some tools refuse them
      const low = (this.base + offset) & 0xff;
      if (low === 0 || low === 255 || this.used.has(offset)) continue;
      this.used.add(offset);
      return toDotted(this.base + offset);
    }
    return undefined;
  }

  /** Marks an address in the range as used (a pod that had it before a restart); false when outside it. */
  adopt(ip: string): boolean {
    if (!this.contains(ip)) return false;
    this.used.add(fromDotted(ip)! - this.base);
    return true;
  }

  release(ip: string): void {
    const n = fromDotted(ip);
    if (n !== undefined) this.used.delete(n - this.base);
  }

  contains(ip: string): boolean {
    const n = fromDotted(ip);
    return n !== undefined && n >= this.base && n < this.base + this.size;
  }
}

function fromDotted(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function toDotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
}

export function parseLoopbackCIDR(cidr: string): { base: number; size: number } | undefined {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(cidr.trim());
  if (!m) return undefined;
  const bits = Number(m[2]);
  const addr = fromDotted(m[1]!);
  if (addr === undefined || bits < 16 || bits > 24 || addr >>> 24 !== 127) return undefined;
  const size = 2 ** (32 - bits);
  return { base: addr - (addr % size), size };
}
