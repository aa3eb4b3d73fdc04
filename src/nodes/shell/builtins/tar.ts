// tar: create (c), extract (x) and list (t) ustar archives on stdout/stdin (`f -`) or a file,
// `-C DIR`, `-m`, `-v`, `-p`/`--no-same-permissions`, `-o`/`--no-same-owner`,
// `--strip-components=N`. What `kubectl cp` runs: `tar cf - PATH` (copy out; with --retries
// through `sh -c 'tar cf - PATH | tail -c+N'`) and `tar [--no-same-permissions --no-same-owner]
// -xmf - [-C DIR]` (copy in).
import { Readable, type Writable } from 'node:stream';
import { Aborted, type Builtin, type CommandEnv, type ShellIO } from '../context.js';
import { FileSink, chunks, write } from '../streams.js';
import { FsError, splitPath, type FsNode } from '../vfs.js';
import { fail } from './args.js';
import { groupName, userName } from './users.js';
import { TarFormatError, encodeHeader, padding, readTar, trailer, type TarEntry } from '../ustar.js';

interface TarOptions {
  mode?: 'c' | 'x' | 't';
  file?: string;
  dir?: string;
  verbose: boolean;
  touch: boolean;
  samePermissions: boolean;
  stripComponents: number;
  gzip: boolean;
  operands: string[];
}

const SLICE = 64 * 1024;
const UMASK = 0o022;

function parseTarArgs(args: string[]): TarOptions | string {
  const o: TarOptions = { verbose: false, touch: false, samePermissions: true, stripComponents: 0, gzip: false, operands: [] };
  const rest = [...args.slice(1)];
  // Old style: the first argument is a bundle of letters without a dash (`tar cf - x`).
  if (rest[0] !== undefined && !rest[0].startsWith('-')) rest[0] = `-${rest[0]}`;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--') {
      o.operands.push(...rest.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, value] = a.slice(2).split('=', 2) as [string, string | undefined];
      switch (name) {
        case 'no-same-permissions':
          o.samePermissions = false;
          break;
        case 'same-permissions':
        case 'preserve-permissions':
          o.samePermissions = true;
          break;
        case 'no-same-owner':
        case 'same-owner':
        case 'overwrite':
        case 'numeric-owner':
          break;
        case 'touch':
          o.touch = true;
          break;
        case 'verbose':
          o.verbose = true;
          break;
        case 'strip-components':
          o.stripComponents = Number(value ?? rest[++i]);
          if (!Number.isInteger(o.stripComponents) || o.stripComponents < 0) return `invalid number of components '${value}'`;
          break;
        case 'create':
        case 'extract':
        case 'list':
          o.mode = name === 'create' ? 'c' : name === 'extract' ? 'x' : 't';
          break;
        case 'file':
          o.file = value ?? rest[++i];
          break;
        case 'directory':
          o.dir = value ?? rest[++i];
          break;
        default:
          return `unrecognized option '${a}'`;
      }
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      o.operands.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'f' || c === 'C') {
        const value = j + 1 < a.length ? a.slice(j + 1) : rest[++i];
        if (value === undefined) return `option requires an argument -- '${c}'`;
        if (c === 'f') o.file = value;
        else o.dir = value;
        break;
      }
      if (c === 'c' || c === 'x' || c === 't') {
        if (o.mode !== undefined && o.mode !== c) return 'You may not specify more than one of -ctx';
        o.mode = c;
      } else if (c === 'v') o.verbose = true;
      else if (c === 'm') o.touch = true;
      else if (c === 'p') o.samePermissions = true;
      else if (c === 'z') o.gzip = true;
      else if (!'ohkO'.includes(c)) return `invalid option -- '${c}'`;
    }
  }
  return o;
}

