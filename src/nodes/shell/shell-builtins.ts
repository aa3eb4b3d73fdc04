// The shell's own commands — cd, exit, export, set, read, ... change the shell's state, so they
// run in it — and `sh` itself (a child shell running a -c script, a file, or stdin).
import { Readable } from 'node:stream';
import { ShellSyntaxError, type Script } from './ast.js';
import { BUILTINS } from './builtins/index.js';
import { ExitRequest, LoopControl, type ShellIO, type ShellState } from './context.js';
import { parseScript } from './parse.js';
import { runLines } from './repl.js';
import { chunks, write } from './streams.js';
import { FsError } from './vfs.js';

export type ShellBuiltin = (shell: ShellState, args: string[], io: ShellIO) => Promise<number>;

const IFS_WHITESPACE = /[ \t\n]+/;

export const SHELL_BUILTINS = new Map<string, ShellBuiltin>([
  [':', async () => 0],
  [
    'cd',
    async (shell, args, io) => {
      const target = args[1] === undefined ? (shell.vars.get('HOME') ?? '/') : args[1] === '-' ? (shell.vars.get('OLDPWD') ?? shell.cwd) : args[1];
      try {
        const r = shell.fs.resolve(target, shell.cwd, true);
        if (r.node === undefined) throw new FsError('ENOENT', target);
        if (r.node.kind !== 'dir') throw new FsError('ENOTDIR', target);
        shell.vars.set('OLDPWD', shell.cwd);
        shell.cwd = r.path;
        shell.vars.set('PWD', r.path);
        if (args[1] === '-') await write(io.stdout, `${r.path}\n`);
        return 0;
      } catch (err) {
        if (!(err instanceof FsError)) throw err;
        await write(io.stderr, `sh: cd: can't cd to ${target}: ${err.message}\n`);
        return 2;
      }
    },
  ],
  [
    'exit',
    async (shell, args, io) => {
      const n = args[1] === undefined ? shell.lastStatus : Number(args[1]);
      if (!Number.isInteger(n)) {
        await write(io.stderr, `sh: exit: Illegal number: ${args[1]}\n`);
        throw new ExitRequest(2);
      }
      throw new ExitRequest(((n % 256) + 256) % 256);
    },
  ],
  [
    'export',
    async (shell, args, io) => {
      if (args.length === 1 || args[1] === '-p') {
        for (const [k, v] of shell.vars) await write(io.stdout, `export ${k}=${shellQuote(v)}\n`);
        return 0;
      }
      for (const a of args.slice(1)) {
        const eq = a.indexOf('=');
        if (eq > 0) shell.vars.set(a.slice(0, eq), a.slice(eq + 1));
        else if (!shell.vars.has(a)) shell.vars.set(a, '');
      }
      return 0;
    },
  ],
  [
    'unset',
    async (shell, args) => {
      for (const a of args.slice(1)) if (!a.startsWith('-')) shell.vars.delete(a);
      return 0;
    },
  ],
  [
    'set',
    async (shell, args, io) => {
      if (args.length === 1) {
        for (const [k, v] of [...shell.vars].sort(([a], [b]) => (a < b ? -1 : 1))) await write(io.stdout, `${k}=${shellQuote(v)}\n`);
        return 0;
      }
      let i = 1;
      for (; i < args.length; i++) {
        const a = args[i]!;
        if (a === '--') {
          i++;
          break;
        }
        if (!/^[-+][a-z]+$/.test(a)) break;
        if (a.includes('e')) shell.errexit = a.startsWith('-');
      }
      if (i < args.length || args.includes('--')) shell.positional = args.slice(i);
      return 0;
    },
  ],
  [
    'shift',
    async (shell, args, io) => {
      const n = args[1] === undefined ? 1 : Number(args[1]);
      if (!Number.isInteger(n) || n < 0 || n > shell.positional.length) {
        await write(io.stderr, `sh: shift: can't shift that many\n`);
        return 1;
      }
      shell.positional = shell.positional.slice(n);
      return 0;
    },
  ],
  ['break', async (shell, args) => loopControl(shell, 'break', args)],
  ['continue', async (shell, args) => loopControl(shell, 'continue', args)],
  ['eval', async (shell, args, io) => shell.runSource(args.slice(1).join(' '), io)],
  [
    '.',
    async (shell, args, io) => {
      const file = args[1];
      if (file === undefined) return 0;
      let text: string;
      try {
        text = shell.fs.readFile(file, shell.cwd).toString('utf8');
      } catch (err) {
        if (!(err instanceof FsError)) throw err;
        await write(io.stderr, `sh: .: can't open '${file}': ${err.message}\n`);
        return 2;
      }
      const script = parseScriptOrReport(text);
      return script instanceof ShellSyntaxError ? (await write(io.stderr, `sh: ${script.message}\n`), 2) : shell.runScript(script, io);
    },
  ],
  ['exec', async (shell, args, io) => (args.length > 1 ? Promise.reject(new ExitRequest(await shell.execute(args.slice(1), io))) : 0)],
  [
    'command',
    async (shell, args, io) => {
      if (args[1] === '-v' || args[1] === '-V') {
        let status = 0;
        for (const name of args.slice(2)) {
          const where = describeCommand(name);
          if (where === undefined) status = 1;
          else await write(io.stdout, `${where}\n`);
        }
        return status;
      }
      return args.length > 1 ? shell.execute(args.slice(1), io) : 0;
    },
  ],
  [
    'type',
    async (_shell, args, io) => {
      let status = 0;
      for (const name of args.slice(1)) {
        const where = describeCommand(name);
        if (where === undefined) {
          await write(io.stderr, `sh: type: ${name}: not found\n`);
          status = 1;
        } else await write(io.stdout, where.startsWith('/') ? `${name} is ${where}\n` : `${name} is a shell builtin\n`);
      }
      return status;
    },
  ],
]);
SHELL_BUILTINS.set('source', SHELL_BUILTINS.get('.')!);
SHELL_BUILTINS.set('read', readBuiltin);
SHELL_BUILTINS.set('busybox', async (shell, args, io) => {
  if (args.length > 1) return shell.execute(args.slice(1), io);
  await write(io.stdout, `Currently defined functions:\n\t${commandNames().join(', ')}\n`);
  return 0;
});

