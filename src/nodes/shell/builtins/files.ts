// File commands over the vfs, with busybox's messages: cat, ls, pwd, mkdir, rm, touch, cp, mv,
// ln -s, chmod, basename, dirname.
import type { Builtin, CommandEnv, ShellIO } from '../context.js';
import { chunks, write } from '../streams.js';
import { FsError, basename, dirname, modeString, normalizePath, type FsNode } from '../vfs.js';
import { fail, parseOrReport } from './args.js';
import { userName, groupName } from './users.js';

/** Writes a file's content (or stdin for `-`) to stdout in slices, waiting for the reader. */
export async function copyOut(env: CommandEnv, io: ShellIO, path: string): Promise<void> {
  if (path === '-') {
    for await (const c of chunks(io.stdin)) await write(io.stdout, c);
    return;
  }
  await write(io.stdout, env.fs.readFile(path, env.cwd));
}

const cat: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('cat', args, { flags: 'uv', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  const files = parsed.operands.length > 0 ? parsed.operands : ['-'];
  let status = 0;
  for (const f of files) {
    try {
      await copyOut(env, io, f);
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, err.code === 'EISDIR' ? `cat: read error: ${err.message}` : `cat: can't open '${f}': ${err.message}`);
      status = 1;
    }
  }
  return status;
};

const pwd: Builtin = async (_args, io, env) => {
  await write(io.stdout, `${env.cwd}\n`);
  return 0;
};