const tar: Builtin = async (args, io, env) => {
  const o = parseTarArgs(args);
  if (typeof o === 'string') {
    await fail(io, `tar: ${o}`);
    return 1;
  }
  if (o.mode === undefined) {
    await fail(io, "tar: You must specify one of the '-ctx' options");
    return 1;
  }
  if (o.gzip) {
    await fail(io, 'tar: compression is not supported by this tar');
    return 1;
  }
  const base = o.dir ?? '.';
  if (o.dir !== undefined) {
    let isDir = false;
    try {
      isDir = env.fs.stat(o.dir, env.cwd).kind === 'dir';
    } catch {
      isDir = false;
    }
    if (!isDir) {
      await fail(io, `tar: can't change directory to '${o.dir}': ${env.fs.exists(o.dir, env.cwd) ? 'Not a directory' : 'No such file or directory'}`);
      return 1;
    }
  }
  const dirEnv: CommandEnv = Object.create(env, { cwd: { value: env.fs.resolve(base, env.cwd).path, writable: true } });
  try {
    if (o.mode === 'c') return await create(o, io, env, dirEnv);
    const input = o.file === undefined || o.file === '-' ? chunks(io.stdin) : Readable.from([env.fs.readFile(o.file, env.cwd)]);
    return await extractOrList(o, io, dirEnv, input);
  } catch (err) {
    if (err instanceof TarFormatError) {
      await fail(io, `tar: ${err.message}`);
      return 1;
    }
    if (err instanceof FsError && o.file !== undefined && err.path === o.file) {
      await fail(io, `tar: can't open '${o.file}': ${err.message}`);
      return 1;
    }
    throw err;
  }
};

async function create(o: TarOptions, io: ShellIO, env: CommandEnv, dirEnv: CommandEnv): Promise<number> {
  if (o.operands.length === 0) {
    await fail(io, 'tar: empty archive');
    return 1;
  }
  const out: Writable = o.file === undefined || o.file === '-' ? io.stdout : new FileSink(env.fs.openWrite(o.file, env.cwd));
  const listing = o.file === undefined || o.file === '-' ? io.stderr : io.stdout;
  let written = 0;
  let status = 0;
  let warnedSlash = false;
  const emit = async (data: Buffer): Promise<void> => {
    written += data.length;
    await write(out, data);
  };
  const add = async (path: string, name: string, node: FsNode): Promise<void> => {
    const entry: TarEntry = {
      name: node.kind === 'dir' ? `${name}/` : name,
      type: node.kind === 'dir' ? 'dir' : node.kind === 'symlink' ? 'symlink' : 'file',
      mode: node.mode,
      uid: node.uid,
      gid: node.gid,
      size: node.kind === 'file' ? node.size : 0,
      mtimeMs: node.mtimeMs,
      linkname: node.kind === 'symlink' ? node.target : '',
      uname: userName(env, node.uid),
      gname: groupName(env, node.gid),
    };
    if (node.kind === 'null') return;
    if (o.verbose) await write(listing, `${entry.name}\n`);
    await emit(encodeHeader(entry));
    if (node.kind === 'file') {
      const content = dirEnv.fs.contentOf(node, path);
      for (let off = 0; off < content.length; off += SLICE) await emit(content.subarray(off, off + SLICE));
      await emit(Buffer.alloc(padding(content.length)));
    }
    if (node.kind === 'dir') {
      for (const [child, childNode] of [...node.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (env.signal.aborted) throw new Aborted();
        await add(`${path}/${child}`, `${name}/${child}`, childNode);
      }
    }
  };
  for (const operand of o.operands) {
    let name = operand;
    if (name.startsWith('/')) {
      name = name.replace(/^\/+/, '');
      if (!warnedSlash) {
        await fail(io, "tar: removing leading '/' from member names");
        warnedSlash = true;
      }
    }
    let node: FsNode;
    try {
      node = dirEnv.fs.lstat(operand, dirEnv.cwd);
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, `tar: ${operand}: ${err.message}`);
      status = 1;
      continue;
    }
    await add(operand, name === '' ? '.' : name.replace(/\/+$/, '') || '.', node);
  }
  await emit(trailer(written));
  return status;
}

