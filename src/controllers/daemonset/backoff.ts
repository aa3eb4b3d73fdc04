// The back-off of deleting a node's failed daemon pod again (the kubelet may keep rejecting it).

/** client-go's flowcontrol.Backoff (without jitter): per-key exponential delays that expire after 2× the cap. */
export class Backoff {
  private readonly entries = new Map<string, { backoff: number; lastUpdate: number }>();
  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {}
  private expired(now: number, last: number): boolean {
    return now - last > 2 * this.maxMs;
  }
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(now, e.lastUpdate)) return false;
    return now - e.lastUpdate < e.backoff;
  }
  next(key: string, now: number): void {
    const e = this.entries.get(key);
    if (!e || this.expired(now, e.lastUpdate)) this.entries.set(key, { backoff: this.initialMs, lastUpdate: now });
    else {
      e.backoff = Math.min(e.backoff * 2, this.maxMs);
      e.lastUpdate = now;
    }
  }
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }
  /** Drops entries that expired (Kubernetes calls this every minute). */
  gc(now: number): void {
    for (const [k, e] of this.entries) if (this.expired(now, e.lastUpdate)) this.entries.delete(k);
  }
}
