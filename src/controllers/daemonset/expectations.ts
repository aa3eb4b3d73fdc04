// The DaemonSet controller's expectations: how many pod creations and deletions a sync waits to
// see before it acts again, so a burst of watch events does not create or delete twice.

/** Add/delete counts a sync waits for (controller.ControllerExpectations). */
export class Expectations {
  private readonly m = new Map<string, { add: number; del: number; at: number }>();
  constructor(private readonly now: () => number) {}
  set(key: string, add: number, del: number): void {
    this.m.set(key, { add, del, at: this.now() });
  }
  satisfied(key: string): boolean {
    const e = this.m.get(key);
    return !e || (e.add <= 0 && e.del <= 0) || this.now() - e.at > 5 * 60_000;
  }
  observe(key: string, add: number, del: number): void {
    const e = this.m.get(key);
    if (e) {
      e.add -= add;
      e.del -= del;
    }
  }
  delete(key: string): void {
    this.m.delete(key);
  }
}
