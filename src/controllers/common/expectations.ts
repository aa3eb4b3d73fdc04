// controller.ControllerExpectations (with UID tracking of deletions): what a controller expects to
// see in its informers after its own creates and deletes, so it does not act again on a stale
// cache. Expectations expire after 5 minutes, as Kubernetes' ExpectationsTimeout.

export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  timestamp: number;
  /** Keys of the pods whose deletion is expected. */
  deleteKeys: Set<string>;
}

export class ControllerExpectations {
  private readonly store = new Map<string, Expectation>();
  constructor(private readonly now: () => number = Date.now) {}

  /** True when the controller may sync: expectations met, expired, or never set. */
  satisfiedExpectations(key: string): boolean {
    const e = this.store.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, adds: number): void {
    this.store.set(key, { add: adds, del: 0, timestamp: this.now(), deleteKeys: new Set() });
  }

  expectDeletions(key: string, podKeys: string[]): void {
    this.store.set(key, { add: 0, del: podKeys.length, timestamp: this.now(), deleteKeys: new Set(podKeys) });
  }

  creationObserved(key: string): void {
    const e = this.store.get(key);
    if (e) e.add--;
  }

  /** A pod's deletion was seen (or will never come); counted once per pod key. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.store.get(key);
    if (e && e.deleteKeys.delete(podKey)) e.del--;
  }

  /** Lowers expected creations (creates that failed or were skipped). */
  lowerExpectations(key: string, adds: number, dels: number): void {
    const e = this.store.get(key);
    if (e) {
      e.add -= adds;
      e.del -= dels;
    }
  }

  get(key: string): { add: number; del: number } | undefined {
    const e = this.store.get(key);
    return e ? { add: e.add, del: e.del } : undefined;
  }

  delete(key: string): void {
    this.store.delete(key);
  }
}
