#!/usr/bin/env node
// The one kubelite executable. Subcommands arrive with the issues that build them; until then an
// unknown or missing subcommand is a one-line error with exit code 2, as for any bad flag.
const usage = 'usage: kubelite <command> [flags]\n\ncommands arrive as they are built; none is available in this build yet.';

function main(argv: string[]): number {
  const [command] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${usage}\n`);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`kubelite: unknown command ${JSON.stringify(command)} (see kubelite --help)\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