function linkCount(node: FsNode): number {
  if (node.kind !== 'dir') return 1;
  let n = 2;
  for (const child of node.entries.values()) if (child.kind === 'dir') n++;
  return n;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Nov 28 22:06`, or `Nov 28  2025` when more than six months away, as ls -l prints times. */
function lsTime(ms: number, now: number): string {
  const d = new Date(ms);
  const day = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')}`;
  if (Math.abs(now - ms) > 182 * 24 * 3600 * 1000) return `${day}  ${d.getUTCFullYear()}`;
  return `${day} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

function nodeSize(node: FsNode): number {
  if (node.kind === 'file') return node.size;
  if (node.kind === 'symlink') return node.target.length;
  if (node.kind === 'dir') return 4096;
  return 0;
}

const ls: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('ls', args, { flags: 'laA1dhFpRtrSin', permute: true, long: { all: 'a', 'almost-all': 'A' } }, io);
  if (typeof parsed === 'number') return parsed;
  const f = parsed.flags;
  const long = f.has('l') || f.has('n');
  const operands = parsed.operands.length > 0 ? parsed.operands : ['.'];
  let status = 0;
  const line = (name: string, node: FsNode, target?: string): string => {
    if (!long) return name + (f.has('F') || f.has('p') ? (node.kind === 'dir' ? '/' : f.has('F') && node.kind === 'file' && node.mode & 0o111 ? '*' : '') : '');
    const owner = f.has('n') ? String(node.uid) : userName(env, node.uid);
    const group = f.has('n') ? String(node.gid) : groupName(env, node.gid);
    const size = node.kind === 'null' ? '1,   3' : String(nodeSize(node));
    return `${modeString(node)} ${String(linkCount(node)).padStart(4)} ${owner.padEnd(8)} ${group.padEnd(8)} ${size.padStart(9)} ${lsTime(node.mtimeMs, env.now())} ${name}${target !== undefined ? ` -> ${target}` : ''}`;
  };
  const print = async (items: Array<[string, FsNode]>): Promise<void> => {
    if (items.length === 0) return;
    const rendered = items.map(([name, node]) => line(name, node, long && node.kind === 'symlink' ? node.target : undefined));
    if (long || f.has('1') || !env.tty) await write(io.stdout, `${rendered.join('\n')}\n`);
    else await write(io.stdout, columns(rendered, 80));
  };
  const files: Array<[string, FsNode]> = [];
  const dirs: Array<[string, FsNode]> = [];
  for (const op of operands) {
    try {
      const node = f.has('d') || long ? env.fs.lstat(op, env.cwd) : env.fs.stat(op, env.cwd);
      const resolved = node.kind === 'symlink' && !f.has('d') && isDir(env, op) ? env.fs.stat(op, env.cwd) : node;
      if (resolved.kind === 'dir' && !f.has('d')) dirs.push([op, resolved]);
      else files.push([op, node]);
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, `ls: ${op}: ${err.message}`);
      status = 1;
    }
  }
  await print(sortEntries(files, f));
  for (const [i, [name, dir]] of dirs.entries()) {
    if (dir.kind !== 'dir') continue;
    if (operands.length > 1) await write(io.stdout, `${i > 0 || files.length > 0 ? '\n' : ''}${name}:\n`);
    let entries = [...dir.entries].filter(([n]) => f.has('a') || f.has('A') || !n.startsWith('.'));
    if (f.has('a')) entries = [['.', dir], ['..', env.fs.stat(`${name}/..`, env.cwd)], ...entries];
    if (long) {
      const blocks = entries.reduce((sum, [, n]) => sum + (n.kind === 'file' ? Math.ceil(n.size / 4096) * 4 : n.kind === 'dir' ? 4 : 0), 0);
      await write(io.stdout, `total ${blocks}\n`);
    }
    await print(sortEntries(entries, f));
  }
  return status;
};

function isDir(env: CommandEnv, path: string): boolean {
  try {
    return env.fs.stat(path, env.cwd).kind === 'dir';
  } catch {
    return false;
  }
}

function sortEntries(items: Array<[string, FsNode]>, flags: Set<string>): Array<[string, FsNode]> {
  const sorted = [...items].sort(([a, na], [b, nb]) => {
    if (flags.has('t') && na.mtimeMs !== nb.mtimeMs) return nb.mtimeMs - na.mtimeMs;
    if (flags.has('S') && nodeSize(na) !== nodeSize(nb)) return nodeSize(nb) - nodeSize(na);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return flags.has('r') ? sorted.reverse() : sorted;
}

/** Names in columns across a terminal `width` wide, as ls prints to a terminal. */
function columns(names: string[], width: number): string {
  const colWidth = Math.max(...names.map((n) => n.length)) + 2;
  const perRow = Math.max(1, Math.floor(width / colWidth));
  const rows = Math.ceil(names.length / perRow);
  let out = '';
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < perRow; c++) {
      const name = names[c * rows + r];
      if (name !== undefined) cells.push(name.padEnd(colWidth));
    }
    out += `${cells.join('').trimEnd()}\n`;
  }
  return out;
}

const mkdir: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('mkdir', args, { flags: 'pv', values: 'm', permute: true, long: { parents: 'p' } }, io);
  if (typeof parsed === 'number') return parsed;
  const mode = parsed.values.has('m') ? parseInt(parsed.values.get('m')!, 8) : 0o755;
  let status = 0;
  for (const dir of parsed.operands) {
    try {
      env.fs.mkdir(dir, env.cwd, { parents: parsed.flags.has('p'), mode });
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, `mkdir: can't create directory '${dir}': ${err.message}`);
      status = 1;
    }
  }
  return status;
};

const rm: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('rm', args, { flags: 'rRfiv', permute: true, long: { recursive: 'r', force: 'f' } }, io);
  if (typeof parsed === 'number') return parsed;
  const recursive = parsed.flags.has('r') || parsed.flags.has('R');
  const force = parsed.flags.has('f');
  let status = 0;
  for (const path of parsed.operands) {
    try {
      const node = env.fs.lstat(path, env.cwd);
      if (node.kind === 'dir' && !recursive) {
        await fail(io, `rm: '${path}' is a directory`);
        status = 1;
        continue;
      }
      env.fs.remove(path, env.cwd, { recursive });
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      if (force && err.code === 'ENOENT') continue;
      await fail(io, `rm: can't remove '${path}': ${err.message}`);
      status = 1;
    }
  }
  return status;
};

