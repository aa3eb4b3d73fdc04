// Which of the components' log lines `kubelite up` shows. Each line comes prefixed with its
// component (`[apiserver] ...`) or `[up]` for the supervisor's own. By default a person sees the
// supervisor's lines and the components' errors only — a start logs hundreds of routine lines —
// and, when a component exits on its own, the lines it logged last (the reason is usually there).
// Once up is stopping, nothing: the components' shutdown chatter (a lease not released because the
// API server went first, ...) is not news.

export type ComponentLogLevel = 'all' | 'errors' | 'none';

/** Lines kept per component for when it exits. */
const TAIL = 20;

const PREFIX = /^\[([a-z-]+)\] /;
const EXITED = /^\[up\] ([a-z-]+) exited /;

export interface ComponentLogFilter {
  line(line: string): void;
  /** Up is stopping: from now on nothing is shown. */
  stopping(): void;
}

export function componentLogFilter(level: ComponentLogLevel, write: (line: string) => void): ComponentLogFilter {
  let quiet = level === 'none';
  const tails = new Map<string, string[]>();
  return {
    stopping: () => {
      quiet = true;
    },
    line: (line) => {
      if (quiet) return;
      if (level === 'all') return write(line);
      const component = PREFIX.exec(line)?.[1];
      if (component === 'up') {
        const exited = EXITED.exec(line)?.[1];
        for (const earlier of (exited && tails.get(exited)) || []) write(earlier);
        if (exited) tails.delete(exited);
        return write(line);
      }
      if (component === undefined) return write(line);
      if (line.includes('"level":"error"')) return write(line);
      let tail = tails.get(component);
      if (!tail) tails.set(component, (tail = []));
      tail.push(line);
      if (tail.length > TAIL) tail.shift();
    },
  };
}

/**
 * Where up's own lines go. A stage (`waiting for the API server`) is a line of its own, except on
 * a terminal, where each stage replaces the one before it on a single progress line; any other
 * line (a component's error, the hints) first ends that progress line.
 */
export function stageWriter(out: { write(text: string): unknown; isTTY?: boolean }): { stage(text: string): void; line(text: string): void; endProgress(): void } {
  let progress = false;
  return {
    /** Ends the progress line (before something is written to the same terminal by another stream). */
    endProgress: () => {
      if (progress) out.write('\n');
      progress = false;
    },
    stage: (text) => {
      if (out.isTTY) {
        out.write(`\r\x1b[K${text}`);
        progress = true;
      } else out.write(`${text}\n`);
    },
    line: (text) => {
      if (progress) out.write('\n');
      progress = false;
      out.write(`${text}\n`);
    },
  };
}
