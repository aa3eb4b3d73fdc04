// A container's filesystem, in memory: directories, regular files, symbolic links and /dev/null,
// with a byte budget (the container's writable layer is not infinite) and read-only mounts (the
// kubelet mounts ConfigMap, Secret, downward API and projected volumes read-only). Operations are
// synchronous and throw FsError with the errno a Linux kernel would give, so the shell's commands
// can print the strerror text real tools print.

export type FsErrorCode = 'ENOENT' | 'ENOTDIR' | 'EISDIR' | 'EEXIST' | 'ENOTEMPTY' | 'EROFS' | 'ENOSPC' | 'ELOOP' | 'EINVAL' | 'EBUSY';

const STRERROR: Record<FsErrorCode, string> = {
  ENOENT: 'No such file or directory',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EEXIST: 'File exists',
  ENOTEMPTY: 'Directory not empty',
  EROFS: 'Read-only file system',
  ENOSPC: 'No space left on device',
  ELOOP: 'Symbolic link loop',
  EINVAL: 'Invalid argument',
  EBUSY: 'Resource busy',
};

export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    readonly path: string,
  ) {
    super(STRERROR[code]);
  }
}

interface NodeBase {
  /** Permission bits (0o7777). */
  mode: number;
  mtimeMs: number;
  uid: number;
  gid: number;
  /** The root of a read-only mount: nothing under it may change. */
  readOnly?: boolean;
}
export interface DirNode extends NodeBase {
  kind: 'dir';
  entries: Map<string, FsNode>;
}
export interface FileNode extends NodeBase {
  kind: 'file';
  /** Content as written; joined into one chunk on first read. */
  chunks: Buffer[];
  size: number;
}
export interface SymlinkNode extends NodeBase {
  kind: 'symlink';
  target: string;
}
/** A character device: only /dev/null (reads nothing, discards writes). */
export interface DeviceNode extends NodeBase {
  kind: 'null';
}
export type FsNode = DirNode | FileNode | SymlinkNode | DeviceNode;

export const DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024;
const MAX_SYMLINK_HOPS = 40;

/** Where a path leads: its parent directory, its last name, the node (if any), and whether it is read-only. */
export interface Resolved {
  parent: DirNode;
  name: string;
  node: FsNode | undefined;
  readOnly: boolean;
  /** The canonical absolute path (symlinks of the parents resolved). */
  path: string;
}

export interface VfsOptions {
  budgetBytes?: number;
  now?: () => number;
}

export function splitPath(p: string): string[] {
  return p.split('/').filter((s) => s !== '');
}

