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
};

const usage = `usage: kubelite <command> [flags]

commands:
${Object.entries(commands).map(([name, c]) => `  ${name.padEnd(20)}${c.describe}`).join('\n')}

Run 'kubelite <command> --help' for the flags of a command.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(usage);
    return 2;
  }
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`kubelite: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