/** The path an archive member goes to (relative to -C), or undefined for one that would leave it. */
function memberPath(name: string, strip: number): string | undefined {
  const parts = splitPath(name).filter((p) => p !== '.');
  if (parts.includes('..')) return undefined;
  const kept = parts.slice(strip);
  return kept.length === 0 ? undefined : kept.join('/');
}

async function extractOrList(o: TarOptions, io: ShellIO, env: CommandEnv, input: AsyncIterable<Buffer>): Promise<number> {
  const fs = env.fs;
  for await (const { entry, data } of readTar(input)) {
    if (o.mode === 't') {
      await write(io.stdout, o.verbose ? `${listLine(entry)}\n` : `${entry.name}\n`);
      continue;
    }
    const path = memberPath(entry.name, o.stripComponents);
    if (path === undefined) {
      if (splitPath(entry.name).includes('..')) await fail(io, `tar: skipping unsafe member name '${entry.name}'`);
      continue;
    }
    if (o.verbose) await write(io.stdout, `${entry.name}\n`);
    const mode = o.samePermissions ? entry.mode : entry.mode & ~UMASK;
    const mtimeMs = o.touch ? env.now() : entry.mtimeMs;
    try {
      const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      if (parent !== '') fs.mkdir(parent, env.cwd, { parents: true });
      const existing = existingNode(env, path);
      switch (entry.type) {
        case 'dir':
          if (existing?.kind !== 'dir') {
            if (existing !== undefined) fs.remove(path, env.cwd);
            fs.mkdir(path, env.cwd, { mode });
          } else fs.setAttributes(path, env.cwd, { mode });
          fs.setAttributes(path, env.cwd, { mtimeMs });
          break;
        case 'symlink':
          if (existing !== undefined) fs.remove(path, env.cwd, { recursive: existing.kind === 'dir' && existing.entries.size === 0 });
          fs.symlink(entry.linkname, path, env.cwd);
          break;
        case 'hardlink': {
          const target = memberPath(entry.linkname, o.stripComponents);
          if (target === undefined) break;
          if (existing?.kind === 'symlink') fs.remove(path, env.cwd);
          fs.writeFile(path, fs.readFile(target, env.cwd), env.cwd);
          fs.setAttributes(path, env.cwd, { mode, mtimeMs });
          break;
        }
        case 'file': {
          if (existing?.kind === 'symlink') fs.remove(path, env.cwd);
          const sink = fs.openWrite(path, env.cwd, { mode });
          for await (const chunk of data) sink(chunk);
          fs.setAttributes(path, env.cwd, { mode, mtimeMs });
          break;
        }
        case 'other':
          break;
      }
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, `tar: can't ${entry.type === 'dir' ? 'create directory' : 'open'} '${path}': ${err.message}`);
      return 1;
    }
  }
  return 0;
}

function existingNode(env: CommandEnv, path: string): FsNode | undefined {
  try {
    return env.fs.lstat(path, env.cwd);
  } catch {
    return undefined;
  }
}

function listLine(e: TarEntry): string {
  const type = e.type === 'dir' ? 'd' : e.type === 'symlink' ? 'l' : e.type === 'hardlink' ? 'h' : '-';
  let perms = '';
  for (let i = 0; i < 9; i++) perms += e.mode & (1 << (8 - i)) ? 'rwxrwxrwx'[i] : '-';
  const d = new Date(e.mtimeMs);
  const when = `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}`;
  const owner = `${e.uname || e.uid}/${e.gname || e.gid}`;
  return `${type}${perms} ${owner} ${String(e.size).padStart(8)} ${when} ${e.name}${e.type === 'symlink' ? ` -> ${e.linkname}` : ''}`;
}

export const TAR_COMMANDS: Record<string, Builtin> = { tar };