/** Bytes a `read` took from a stream past the line it returned, for the next `read` of that stream. */
const readAhead = new WeakMap<Readable, Buffer>();

/** `read [-r] NAME...`: one line of stdin split into the names (the last takes the rest); 1 at end of input. */
async function readBuiltin(shell: ShellState, args: string[], io: ShellIO): Promise<number> {
  const raw = args[1] === '-r';
  const names = args.slice(raw ? 2 : 1);
  let pending = readAhead.get(io.stdin) ?? Buffer.alloc(0);
  let nl = pending.indexOf(10);
  let eof = false;
  if (nl < 0) {
    for await (const chunk of chunks(io.stdin)) {
      pending = Buffer.concat([pending, chunk]);
      nl = pending.indexOf(10);
      if (nl >= 0) break;
    }
    if (nl < 0) eof = true;
  }
  const lineEnd = nl < 0 ? pending.length : nl;
  let line = pending.subarray(0, lineEnd).toString('utf8');
  readAhead.set(io.stdin, pending.subarray(nl < 0 ? pending.length : nl + 1));
  if (!raw) line = line.replace(/\\(.)/g, '$1');
  const fields = line.trim().split(IFS_WHITESPACE);
  const targets = names.length > 0 ? names : ['REPLY'];
  targets.forEach((name, i) => {
    const value = i === targets.length - 1 ? fields.slice(i).join(' ') : (fields[i] ?? '');
    shell.vars.set(name, value);
  });
  return eof ? 1 : 0;
}

function parseScriptOrReport(text: string): Script | ShellSyntaxError {
  try {
    return parseScript(text);
  } catch (err) {
    if (err instanceof ShellSyntaxError) return err;
    throw err;
  }
}

async function loopControl(shell: ShellState, what: 'break' | 'continue', args: string[]): Promise<number> {
  if (shell.loopDepth === 0) return 0;
  const n = args[1] === undefined ? 1 : Math.max(1, Number(args[1]) || 1);
  throw new LoopControl(what, n);
}

/** `command -v`: where a name would be found. */
function describeCommand(name: string): string | undefined {
  if (SHELL_BUILTINS.has(name)) return name;
  if (name === 'sh' || name === 'ash' || name === 'busybox' || BUILTINS.has(name)) return `/bin/${name}`;
  return undefined;
}

export function shellQuote(v: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/** The names `/bin` lists: every command the shell runs. */
export function commandNames(): string[] {
  return ['sh', 'ash', ...BUILTINS.keys()].sort();
}

/**
 * `sh [-ex] -c SCRIPT [NAME [ARGS...]]`, `sh FILE [ARGS...]`, or `sh` reading commands from stdin
 * (interactively, with a prompt, on a terminal).
 */
export const shCommand: ShellBuiltin = async (parent, args, io) => {
  const shell = parent.child();
  let script: string | undefined;
  let i = 1;
  let interactive = false;
  let fromCommandString = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!/^[-+][a-zA-Z]+$/.test(a)) break;
    for (const flag of a.slice(1)) {
      if (flag === 'c') fromCommandString = true;
      else if (flag === 'e') shell.errexit = a.startsWith('-');
      else if (flag === 'i') interactive = true;
      else if (!'xslvu'.includes(flag)) {
        await write(io.stderr, `sh: -${flag}: invalid option\n`);
        return 2;
      }
    }
  }
  const operands = args.slice(i);
  if (fromCommandString) {
    script = operands[0];
    if (script === undefined) {
      await write(io.stderr, `sh: -c requires an argument\n`);
      return 2;
    }
    shell.arg0 = operands[1] ?? 'sh';
    shell.positional = operands.slice(2);
    return shell.runSource(script, io);
  }
  if (operands.length > 0) {
    const file = operands[0]!;
    try {
      script = shell.fs.readFile(file, shell.cwd).toString('utf8');
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await write(io.stderr, `sh: can't open '${file}': ${err.message}\n`);
      return 2;
    }
    shell.arg0 = file;
    shell.positional = operands.slice(1);
    return shell.runSource(script, io);
  }
  return runLines(shell, io, interactive || shell.tty);
};
