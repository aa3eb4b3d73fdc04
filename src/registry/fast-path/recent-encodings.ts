// The bytes of recent watch events, per encoding (format and version), so that the watchers an
// event fans out to encode it once between them.
//
// Only recent events: an event is encoded by every live watcher within moments of its write, and
// the watch cache's window keeps events for minutes (the seed's history). Keeping each event's
// bytes for as long as the event lived in the window cost the API server more than the cache
// itself: with 3,000 pods Running under kubelite up, 92 MB of protobuf frames for the controller
// manager's, scheduler's and nodes' watches, ~300 MiB with 10,000. A watcher further behind than
// the last `capacity` events encodes again.
export class RecentEncodings {
  /** Insertion order is age: the first entry is the oldest. */
  private readonly byEvent = new Map<object, Map<string, Uint8Array>>();

  constructor(private readonly capacity: number) {}

  /** `event`'s bytes in encoding `key`, made by `encode` unless a watcher made them recently. */
  get(event: object, key: string, encode: () => Uint8Array): Uint8Array {
    let perEvent = this.byEvent.get(event);
    if (perEvent === undefined) {
      if (this.byEvent.size >= this.capacity) this.byEvent.delete(this.byEvent.keys().next().value!);
      this.byEvent.set(event, (perEvent = new Map()));
    }
    let bytes = perEvent.get(key);
    if (bytes === undefined) perEvent.set(key, (bytes = encode()));
    return bytes;
  }

  get size(): number {
    return this.byEvent.size;
  }
}
