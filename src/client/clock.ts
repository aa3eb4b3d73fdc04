// Clocks: the real one, and a manual one for tests (time moves only when told; timers fire as it
// passes them).

export interface TimerHandle {
  cancel(): void;
  /** Lets the process exit while the timer is pending (Node's timeout.unref); a no-op elsewhere. */
  unref?(): void;
}

export interface Clock {
  now(): number;
  /** Runs `fn` after `ms` milliseconds of this clock. */
  setTimer(fn: () => void, ms: number): TimerHandle;
  sleep(ms: number): Promise<void>;
}

/** A Node timeout as a TimerHandle: one small object, no closures (10,000 simulated nodes keep three timers each). */
class RealTimer implements TimerHandle {
  constructor(private readonly timeout: NodeJS.Timeout) {}
  cancel(): void {
    clearTimeout(this.timeout);
  }
  unref(): void {
    this.timeout.unref();
  }
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => new RealTimer(setTimeout(fn, Math.max(0, ms))),
  sleep: (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms))),
};

/** A clock tests move by hand: `advance(ms)` fires the timers due, in time order. */
export class ManualClock implements Clock {
  private timers: { at: number; seq: number; fn: () => void; cancelled: boolean }[] = [];
  private seq = 0;

  constructor(private ms = Date.UTC(2026, 0, 1)) {}

  now = (): number => this.ms;

  setTimer(fn: () => void, ms: number): TimerHandle {
    const t = { at: this.ms + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(t);
    return { cancel: () => void (t.cancelled = true) };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((r) => this.setTimer(r, ms));
  }

  /** Timers not yet fired nor cancelled. */
  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  set(ms: number | Date): void {
    const to = typeof ms === 'number' ? ms : ms.getTime();
    if (to >= this.ms) this.advance(to - this.ms);
    else this.ms = to;
  }

  advance(ms: number): void {
    const end = this.ms + ms;
    for (;;) {
      const due = this.timers.filter((t) => !t.cancelled && t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      due.cancelled = true;
      this.ms = Math.max(this.ms, due.at);
      due.fn();
    }
    this.timers = this.timers.filter((t) => !t.cancelled);
    this.ms = end;
  }
}
