// Writes are refused while the disk holding the data dir is (nearly) full, before they touch the
// store: an LMDB commit that fails for lack of space leaves memory ahead of disk, and the store
// would have to stop. etcd does the same with its space quota (writes fail with "database space
// exceeded", reads go on, and writes work again once space is freed). Free space is read from the
// file system (statfs) at most every CHECK_INTERVAL_MS, and each accepted write is counted against
// it in between, so a burst cannot run past the reserve between two checks.
import { statfsSync } from 'node:fs';
import { StorageError } from '../types.js';

/** Kept free for LMDB's own growth (new pages, the free list, meta pages) and the rest of the process. */
export const RESERVE_BYTES = 8 * 1024 * 1024;
/** A write of n bytes may dirty up to this many times n in new pages (copy-on-write of the B-tree path, the history record). */
const WRITE_AMPLIFICATION = 4;
const CHECK_INTERVAL_MS = 250;

/** A refusal is logged at most this often. */
const LOG_INTERVAL_MS = 10_000;

export class DiskSpaceGuard {
  private free = Infinity;
  private checkedAt = -Infinity;
  private loggedAt = -Infinity;

  constructor(
    private readonly dir: string,
    private readonly log: ((fields: Record<string, unknown>) => void) | undefined,
    private readonly freeBytes: (dir: string) => number = (d) => {
      const s = statfsSync(d);
      return s.bavail * s.bsize;
    },
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Throws a NoSpace StorageError when a write of `bytes` would leave less than the reserve free. */
  admit(bytes: number): void {
    const need = RESERVE_BYTES + WRITE_AMPLIFICATION * bytes;
    const t = this.now();
    // re-read when stale, and always before refusing: space may have been freed since
    if (t - this.checkedAt >= CHECK_INTERVAL_MS || this.free < need) {
      try {
        this.free = this.freeBytes(this.dir);
      } catch {
        this.free = Infinity; // a file system without statfs: nothing to go by
      }
      this.checkedAt = t;
    }
    if (this.free < need) {
      const err = new StorageError('NoSpace', `the disk holding ${this.dir} is full (${mib(this.free)} free, ${mib(need)} needed to write): writes are refused until space is freed; reads go on`);
      if (t - this.loggedAt >= LOG_INTERVAL_MS) {
        this.loggedAt = t;
        this.log?.({ msg: 'storage: writes refused, the disk is full', error: err.message });
      }
      throw err;
    }
    this.free -= WRITE_AMPLIFICATION * bytes;
  }
}

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
