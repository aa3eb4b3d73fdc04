// kubelite's commands: what `kubelite --help` lists, the examples under each `--help`, and what
// shell completion offers. Each command's modules are loaded when it runs: `kubelite apiserver`
// does not load (compile, link) the controllers, and the other way round — module loading is most
// of a component's startup time.

import type { ComponentContext } from '../machinery/component-context.js';

export interface CommandEntry {
  describe: string;
  /** Shown under the command's --help, one per line. */
  examples: string[];
  /** Runs the command to its end: its exit code. `ctx` is given to a component run in a shared event loop. */
  run(argv: string[], ctx?: ComponentContext): Promise<number>;
}

export async function printVersion(): Promise<number> {
  process.stdout.write(`${(await import('./version.js')).versionLine()}\n`);
  return 0;
}

export const commands: Record<string, CommandEntry> = {
  up: {
    describe: 'a whole local cluster: API server, controllers, scheduler, simulated nodes',
    examples: [
      'kubelite up                              # 3 simulated nodes, API server on 127.0.0.1:6443, state in ./.kubelite',
      'kubelite up --port 0 --data-dir /tmp/k   # a free port; the ready line says which',
      'kubelite up --kubeconfig-context         # then plain kubectl get nodes',
      'kubelite up --storage memory --nodes 10  # nothing kept on disk',
      'kubelite down --data-dir /tmp/k          # stop it from another shell',
    ],
    run: async (argv) => (await import('./up.js')).upMain(argv),
  },
  apiserver: {
    describe: 'the API server alone',
    examples: ['kubelite apiserver --storage memory --port 0           # prints ready: server=<url>', 'kubelite apiserver --data-dir ./state --port 6443       # lmdb storage, kept across restarts'],
    run: async (argv, ctx) => (await import('./apiserver.js')).apiserverMain(argv, ctx),
  },
  'controller-manager': {
    describe: 'the controller manager daemon (control loops, leader election)',
    examples: ['kubelite controller-manager --kubeconfig ./.kubelite/controller-manager.kubeconfig', "kubelite controller-manager --kubeconfig kc --controllers '*,-garbagecollector'"],
    run: async (argv, ctx) => (await import('./controller-manager.js')).controllerManagerMain(argv, ctx),
  },
  nodes: {
    describe: 'simulated nodes: registers N nodes and runs the pods bound to them',
    examples: ['kubelite nodes --kubeconfig ./.kubelite/nodes.kubeconfig --nodes 5'],
    run: async (argv, ctx) => (await import('./nodes.js')).nodesMain(argv, ctx),
  },
  scheduler: {
    describe: 'the default scheduler',
    examples: ['kubelite scheduler --kubeconfig ./.kubelite/scheduler.kubeconfig'],
    run: async (argv, ctx) => (await import('./scheduler.js')).schedulerMain(argv, ctx),
  },
  down: {
    describe: 'stop the cluster `kubelite up` runs on a data dir',
    examples: ['kubelite down                      # the cluster of ./.kubelite', 'kubelite down --data-dir /tmp/k'],
    run: async (argv) => (await import('./down.js')).downMain(argv),
  },
  status: {
    describe: 'whether a cluster runs on a data dir, its server and nodes',
    examples: ['kubelite status', 'kubelite status --data-dir /tmp/k || kubelite up --data-dir /tmp/k &'],
    run: async (argv) => (await import('./status.js')).statusMain(argv),
  },
  snapshot: {
    describe: "save a stopped cluster's objects to a file, or restore them",
    examples: ['kubelite snapshot save before.snap --data-dir /tmp/k', 'kubelite snapshot restore before.snap --data-dir /tmp/k   # then kubelite up --data-dir /tmp/k', 'kubelite up --from-snapshot before.snap --data-dir /tmp/k2'],
    run: async (argv) => (await import('./snapshot.js')).snapshotMain(argv),
  },
  version: { describe: "kubelite's version, the Kubernetes API it serves", examples: ['kubelite version', 'kubelite --version'], run: async (argv) => (await import('./version.js')).versionMain(argv) },
  completion: {
    describe: 'shell completion for bash or zsh',
    examples: ['source <(kubelite completion bash)      # in ~/.bashrc', 'source <(kubelite completion zsh)       # in ~/.zshrc'],
    run: async (argv) => (await import('./completion.js')).completionMain(argv),
  },
};

/** The commands a cluster runs as its components (src/up/cluster.ts). */
const COMPONENTS = new Set(['apiserver', 'controller-manager', 'scheduler', 'nodes']);

/**
 * Runs `kubelite <component> <flags>` in this process with `ctx` as its streams and stop: how a
 * single-process cluster runs its components in one event loop (src/up/in-loop.ts).
 */
export async function runComponent(argv: readonly string[], ctx: ComponentContext): Promise<number> {
  const [name = '', ...rest] = argv;
  const c = COMPONENTS.has(name) ? commands[name] : undefined;
  if (!c) {
    ctx.stderr(`kubelite: ${JSON.stringify(name)} is not a component\n`);
    return 2;
  }
  return c.run(rest, ctx);
}
