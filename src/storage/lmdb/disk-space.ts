// Writes are refused while the disk holding the data dir is (nearly) full or its file system has
// turned read-only (as the kernel remounts one after I/O errors), before they touch the store: an LMDB commit that fails for lack of space leaves memory ahead of disk, and the store
// would have to stop. etcd does the same with its space quota (writes fail with "database space
// exceeded", reads go on, and writes work again once space is freed). Free space and writability
// are read from the file system (statfs, access) at most every CHECK_INTERVAL_MS, and each accepted
// write is counted against the space in between, so a burst cannot run past the reserve between
// two checks.
import { accessSync, constants, statfsSync } from 'node:fs';
import { StorageError } from '../types.js';

/** Kept free for LMDB's own growth (new pages, the free list, meta pages) and the rest of the process. */
export const RESERVE_BYTES = 8 * 1024 * 1024;
/** A write of n bytes may dirty up to this many times n in new pages (copy-on-write of the B-tree path, the history record). */
const WRITE_AMPLIFICATION = 4;
const CHECK_INTERVAL_MS = 250;

/** A refusal is logged at most this often. */
const LOG_INTERVAL_MS = 10_000;

/** How the guard looks at the file system (injectable for tests). */
export interface DiskProbe {
  freeBytes(dir: string): number;
  /** Whether the file system holding `dir` is mounted read-only. */
  readOnly(dir: string): boolean;
  now(): number;
}

/** Refuses a data dir on a read-only file system up front, in one line, before anything tries to write there. */
export function assertWritableDataDir(dir: string): void {
  if (realProbe.readOnly(dir)) throw new StorageError('ReadOnly', `the data dir ${dir} is on a read-only file system (EROFS): kubelite keeps its data there and must write to it`);
}

const realProbe: DiskProbe = {
  freeBytes: (dir) => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  },
  readOnly: (dir) => {
    try {
      accessSync(dir, constants.W_OK);
      return false;
    } catch (e) {
      // only the file system's state: a permission the process lacks is not what this guards
      return (e as NodeJS.ErrnoException).code === 'EROFS';
    }
  },
  now: () => Date.now(),
};

export class DiskSpaceGuard {
  private free = Infinity;
  private readOnly = false;
  private checkedAt = -Infinity;
  private loggedAt = -Infinity;
  private readonly probe: DiskProbe;

  constructor(
    private readonly dir: string,
    private readonly log: ((fields: Record<string, unknown>) => void) | undefined,
    probe: Partial<DiskProbe> = {},
  ) {
    this.probe = { ...realProbe, ...probe };
  }

  /**
   * Throws a ReadOnly StorageError while the data dir's file system is read-only, and a NoSpace one
   * when a write of `bytes` would leave less than the reserve free.
   */
  admit(bytes: number): void {
    const need = RESERVE_BYTES + WRITE_AMPLIFICATION * bytes;
    const t = this.probe.now();
    // re-read when stale, and always before refusing: space may have been freed since
    if (t - this.checkedAt >= CHECK_INTERVAL_MS || this.free < need || this.readOnly) {
      try {
        this.free = this.probe.freeBytes(this.dir);
      } catch {
        this.free = Infinity; // a file system without statfs: nothing to go by
      }
      this.readOnly = this.probe.readOnly(this.dir);
      this.checkedAt = t;
    }
    if (this.readOnly) {
      this.refuse(t, new StorageError('ReadOnly', `the data dir ${this.dir} is on a read-only file system (EROFS): writes are refused until it is writable again; reads go on`), 'the file system is read-only');
    }
    if (this.free < need) {
      this.refuse(t, new StorageError('NoSpace', `the disk holding ${this.dir} is full (${mib(this.free)} free, ${mib(need)} needed to write): writes are refused until space is freed; reads go on`), 'the disk is full');
    }
    this.free -= WRITE_AMPLIFICATION * bytes;
  }

  private refuse(t: number, err: StorageError, why: string): never {
    if (t - this.loggedAt >= LOG_INTERVAL_MS) {
      this.loggedAt = t;
      this.log?.({ msg: `storage: writes refused, ${why}`, error: err.message });
    }
    throw err;
  }
}

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
