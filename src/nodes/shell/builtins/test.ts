// test / [: file tests (-e -f -d -h/-L -s -r -w -x), string tests (-z -n = != < >), integer
// comparisons (-eq -ne -lt -le -gt -ge), ! and -a/-o, parentheses; POSIX's rules by argument count.
import type { Builtin, CommandEnv } from '../context.js';
import { write } from '../streams.js';

class TestError extends Error {}

const UNARY_FILE = new Set(['-e', '-f', '-d', '-h', '-L', '-s', '-r', '-w', '-x', '-b', '-c', '-p', '-S', '-g', '-u', '-k', '-O', '-G']);
const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

function fileTest(env: CommandEnv, op: string, path: string): boolean {
  if (path === '') return false;
  let node;
  try {
    node = op === '-h' || op === '-L' ? env.fs.lstat(path, env.cwd) : env.fs.stat(path, env.cwd);
  } catch {
    return false;
  }
  switch (op) {
    case '-e':
      return true;
    case '-f':
      return node.kind === 'file';
    case '-d':
      return node.kind === 'dir';
    case '-h':
    case '-L':
      return node.kind === 'symlink';
    case '-s':
      return node.kind === 'file' ? node.size > 0 : node.kind === 'dir';
    case '-c':
      return node.kind === 'null';
    case '-r':
      return env.user.uid === 0 || (node.mode & 0o444) !== 0;
    case '-w':
      return !env.fs.resolve(path, env.cwd).readOnly && (env.user.uid === 0 || (node.mode & 0o222) !== 0);
    case '-x':
      return (node.mode & 0o111) !== 0 || (env.user.uid === 0 && node.kind === 'dir');
    case '-u':
      return (node.mode & 0o4000) !== 0;
    case '-g':
      return (node.mode & 0o2000) !== 0;
    case '-k':
      return (node.mode & 0o1000) !== 0;
    case '-O':
      return node.uid === env.user.uid;
    case '-G':
      return node.gid === env.user.gid;
    default:
      return false;
  }
}

function integer(s: string): bigint {
  const t = s.trim();
  if (!/^[-+]?\d+$/.test(t)) throw new TestError(`sh: ${s}: bad number`);
  return BigInt(t);
}

function binary(env: CommandEnv, a: string, op: string, b: string): boolean {
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '-eq':
      return integer(a) === integer(b);
    case '-ne':
      return integer(a) !== integer(b);
    case '-lt':
      return integer(a) < integer(b);
    case '-le':
      return integer(a) <= integer(b);
    case '-gt':
      return integer(a) > integer(b);
    case '-ge':
      return integer(a) >= integer(b);
    case '-nt':
    case '-ot': {
      const ma = mtime(env, a);
      const mb = mtime(env, b);
      return op === '-nt' ? ma > mb : ma < mb;
    }
    case '-ef':
      try {
        return env.fs.stat(a, env.cwd) === env.fs.stat(b, env.cwd);
      } catch {
        return false;
      }
    default:
      throw new TestError(`sh: ${op}: unknown operand`);
  }
}

function mtime(env: CommandEnv, p: string): number {
  try {
    return env.fs.stat(p, env.cwd).mtimeMs;
  } catch {
    return -Infinity;
  }
}

/** Evaluates test's arguments (without the closing `]`). */
export function evaluateTest(env: CommandEnv, args: string[]): boolean {
  let pos = 0;
  const peek = (): string | undefined => args[pos];
  const primary = (): boolean => {
    const left = args.length - pos;
    const a = args[pos];
    if (a === undefined) throw new TestError('sh: argument expected');
    if (a === '!' && left > 1) {
      pos++;
      return !primary();
    }
    if (a === '(' && left >= 3) {
      pos++;
      const v = or();
      if (args[pos] !== ')') throw new TestError(`sh: closing paren expected`);
      pos++;
      return v;
    }
    const next = args[pos + 1];
    if (next !== undefined && BINARY.has(next) && args[pos + 2] !== undefined) {
      pos += 3;
      return binary(env, a, next, args[pos - 1]!);
    }
    if (UNARY_FILE.has(a) && next !== undefined) {
      pos += 2;
      return fileTest(env, a, next);
    }
    if ((a === '-z' || a === '-n') && next !== undefined) {
      pos += 2;
      return a === '-z' ? next === '' : next !== '';
    }
    if (a === '-t' && next !== undefined) {
      pos += 2;
      return false;
    }
    pos++;
    return a !== '';
  };
  const and = (): boolean => {
    let v = primary();
    while (peek() === '-a') {
      pos++;
      const r = primary();
      v = v && r;
    }
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (peek() === '-o') {
      pos++;
      const r = and();
      v = v || r;
    }
    return v;
  };
  if (args.length === 0) return false;
  // POSIX: with up to four arguments the count decides how they are read, not precedence.
  if (args.length === 1) return args[0] !== '';
  if (args.length === 2 && args[0] === '!') return args[1] === '';
  if (args.length === 3 && BINARY.has(args[1]!)) return binary(env, args[0]!, args[1]!, args[2]!);
  const v = or();
  if (pos < args.length) throw new TestError(`sh: ${args[pos]}: unknown operand`);
  return v;
}

const test: Builtin = async (args, io, env) => {
  let operands = args.slice(1);
  if (args[0] === '[') {
    if (operands[operands.length - 1] !== ']') {
      await write(io.stderr, 'sh: [: missing ]\n');
      return 2;
    }
    operands = operands.slice(0, -1);
  }
  try {
    return evaluateTest(env, operands) ? 0 : 1;
  } catch (err) {
    if (!(err instanceof TestError)) throw err;
    await write(io.stderr, `${err.message}\n`);
    return 2;
  }
};

export const TEST_COMMANDS: Record<string, Builtin> = { test, '[': test };
