// The third way of running a component (component-runner.ts): in the supervisor's own isolate and
// event loop, as a function call — one copy of the compiled code and one heap for every
// component of every single-process cluster of the process, instead of an isolate each on worker
// threads. The component is the same `kubelite <component> <flags>` (src/cli/commands.ts
// runComponent), given a context of its own (src/machinery/component-context.ts): its stdout and
// stderr as streams the supervisor reads line by line, and a stop request in place of SIGTERM.
//
// What sharing the loop costs: an exception nothing catches in a component's callbacks is the
// process's, as a native fault is; a component that does not stop when asked cannot be killed,
// only abandoned (kill() reports it ended and leaves it to finish its stop on its own).
import { PassThrough } from 'node:stream';
import { loadBundleAsLibrary } from '../machinery/bundle-script.js';
import type { ComponentContext } from '../machinery/component-context.js';
import type { ComponentLauncher } from './component-runner.js';

/** Runs `kubelite <component> <flags>` to its exit code with `ctx` as its streams and stop. */
export type ComponentMain = (argv: readonly string[], ctx: ComponentContext) => Promise<number>;

let provided: ComponentMain | undefined;
const loaded = new Map<string, ComponentMain>();

/**
 * The components' code when this process already has it: `kubelite up` (the bundled CLI) gives its
 * own, so that the components run from the bundle that is running, not from a second copy.
 */
export function provideComponentMain(main: ComponentMain): void {
  provided = main;
}

/** The bundle beside the executable `bin` (dist/bundle/cli/kubelite.js → kubelite.cjs), loaded once per process. */
function componentMainOf(bin: string): ComponentMain {
  if (provided) return provided;
  const bundle = bin.replace(/\.js$/, '.cjs');
  let main = loaded.get(bundle);
  if (!main) {
    const exported = loadBundleAsLibrary(bundle).runComponent;
    if (typeof exported !== 'function') throw new Error(`${bundle} exports no runComponent: rebuild it with npm run build`);
    main = exported as ComponentMain;
    loaded.set(bundle, main);
  }
  return main;
}

const reason = (err: unknown) => (err instanceof Error ? `${(err as NodeJS.ErrnoException).code ?? err.name}: ${err.message}` : String(err));

export const launchInLoop: ComponentLauncher = (bin, argv) => {
  const main = componentMainOf(bin);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  // Output after the end (an abandoned component still stopping) goes nowhere.
  const writer = (stream: PassThrough) => (text: string) => void (stream.writableEnded ? undefined : stream.write(text));
  let requestStop!: () => void;
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  let abandon!: (code: string) => void;
  const abandoned = new Promise<string>((resolve) => (abandon = resolve));
  const ctx: ComponentContext = { stdout: writer(stdout), stderr: writer(stderr), stopRequested: () => stopRequested, ownsProcess: false };
  // Started on a later turn, as a process or a thread would be: the caller reads the streams first.
  const ran = new Promise<void>((resolve) => setImmediate(resolve)).then(() => main(argv, ctx)).then(String, reason);
  const exited = Promise.race([ran, abandoned]).then((code) => {
    stdout.end();
    stderr.end();
    return code;
  });
  return {
    stdout,
    stderr,
    exited,
    terminate: requestStop,
    kill: () => {
      requestStop();
      abandon('SIGKILL');
    },
  };
};
