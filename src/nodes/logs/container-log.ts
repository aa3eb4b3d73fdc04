// The log of one run of one container (a container ID, as the kubelet keeps one log file per
// container instance): its lines in a bounded ring, the lines its command will print later
// (pulled in as their time comes), an optional host file followed while it runs, and the readers
// following it (told of each new line and of its end).
import { closeSync, openSync, readSync, statSync, watch, type FSWatcher } from 'node:fs';
import { LogRing, type LogLine } from './ring.js';
import type { Horizon, PrintedLine } from './script-output.js';

/** At most this many printed lines are pulled in one go (a loop of tiny sleeps over hours). */
const MAX_CATCH_UP = 20_000;

export class ContainerLog {
  readonly ring: LogRing;
  /** When the run ended (undefined while it runs). */
  ended: number | undefined;
  private pending: Iterator<PrintedLine> | undefined;
  private next: PrintedLine | undefined;
  private readonly listeners = new Set<() => void>();
  private file: FileFollower | undefined;

  constructor(
    /** The container ID of this run (`kubelite://...`). */
    readonly id: string,
    readonly runStart: number,
    output: Iterator<PrintedLine> | undefined,
    maxBytes?: number,
    /** Told how far each catch-up goes, so the output skips what the ring would drop. */
    private readonly horizon?: Horizon,
  ) {
    this.ring = new LogRing(maxBytes);
    if (horizon) horizon.keepBytes = this.ring.maxBytes;
    this.pending = output;
    this.advance();
  }

  private advance(): void {
    const r = this.pending?.next();
    this.next = r && !r.done ? r.value : undefined;
    if (!this.next) this.pending = undefined;
  }

  /** Moves the printed lines whose time has come (by `now`, and not after the end) into the ring. */
  catchUp(now: number): void {
    const until = this.ended === undefined ? now : Math.min(now, this.ended);
    if (this.horizon) this.horizon.untilMs = until - this.runStart;
    let n = 0;
    while (this.next && this.runStart + this.next.offsetMs <= until && n++ < MAX_CATCH_UP) {
      this.ring.append({ at: this.runStart + this.next.offsetMs, text: this.next.text });
      this.advance();
    }
  }

  /** When the next printed line is due (undefined: none is). */
  nextAt(): number | undefined {
    return this.next ? this.runStart + this.next.offsetMs : undefined;
  }

  write(line: LogLine): void {
    this.catchUp(line.at);
    this.ring.append(line);
    this.notify();
  }

  /** Ends the run at `at` with its last lines: nothing it would have printed later is kept. */
  end(at: number, lastLines: readonly string[]): void {
    if (this.ended !== undefined) return;
    this.file?.close();
    this.file = undefined;
    this.catchUp(at);
    this.pending = undefined;
    this.next = undefined;
    for (const text of lastLines) this.ring.append({ at, text });
    this.ended = at;
    this.notify();
  }

  /** Follows `path` on the host: what it holds at the start (timed then), then what is appended while the run lasts. */
  followFile(path: string, now: () => number): void {
    this.file = new FileFollower(path, (text, initial) => this.write({ at: initial ? this.runStart : now(), text }), (error) => this.write({ at: now(), text: `[kubelite] log file ${path}: ${error}` }));
  }

  /** Calls `fn` on each new line and at the end; returns the unsubscribe. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(): void {
    for (const fn of [...this.listeners]) fn();
  }

  /** The pod is gone: the run ends at `at` if it had not, and its followers are let go. */
  close(at: number): void {
    this.end(at, []);
    this.listeners.clear();
  }
}

/** A host file read to its end and then again whenever it changes (from 0 again when it shrank). */
class FileFollower {
  private offset = 0;
  private partial = '';
  private watcher: FSWatcher | undefined;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly onLine: (text: string, initial: boolean) => void,
    onError: (error: string) => void,
  ) {
    try {
      this.read(true);
      this.watcher = watch(path, { persistent: false }, () => this.read(false));
      this.watcher.on('error', () => this.close());
    } catch (e) {
      onError((e as NodeJS.ErrnoException).code ?? (e as Error).message);
    }
  }

  private read(initial: boolean): void {
    if (this.closed && !initial) return;
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return;
    }
    if (size < this.offset) {
      this.offset = 0;
      this.partial = '';
    }
    if (size === this.offset) return;
    const fd = openSync(this.path, 'r');
    try {
      const buf = Buffer.alloc(size - this.offset);
      const n = readSync(fd, buf, 0, buf.length, this.offset);
      this.offset += n;
      const text = this.partial + buf.subarray(0, n).toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) this.onLine(line, initial);
    } finally {
      closeSync(fd);
    }
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
  }
}