/** Joins `p` to `cwd` and removes `.`, `..` and repeated slashes, without following links. */
export function normalizePath(p: string, cwd = '/'): string {
  const out: string[] = [];
  for (const part of splitPath(p.startsWith('/') ? p : `${cwd}/${p}`)) {
    if (part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

export function basename(p: string): string {
  const parts = splitPath(p);
  return parts[parts.length - 1] ?? '/';
}

export function dirname(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return trimmed.slice(0, i);
}

export class Vfs {
  readonly root: DirNode;
  readonly budgetBytes: number;
  private used = 0;
  readonly now: () => number;

  constructor(options: VfsOptions = {}) {
    this.budgetBytes = options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    this.now = options.now ?? Date.now;
    this.root = this.newDir(0o755);
  }

  /** Bytes held by regular files. */
  get usedBytes(): number {
    return this.used;
  }

  newDir(mode: number): DirNode {
    return { kind: 'dir', mode, mtimeMs: this.now(), uid: 0, gid: 0, entries: new Map() };
  }

  newFile(data: Buffer, mode: number): FileNode {
    this.reserve(data.length, '');
    return { kind: 'file', mode, mtimeMs: this.now(), uid: 0, gid: 0, chunks: data.length > 0 ? [data] : [], size: data.length };
  }

  /** Walks `path` (relative to `cwd`), following symlinks of the parents and, with `follow`, of the last name. */
  resolve(path: string, cwd = '/', follow = true): Resolved {
    if (path === '') throw new FsError('ENOENT', path);
    let parts = splitPath(path.startsWith('/') ? path : `${cwd}/${path}`);
    const stack: Array<{ dir: DirNode; name: string; readOnly: boolean }> = [{ dir: this.root, name: '', readOnly: !!this.root.readOnly }];
    let hops = 0;
    let i = 0;
    while (i < parts.length) {
      const name = parts[i]!;
      const top = stack[stack.length - 1]!;
      if (name === '.') {
        i++;
        continue;
      }
      if (name === '..') {
        if (stack.length > 1) stack.pop();
        i++;
        continue;
      }
      const node = top.dir.entries.get(name);
      const last = i === parts.length - 1;
      if (node?.kind === 'symlink' && (!last || follow)) {
        if (++hops > MAX_SYMLINK_HOPS) throw new FsError('ELOOP', path);
        if (node.target.startsWith('/')) stack.splice(1);
        parts = [...splitPath(node.target), ...parts.slice(i + 1)];
        i = 0;
        continue;
      }
      if (last) {
        const canonical = `${stack.map((s) => s.name).join('/')}/${name}`;
        return { parent: top.dir, name, node, readOnly: top.readOnly || !!node?.readOnly, path: canonical };
      }
      if (node === undefined) throw new FsError('ENOENT', path);
      if (node.kind !== 'dir') throw new FsError('ENOTDIR', path);
      stack.push({ dir: node, name, readOnly: top.readOnly || !!node.readOnly });
      i++;
    }
    // The path names a directory reached through `.`/`..` or the root itself.
    const top = stack[stack.length - 1]!;
    const parent = stack[stack.length - 2]?.dir ?? this.root;
    return { parent, name: top.name, node: top.dir, readOnly: top.readOnly, path: stack.map((s) => s.name).join('/') || '/' };
  }

  /** The node at `path` (following links), or ENOENT. */
  stat(path: string, cwd = '/'): FsNode {
    const r = this.resolve(path, cwd, true);
    if (r.node === undefined) throw new FsError('ENOENT', path);
    return r.node;
  }

  lstat(path: string, cwd = '/'): FsNode {
    const r = this.resolve(path, cwd, false);
    if (r.node === undefined) throw new FsError('ENOENT', path);
    return r.node;
  }

  exists(path: string, cwd = '/'): boolean {
    try {
      this.stat(path, cwd);
      return true;
    } catch {
      return false;
    }
  }

  readFile(path: string, cwd = '/'): Buffer {
    return this.contentOf(this.stat(path, cwd), path);
  }

  contentOf(node: FsNode, path: string): Buffer {
    if (node.kind === 'dir') throw new FsError('EISDIR', path);
    if (node.kind !== 'file') return Buffer.alloc(0);
    if (node.chunks.length > 1) node.chunks = [Buffer.concat(node.chunks)];
    return node.chunks[0] ?? Buffer.alloc(0);
  }

  readdir(path: string, cwd = '/'): Array<[string, FsNode]> {
    const node = this.stat(path, cwd);
    if (node.kind !== 'dir') throw new FsError('ENOTDIR', path);
    return [...node.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * Opens `path` for writing (creating it with `mode`, truncating unless `append`) and returns the
   * function that appends a chunk: redirections and tar extraction write big content chunk by chunk.
   */
  openWrite(path: string, cwd = '/', options: { append?: boolean; mode?: number } = {}): (chunk: Buffer) => void {
    const r = this.resolve(path, cwd, true);
    let node = r.node;
    if (node?.kind === 'null') return () => {};
    if (node?.kind === 'dir') throw new FsError('EISDIR', path);
    if (r.readOnly) throw new FsError('EROFS', path);
    if (node === undefined) {
      this.checkWritableDir(r.parent, path);
      node = this.newFile(Buffer.alloc(0), options.mode ?? 0o644);
      r.parent.entries.set(r.name, node);
      r.parent.mtimeMs = this.now();
    } else if (node.kind === 'file' && !options.append) {
      this.release(node.size);
      node.chunks = [];
      node.size = 0;
      node.mtimeMs = this.now();
    }
    const file = node as FileNode;
    return (chunk: Buffer) => {
      if (chunk.length === 0) return;
      this.reserve(chunk.length, path);
      file.chunks.push(Buffer.from(chunk));
      file.size += chunk.length;
      file.mtimeMs = this.now();
    };
  }

  writeFile(path: string, data: Buffer | string, cwd = '/', options: { append?: boolean; mode?: number } = {}): void {
    this.openWrite(path, cwd, options)(typeof data === 'string' ? Buffer.from(data) : data);
  }

  mkdir(path: string, cwd = '/', options: { parents?: boolean; mode?: number } = {}): void {
    const mode = options.mode ?? 0o755;
    if (options.parents) {
      const abs = normalizePath(path, cwd);
      let sofar = '';
      for (const part of splitPath(abs)) {
        sofar += `/${part}`;
        const r = this.resolve(sofar, '/', true);
        if (r.node?.kind === 'dir') continue;
        if (r.node !== undefined) throw new FsError('ENOTDIR', path);
        if (r.readOnly) throw new FsError('EROFS', path);
        r.parent.entries.set(r.name, this.newDir(mode));
      }
      return;
    }
    const r = this.resolve(path, cwd, false);
    if (r.node !== undefined) throw new FsError('EEXIST', path);
    if (r.readOnly) throw new FsError('EROFS', path);
    this.checkWritableDir(r.parent, path);
    r.parent.entries.set(r.name, this.newDir(mode));
    r.parent.mtimeMs = this.now();
  }

  symlink(target: string, path: string, cwd = '/'): void {
    const r = this.resolve(path, cwd, false);
    if (r.node !== undefined) throw new FsError('EEXIST', path);
    if (r.readOnly) throw new FsError('EROFS', path);
    r.parent.entries.set(r.name, { kind: 'symlink', target, mode: 0o777, mtimeMs: this.now(), uid: 0, gid: 0 });
  }

  /** Removes a file, link or (with `recursive`, or when empty) directory. */
  remove(path: string, cwd = '/', options: { recursive?: boolean } = {}): void {
    const r = this.resolve(path, cwd, false);
    if (r.node === undefined) throw new FsError('ENOENT', path);
    if (r.node === this.root || r.name === '') throw new FsError('EBUSY', path);
    if (r.readOnly || r.node.readOnly) throw new FsError(r.node.readOnly ? 'EBUSY' : 'EROFS', path);
    if (r.node.kind === 'dir') {
      if (!options.recursive && r.node.entries.size > 0) throw new FsError('ENOTEMPTY', path);
      if (containsMount(r.node)) throw new FsError('EBUSY', path);
    }
    this.release(sizeOf(r.node));
    r.parent.entries.delete(r.name);
    r.parent.mtimeMs = this.now();
  }

  rename(from: string, to: string, cwd = '/'): void {
    const src = this.resolve(from, cwd, false);
    if (src.node === undefined) throw new FsError('ENOENT', from);
    if (src.readOnly || src.node.readOnly) throw new FsError(src.node.readOnly ? 'EBUSY' : 'EROFS', from);
    const dst = this.resolve(to, cwd, false);
    if (dst.readOnly) throw new FsError('EROFS', to);
    if (dst.node === src.node) return;
    if (dst.node?.kind === 'dir') {
      if (src.node.kind !== 'dir') throw new FsError('EISDIR', to);
      if (dst.node.entries.size > 0) throw new FsError('ENOTEMPTY', to);
    } else if (dst.node !== undefined && src.node.kind === 'dir') {
      throw new FsError('ENOTDIR', to);
    }
    if (src.node.kind === 'dir' && `${dst.path}/`.startsWith(`${src.path}/`)) throw new FsError('EINVAL', to);
    this.checkWritableDir(dst.parent, to);
    if (dst.node !== undefined) this.release(sizeOf(dst.node));
    src.parent.entries.delete(src.name);
    dst.parent.entries.set(dst.name, src.node);
    src.parent.mtimeMs = dst.parent.mtimeMs = this.now();
  }

  /** Changes mode bits or the modification time of a node (following links). */
  setAttributes(path: string, cwd: string, attrs: { mode?: number; mtimeMs?: number }): void {
    const r = this.resolve(path, cwd, true);
    if (r.node === undefined) throw new FsError('ENOENT', path);
    if (r.readOnly) throw new FsError('EROFS', path);
    if (attrs.mode !== undefined) r.node.mode = attrs.mode & 0o7777;
    if (attrs.mtimeMs !== undefined) r.node.mtimeMs = attrs.mtimeMs;
  }

  /**
   * Places `node` at `path` (creating missing parents), replacing what was there: how the builder
   * mounts a volume. A read-only mount marks its root so that nothing beneath it may change.
   */
  mount(path: string, node: FsNode, readOnly: boolean): void {
    const abs = normalizePath(path);
    if (abs === '/') throw new FsError('EBUSY', path);
    this.mkdir(dirname(abs), '/', { parents: true });
    const r = this.resolve(abs, '/', false);
    if (r.node !== undefined) this.release(sizeOf(r.node));
    if (readOnly) node.readOnly = true;
    r.parent.entries.set(r.name, node);
  }

  private checkWritableDir(dir: DirNode, path: string): void {
    if (dir.kind !== 'dir') throw new FsError('ENOTDIR', path);
  }

  private reserve(bytes: number, path: string): void {
    if (this.used + bytes > this.budgetBytes) throw new FsError('ENOSPC', path);
    this.used += bytes;
  }

  private release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** Bytes held by regular files under `node`. */
export function sizeOf(node: FsNode): number {
  if (node.kind === 'file') return node.size;
  if (node.kind !== 'dir') return 0;
  let total = 0;
  for (const child of node.entries.values()) total += sizeOf(child);
  return total;
}

function containsMount(dir: DirNode): boolean {
  for (const child of dir.entries.values()) {
    if (child.readOnly) return true;
    if (child.kind === 'dir' && containsMount(child)) return true;
  }
  return false;
}

/** `drwxr-xr-x`, `-rw-r--r--`, `lrwxrwxrwx`, `crw-rw-rw-`: as `ls -l` prints a mode. */
export function modeString(node: FsNode): string {
  const type = node.kind === 'dir' ? 'd' : node.kind === 'symlink' ? 'l' : node.kind === 'null' ? 'c' : '-';
  const bits = 'rwxrwxrwx';
  let out = type;
  for (let i = 0; i < 9; i++) out += node.mode & (1 << (8 - i)) ? bits[i] : '-';
  if (node.mode & 0o1000) out = out.slice(0, 9) + (node.mode & 0o001 ? 't' : 'T');
  return out;
}