const touch: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('touch', args, { flags: 'cam', values: 'dtr', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  let status = 0;
  for (const path of parsed.operands) {
    try {
      if (env.fs.exists(path, env.cwd)) env.fs.setAttributes(path, env.cwd, { mtimeMs: env.now() });
      else if (!parsed.flags.has('c')) env.fs.openWrite(path, env.cwd, { append: true });
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, `touch: ${path}: ${err.message}`);
      status = 1;
    }
  }
  return status;
};

/** Copies `src` to `dst` (a path that does not exist or a file to replace), recursively for directories. */
function copyNode(env: CommandEnv, src: string, dst: string, node: FsNode, preserve: boolean): void {
  if (node.kind === 'dir') {
    if (!env.fs.exists(dst, env.cwd)) env.fs.mkdir(dst, env.cwd, { mode: node.mode });
    for (const [name, child] of node.entries) copyNode(env, `${src}/${name}`, `${dst}/${name}`, child, preserve);
  } else if (node.kind === 'symlink') {
    env.fs.symlink(node.target, dst, env.cwd);
  } else {
    env.fs.writeFile(dst, env.fs.contentOf(node, src), env.cwd, { mode: node.mode });
    if (preserve) env.fs.setAttributes(dst, env.cwd, { mtimeMs: node.mtimeMs });
  }
}

/** Where `src` goes for `cp`/`mv` to `dest`: inside it when it is a directory. */
function destinationFor(env: CommandEnv, src: string, dest: string, many: boolean): string | FsError {
  if (isDir(env, dest)) return `${dest.replace(/\/+$/, '')}/${basename(src)}`;
  if (many) return new FsError('ENOTDIR', dest);
  return dest;
}

const cp: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('cp', args, { flags: 'rRafpdPLvn', permute: true, long: { recursive: 'r', archive: 'a' } }, io);
  if (typeof parsed === 'number') return parsed;
  const recursive = ['r', 'R', 'a'].some((c) => parsed.flags.has(c));
  const ops = parsed.operands;
  if (ops.length < 2) {
    await fail(io, ops.length === 0 ? 'cp: missing file operand' : `cp: missing destination file operand after '${ops[0]}'`);
    return 1;
  }
  const dest = ops[ops.length - 1]!;
  let status = 0;
  for (const src of ops.slice(0, -1)) {
    try {
      const node = recursive ? env.fs.lstat(src, env.cwd) : env.fs.stat(src, env.cwd);
      if (node.kind === 'dir' && !recursive) {
        await fail(io, `cp: omitting directory '${src}'`);
        status = 1;
        continue;
      }
      const target = destinationFor(env, src, dest, ops.length > 2);
      if (target instanceof FsError) throw target;
      if (node.kind === 'dir' && `${normalizePath(target, env.cwd)}/`.startsWith(`${normalizePath(src, env.cwd)}/`)) {
        await fail(io, `cp: can't copy a directory into itself`);
        status = 1;
        continue;
      }
      copyNode(env, src, target, node, parsed.flags.has('p') || parsed.flags.has('a'));
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, err.path === src && err.code === 'ENOENT' ? `cp: can't stat '${src}': ${err.message}` : `cp: can't create '${err.path}': ${err.message}`);
      status = 1;
    }
  }
  return status;
};

const mv: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('mv', args, { flags: 'fivn', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  const ops = parsed.operands;
  if (ops.length < 2) {
    await fail(io, ops.length === 0 ? 'mv: missing file operand' : `mv: missing destination file operand after '${ops[0]}'`);
    return 1;
  }
  const dest = ops[ops.length - 1]!;
  let status = 0;
  for (const src of ops.slice(0, -1)) {
    try {
      const target = destinationFor(env, src, dest, ops.length > 2);
      if (target instanceof FsError) throw target;
      env.fs.rename(src, target, env.cwd);
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, err.code === 'ENOENT' && err.path === src ? `mv: can't stat '${src}': ${err.message}` : `mv: can't rename '${src}': ${err.message}`);
      status = 1;
    }
  }
  return status;
};

