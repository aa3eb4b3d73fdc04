// Where objects made now register themselves: a process-wide default, or, for the synchronous
// extent of within(), a collection of the caller's. A controller manager constructs its controllers
// within its own collections (their work queues' and node lifecycle metrics), so that each reports
// its own when several share a process — a single-process cluster's event loop, two clusters in
// one test — without every constructor taking the collection as an argument.
export class RegistrationScope<S> {
  private current: S;

  constructor(readonly processDefault: S) {
    this.current = processDefault;
  }

  /** The collection objects made now register in. */
  get target(): S {
    return this.current;
  }

  /** Runs `construct` with `into` as the target; synchronous code only. */
  within<T>(into: S, construct: () => T): T {
    const previous = this.current;
    this.current = into;
    try {
      return construct();
    } finally {
      this.current = previous;
    }
  }
}
