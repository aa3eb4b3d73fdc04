// Exclusive ownership of a data directory. LMDB itself happily lets several processes share an
// environment, but this backend keeps the authoritative key index and revision counter in the
// memory of one process, so a second writer would corrupt it. The lock is a file naming its owner
// (pid, process start time, boot id); an owner that no longer runs (kill -9, reboot, reused pid)
// leaves a stale lock that the next open takes over.
import { linkSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from '../types.js';

const LOCK_FILE = 'kubelite.lock';

interface Owner {
  pid: number;
  /** Process start time in clock ticks since boot (/proc/<pid>/stat field 22), when known. */
  start?: string;
  bootId?: string;
}

/** Directories locked by this process: a second open here must fail too, and the pid check cannot tell. */
const heldHere = new Set<string>();

export class DataDirLock {
  private released = false;

  private constructor(
    private readonly dir: string,
    private readonly path: string,
    private readonly owner: Owner,
  ) {}

  static acquire(dataDir: string): DataDirLock {
    const dir = realpathSync(dataDir);
    if (heldHere.has(dir)) {
      throw new StorageError('Unavailable', `data dir ${dataDir} is already open in this process`);
    }
    const path = join(dir, LOCK_FILE);
    const owner = selfOwner();
    const content = `${JSON.stringify(owner)}\n`;
    // Write the full record under a private name, then hard-link it into place: link() fails when
    // the lock exists, so taking the lock is atomic and no reader ever sees a half-written file.
    const tmp = join(dir, `${LOCK_FILE}.${process.pid}.${Date.now()}`);
    writeFileSync(tmp, content, { flag: 'wx' });
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          linkSync(tmp, path);
          heldHere.add(dir);
          return new DataDirLock(dir, path, owner);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        const holder = readOwner(path);
        if (holder && isAlive(holder)) {
          throw new StorageError(
            'Unavailable',
            `data dir ${dataDir} is locked by running process ${holder.pid} (${path}); ` +
              'another kubelite is using it — stop that process first',
          );
        }
        // Stale: its owner is gone. Remove it and race for the lock again.
        try {
          unlinkSync(path);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      throw new StorageError('Unavailable', `could not take the lock ${path}: it keeps reappearing`);
    } finally {
      unlinkSync(tmp);
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.dir);
    const holder = readOwner(this.path);
    // Only remove the file while it is still ours; never someone else's lock.
    if (holder && holder.pid === this.owner.pid && holder.start === this.owner.start) {
      try {
        unlinkSync(this.path);
      } catch {
        // Already gone: nothing to release.
      }
    }
  }
}

function selfOwner(): Owner {
  return { pid: process.pid, start: procStart(process.pid)?.start, bootId: bootId() };
}

function readOwner(path: string): Owner | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as Owner;
    return Number.isInteger(parsed.pid) ? parsed : undefined;
  } catch {
    // Written atomically by us, so garbage means someone else's file: treat as stale.
    return undefined;
  }
}

function isAlive(owner: Owner): boolean {
  const boot = bootId();
  if (owner.bootId && boot && owner.bootId !== boot) return false; // the machine rebooted since
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: a process we may not signal exists under that pid; check its identity below.
  }
  const proc = procStart(owner.pid);
  // Without /proc a live pid is all we can know; with it, an unreadable entry means it just exited.
  if (!proc) return procStart(process.pid) === undefined;
  if (proc.state === 'Z' || proc.state === 'X') return false; // killed, not yet reaped
  // A different start time means the pid was reused by another process (common in containers).
  return owner.start === undefined || owner.start === proc.start;
}

function procStart(pid: number): { state: string; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const start = fields[19];
    return state !== undefined && start !== undefined ? { state, start } : undefined;
  } catch {
    return undefined;
  }
}

let cachedBootId: string | undefined | null = null;
function bootId(): string | undefined {
  if (cachedBootId === null) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      cachedBootId = undefined;
    }
  }
  return cachedBootId;
}
