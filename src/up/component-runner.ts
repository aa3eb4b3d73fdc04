// How a component of a cluster runs: as a child process of its own (the default of today), or as a
// worker thread of the supervisor's process (`singleProcess`): the same `kubelite <component>
// <flags>` either way, so every flag reaches the component as it does on the command line, its
// output is read line by line, and it stops on SIGTERM (posted to a worker, which has no signals
// of its own: src/cli/main.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { componentNodeFlags } from './node-flags.js';

export interface RunningComponent {
  /** Its process's pid; none for a worker thread, which shares the supervisor's. */
  pid?: number;
  stdout: Readable;
  stderr: Readable;
  /** Resolves once it has exited: its exit code, or the signal that ended it. */
  exited: Promise<string>;
  /** Asks it to stop as SIGTERM does. */
  terminate(): void;
  /** Ends it at once (SIGKILL; a worker is terminated). */
  kill(): void;
}

export type ComponentLauncher = (bin: string, argv: readonly string[]) => RunningComponent;

/** Every component process of every cluster of this process, killed when it exits without stop(). */
export const liveChildren = new Set<ChildProcess>();

export const launchChildProcess: ComponentLauncher = (bin, argv) => {
  // Its own process group, so that a terminal's Ctrl-C reaches the supervisor alone, which stops
  // the components in order; the IPC channel is how a component sees its supervisor go when
  // that one is killed outright (src/cli/main.ts: it then stops itself).
  const child = spawn(process.execPath, [...componentNodeFlags(), bin, ...argv], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
  liveChildren.add(child);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      liveChildren.delete(child);
      resolve(String(signal ?? code));
    });
  });
  return { pid: child.pid, stdout: child.stdout!, stderr: child.stderr!, exited, terminate: () => child.kill('SIGTERM'), kill: () => child.kill('SIGKILL') };
};

/**
 * A worker thread: an isolate of its own (its heap, its copy of the compiled bundle) but not a
 * node runtime, native modules and buffers of its own; it goes with the process however that ends.
 */
const code = (err: Error) => (err as NodeJS.ErrnoException).code ?? err.name;

export const launchWorkerThread: ComponentLauncher = (bin, argv) => {
  const worker = new Worker(bin, { argv: [...argv], stdout: true, stderr: true });
  // An exception nothing caught ends the worker, not the process: said as its exit's reason.
  let uncaught: string | undefined;
  worker.once('error', (err) => (uncaught = `${code(err)}: ${err.message}`));
  const exited = new Promise<string>((resolve) => worker.once('exit', (exitCode) => resolve(uncaught ?? String(exitCode))));
  return { stdout: worker.stdout, stderr: worker.stderr, exited, terminate: () => worker.postMessage('SIGTERM'), kill: () => void worker.terminate() };
};
