// Client-side token bucket (golang.org/x/time/rate as client-go uses it): `qps` tokens a second,
// at most `burst` saved up. Callers reserve a token and wait for it (never dropped), first come
// first served. One bucket is shared by every request of one Clientset.
import { realClock, type Clock } from './clock.js';

export interface RateLimiterOptions {
  /** Tokens per second; ≤ 0 or Infinity: no limit. */
  qps: number;
  burst: number;
  clock?: Clock;
}

export class TokenBucket {
  readonly qps: number;
  readonly burst: number;
  private tokens: number;
  private last: number;
  private readonly clock: Clock;
  /** Requests that had to wait, and the total wait (milliseconds): for metrics. */
  throttled = 0;
  throttledMs = 0;

  constructor(opts: RateLimiterOptions) {
    this.qps = opts.qps;
    this.burst = Math.max(1, Math.floor(opts.burst));
    this.clock = opts.clock ?? realClock;
    this.tokens = this.burst;
    this.last = this.clock.now();
  }

  get unlimited(): boolean {
    return !(this.qps > 0) || this.qps === Infinity;
  }

  /** Takes a token now and returns how long the caller must wait before using it (ms). */
  reserve(): number {
    if (this.unlimited) return 0;
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    return (-this.tokens * 1000) / this.qps;
  }

  /** Takes a token if one is available now (never goes into debt). */
  tryTake(): boolean {
    if (this.unlimited) return true;
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Waits for a token. */
  async wait(): Promise<void> {
    const delay = this.reserve();
    if (delay <= 0) return;
    this.throttled++;
    this.throttledMs += delay;
    await this.clock.sleep(delay);
  }
}
