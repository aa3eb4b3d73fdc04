#!/usr/bin/env node
// The one kubelite executable; each subcommand is a component (see DESIGN.md).

import { isMainThread, parentPort } from 'node:worker_threads';
import { commands, printVersion } from './commands.js';
import { LIBRARY_VARIABLE } from '../machinery/bundle-script.js';

/**
 * Loaded as a library (src/machinery/bundle-script.ts loadBundleAsLibrary: a single-process
 * cluster started from tsc's build runs its components from the bundle, in its own event loop):
 * no command line is run and the process's IPC channel and worker port are the caller's.
 */
const asLibrary = process.env[LIBRARY_VARIABLE] === '1';

/** `kubelite <component> <flags>` in this process: what the library load is for (src/up/in-loop.ts). */
export { runComponent } from './commands.js';

const usage = `usage: kubelite <command> [flags]

commands:
${Object.entries(commands).map(([name, c]) => `  ${name.padEnd(20)}${c.describe}`).join('\n')}

Run 'kubelite <command> --help' for the flags and examples of a command.

Examples:
  kubelite up                                # a cluster on 127.0.0.1:6443, state in ./.kubelite
  export KUBECONFIG=$PWD/.kubelite/kubeconfig
  kubectl get nodes
  kubelite down                              # from another shell
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(usage);
    return 2;
  }
  if (command === '--version') return printVersion();
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  const c = commands[command];
  if (!c) {
    process.stderr.write(`kubelite: unknown command ${JSON.stringify(command)} (see kubelite --help)\n`);
    return 2;
  }
  const code = await c.run(rest);
  if (code === 0 && (rest.includes('--help') || rest.includes('-h'))) process.stdout.write(`\nExamples:\n${c.examples.map((e) => `  ${e}`).join('\n')}\n`);
  return code;
}

// A component started by a supervisor (startCluster, `kubelite up`) has an IPC channel to it: when
// the supervisor dies without stopping it (kill -9, a crashed test runner) the channel closes, and
// the component stops as on SIGTERM instead of running on under pid 1. The channel alone does not
// keep the process alive.
if (!asLibrary && process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

// A component run on a worker thread of a single-process cluster (src/up/component-runner.ts)
// gets no signals: its supervisor posts the signal's name instead, which the component's own
// SIGTERM/SIGINT listeners then see as the signal.
if (!asLibrary && !isMainThread && parentPort) {
  parentPort.on('message', (message: unknown) => {
    if (message === 'SIGTERM' || message === 'SIGINT') process.emit(message);
  });
  // the channel alone does not keep the component running (as the IPC channel above)
  parentPort.unref();
}

/**
 * The build's warm-up run (src/machinery/bundle-script.ts warmCodeCache,
 * KUBELITE_CODE_CACHE_WARMUP=1): the modules every component loads on its way to ready are loaded —
 * compiled and evaluated, nothing started — so that V8's code cache made afterwards holds them. Otherwise undefined, and the
 * command line runs.
 */
export const codeCacheWarmUp: Promise<void> | undefined =
  process.env.KUBELITE_CODE_CACHE_WARMUP === '1'
    ? Promise.all([
        import('./up.js'),
        import('./apiserver.js'),
        import('../storage/lmdb/lmdb-storage.js'),
        import('./controller-manager.js'),
        import('../controller-manager/leader-election.js'),
        import('./scheduler.js'),
        import('../scheduler/index.js'),
        import('./nodes.js'),
        import('../nodes/index.js'),
      ]).then(() => {})
    : undefined;

if (codeCacheWarmUp === undefined && !asLibrary) main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`kubelite: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