const ln: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('ln', args, { flags: 'sfnv', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  if (!parsed.flags.has('s')) {
    await fail(io, 'ln: hard links are not supported; use ln -s');
    return 1;
  }
  const [target, link] = parsed.operands;
  if (target === undefined) {
    await fail(io, 'ln: missing operand');
    return 1;
  }
  const path = link === undefined ? basename(target) : isDir(env, link) ? `${link}/${basename(target)}` : link;
  try {
    if (parsed.flags.has('f') && env.fs.exists(path, env.cwd)) env.fs.remove(path, env.cwd);
    env.fs.symlink(target, path, env.cwd);
    return 0;
  } catch (err) {
    if (!(err instanceof FsError)) throw err;
    await fail(io, `ln: ${path}: ${err.message}`);
    return 1;
  }
};

/** An octal mode or a symbolic one (`u+x`, `go-w`, `a=r`) applied to `mode`. */
export function applyMode(spec: string, mode: number): number | undefined {
  if (/^[0-7]{1,4}$/.test(spec)) return parseInt(spec, 8);
  let result = mode;
  for (const clause of spec.split(',')) {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!m) return undefined;
    const who = m[1] === '' || m[1]!.includes('a') ? 'ugo' : m[1]!;
    let bits = 0;
    for (const p of m[3]!) {
      const v = p === 'r' ? 4 : p === 'w' ? 2 : p === 'x' || p === 'X' ? 1 : 0;
      for (const w of who) bits |= v << (w === 'u' ? 6 : w === 'g' ? 3 : 0);
    }
    if (m[2] === '+') result |= bits;
    else if (m[2] === '-') result &= ~bits;
    else {
      let clear = 0;
      for (const w of who) clear |= 7 << (w === 'u' ? 6 : w === 'g' ? 3 : 0);
      result = (result & ~clear) | bits;
    }
  }
  return result;
}

const chmod: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('chmod', args, { flags: 'Rvcf' }, io);
  if (typeof parsed === 'number') return parsed;
  const [spec, ...paths] = parsed.operands;
  if (spec === undefined || paths.length === 0) {
    await fail(io, 'chmod: missing operand');
    return 1;
  }
  let status = 0;
  for (const path of paths) {
    try {
      const node = env.fs.stat(path, env.cwd);
      const mode = applyMode(spec, node.mode);
      if (mode === undefined) {
        await fail(io, `chmod: invalid mode '${spec}'`);
        return 1;
      }
      env.fs.setAttributes(path, env.cwd, { mode });
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, `chmod: ${path}: ${err.message}`);
      status = 1;
    }
  }
  return status;
};

const basenameCmd: Builtin = async (args, io) => {
  const [path, suffix] = args.slice(1);
  if (path === undefined) {
    await fail(io, 'basename: missing operand');
    return 1;
  }
  let base = basename(path);
  if (suffix !== undefined && base !== suffix && base.endsWith(suffix)) base = base.slice(0, -suffix.length);
  await write(io.stdout, `${base}\n`);
  return 0;
};

const dirnameCmd: Builtin = async (args, io) => {
  const path = args[1];
  if (path === undefined) {
    await fail(io, 'dirname: missing operand');
    return 1;
  }
  await write(io.stdout, `${dirname(path)}\n`);
  return 0;
};

export const FILE_COMMANDS: Record<string, Builtin> = {
  cat,
  ls,
  pwd,
  mkdir,
  rm,
  touch,
  cp,
  mv,
  ln,
  chmod,
  basename: basenameCmd,
  dirname: dirnameCmd,
};
