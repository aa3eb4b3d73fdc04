// A bounded log: the newest lines of one container instance up to a byte budget (the kubelet's
// container log rotation keeps --container-log-max-size; here the oldest lines go once the
// budget is spent), each with the time it was written.

export interface LogLine {
  /** When the line was written (ms since the epoch). */
  at: number;
  /** The line without its newline. */
  text: string;
}

/** 1 MiB per container instance. */
export const DEFAULT_LOG_BYTES = 1 << 20;

const sizeOf = (line: LogLine): number => Buffer.byteLength(line.text) + 1;

export class LogRing {
  private buf: LogLine[] = [];
  private head = 0;
  private size = 0;
  /** Lines dropped from the front so far: a reader's position stays valid as the ring moves. */
  private dropped = 0;

  constructor(readonly maxBytes = DEFAULT_LOG_BYTES) {}

  append(line: LogLine): void {
    this.buf.push(line);
    this.size += sizeOf(line);
    while (this.size > this.maxBytes && this.head < this.buf.length - 1) {
      this.size -= sizeOf(this.buf[this.head]!);
      this.head++;
      this.dropped++;
    }
    // Compact once the dropped prefix is as long as what is kept.
    if (this.head > 1024 && this.head * 2 > this.buf.length) {
      this.buf = this.buf.slice(this.head);
      this.head = 0;
    }
  }

  get bytes(): number {
    return this.size;
  }

  /** The absolute index of the first line kept and one past the last. */
  get start(): number {
    return this.dropped;
  }

  get end(): number {
    return this.dropped + this.buf.length - this.head;
  }

  /** The lines from absolute index `from` (clamped to what is kept) to the end. */
  linesFrom(from: number): LogLine[] {
    const i = Math.max(from, this.dropped) - this.dropped + this.head;
    return this.buf.slice(i);
  }
}
