// Flag parsing shared by every command and daemon (cli/, controller-manager/, ...), below them all: Kubernetes-style long flags with commander, where any
// bad flag or value ends the process with a one-line error and exit code 2.
import { Command, CommanderError, InvalidArgumentError } from 'commander';

/** Where a program's help and errors are written. */
export interface FlagOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processOutput: FlagOutput = { stdout: (s) => void process.stdout.write(s), stderr: (s) => void process.stderr.write(s) };

/**
 * A commander program that reports usage errors in one line and exits 2 (never a stack trace);
 * its help and errors go to `io` (a component's own streams when it shares the process).
 */
export function program(name: string, description: string, io: FlagOutput = processOutput): Command {
  const cmd = new Command(name);
  cmd.description(description);
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => io.stdout(s),
    writeErr: (s) => io.stderr(s.startsWith('error:') ? `kubelite ${name}: ${s.slice('error: '.length)}` : s),
  });
  cmd.showHelpAfterError(false);
  cmd.allowExcessArguments(false);
  return cmd;
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535');
  return n;
}

export function parseChoice<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(choices as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${choices.join(', ')}`);
    return value as T;
  };
}

/** Parses argv; returns the exit code to use when parsing ended the program (help, version, errors). */
export function parseOrExit(cmd: Command, argv: string[]): number | undefined {
  try {
    cmd.parse(argv, { from: 'user' });
    return undefined;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return 2;
    }
    throw err;
  }
}

/**
 * Whether node was given `flag` (`--some-flag`, or node's `--some_flag` spelling) in `args` or in
 * `nodeOptions` (NODE_OPTIONS): a value the user chose wins over one kubelite would set.
 */
export function nodeFlagGiven(flag: string, args: readonly string[], nodeOptions = ''): boolean {
  const pattern = new RegExp(`(^|\\s)--${flag.slice(2).replace(/-/g, '[-_]')}(=|\\s|$)`);
  return args.some((a) => pattern.test(a)) || pattern.test(nodeOptions);
}
