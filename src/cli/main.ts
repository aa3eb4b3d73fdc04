#!/usr/bin/env node
// The one kubelite executable; each subcommand is a component (see DESIGN.md).

// Each command's modules are loaded when it runs: `kubelite apiserver` does not load (compile,
// link) the controllers, and the other way round — module loading is most of a component's
// startup time.
const commands: Record<string, { describe: string; run: (argv: string[]) => Promise<number> }> = {
  up: { describe: 'a whole local cluster: API server, controllers, scheduler, simulated nodes', run: async (argv) => (await import('./up.js')).upMain(argv) },
  apiserver: { describe: 'the API server alone', run: async (argv) => (await import('./apiserver.js')).apiserverMain(argv) },
  'controller-manager': {
    describe: 'the controller manager daemon (control loops, leader election)',
    run: async (argv) => (await import('./controller-manager.js')).controllerManagerMain(argv),
  },
  nodes: { describe: 'simulated nodes: registers N nodes and runs the pods bound to them', run: async (argv) => (await import('./nodes.js')).nodesMain(argv) },
  scheduler: { describe: 'the default scheduler', run: async (argv) => (await import('./scheduler.js')).schedulerMain(argv) },
  down: { describe: 'stop the cluster `kubelite up` runs on a data dir', run: async (argv) => (await import('./down.js')).downMain(argv) },
  status: { describe: 'whether a cluster runs on a data dir, its server and nodes', run: async (argv) => (await import('./status.js')).statusMain(argv) },
  version: { describe: "kubelite's version, the Kubernetes API it serves", run: async () => printVersion() },
};

async function printVersion(): Promise<number> {
  process.stdout.write(`${(await import('./version.js')).versionLine()}\n`);
  return 0;
}

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
  return c.run(rest);
}

// A component started by a supervisor (startCluster, `kubelite up`) has an IPC channel to it: when
// the supervisor dies without stopping it (kill -9, a crashed test runner) the channel closes, and
// the component stops as on SIGTERM instead of running on under pid 1. The channel alone does not
// keep the process alive.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`kubelite: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
