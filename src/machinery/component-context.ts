// What a component (`kubelite apiserver|controller-manager|scheduler|nodes`) gets from where it
// runs, instead of reaching for the process: its standard output and error, the request to stop,
// and whether the process is its own. In a process (or on a worker thread) of its own these are
// the process's streams and SIGTERM/SIGINT (processContext); in a single-process cluster's shared
// event loop (src/up/in-loop.ts) the supervisor gives each component its own streams and stops it
// by a function, so that several components — and several clusters — share one isolate without
// one's signal handlers, output or process-wide V8 settings reaching the others.
import { isMainThread } from 'node:worker_threads';

export interface ComponentContext {
  /** Writes to the component's standard output (the `ready:` line). */
  stdout(text: string): void;
  /** Writes to the component's standard error (its log lines). */
  stderr(text: string): void;
  /**
   * Resolves when the component is asked to stop: SIGTERM or SIGINT for a process of its own,
   * the supervisor's stop in a shared event loop. Listening starts at the first call, as a signal
   * handler installed then (before it, a signal ends a process of its own at once).
   */
  stopRequested(): Promise<void>;
  /** Whether the component has the process to itself: process-wide V8 settings are its to choose. */
  readonly ownsProcess: boolean;
}

/** The context of a component run as `kubelite <component>`: the process's streams and signals. */
export function processContext(): ComponentContext {
  let stop: Promise<void> | undefined;
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stopRequested: () =>
      (stop ??= new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve()).once('SIGTERM', () => resolve());
      })),
    // On a worker thread the V8 flags would be every component's, as in a shared event loop.
    ownsProcess: isMainThread,
  };
}

/** One JSON log line per event on the component's standard error: `{time, component, ...fields}`. */
export function jsonLog(ctx: Pick<ComponentContext, 'stderr'>, component: string): (fields: Record<string, unknown>) => void {
  return (fields) => ctx.stderr(`${JSON.stringify({ time: new Date().toISOString(), component, ...fields })}\n`);
}
