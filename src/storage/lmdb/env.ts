// The LMDB environment and its sub-databases. One environment (one data.mdb file) holds all of
// them, so a single LMDB transaction updates current state, history, the event log and the meta
// record atomically.
import { open, type Database, type RootDatabase, type Transaction } from 'lmdb';
import { StorageError } from '../types.js';
import { decodeRev, encodeRev } from './codec.js';

export type BinaryDb = Database<Buffer, Buffer>;

export interface LmdbEnv {
  root: RootDatabase;
  /** key → {createRevision, modRevision, version} of every existing key (no values: small). */
  current: BinaryDb;
  /**
   * revision → value written at that revision. Keyed by revision, so writes append and pages
   * fill densely; a value is deleted once its version is superseded and compacted.
   */
  values: BinaryDb;
  /** (key, modRevision) → metadata of a superseded or deleted version, until compaction passes its end. */
  history: BinaryDb;
  /** revision → event record (type, key, createRevision, previous modRevision), for watch replay. */
  events: BinaryDb;
  /** key → revision of its delete, for keys absent now but deleted within retained history. */
  tombstones: BinaryDb;
  /** "rev" → newest committed revision, "compacted" → compacted revision, "format". */
  meta: BinaryDb;
  /** Longest LMDB key, which bounds object keys (history keys add 9 bytes). */
  maxKeySize: number;
}

const FORMAT = 1;
const MAP_SIZE = 64 * 1024 ** 3;
const COMPRESSION_THRESHOLD = 2 * 1024;
export const META_REV = Buffer.from('rev');
export const META_COMPACTED = Buffer.from('compacted');
const META_FORMAT = Buffer.from('format');

export function openEnv(dataDir: string): LmdbEnv {
  const root = open({
    path: dataDir,
    // A batch promise resolves when its commit is visible; it is flushed to disk afterwards while
    // the next commit proceeds (overlappingSync, lmdb-js's default on Linux), and the storage
    // acknowledges writes only once `flushed` says they are on disk.
    overlappingSync: true,
    noSync: false,
    // 8 KiB pages raise LMDB's key limit from 1978 to 4026 bytes (history keys are object keys
    // plus 9 bytes) and keep values up to ~4 KiB inline in leaf pages.
    pageSize: 8192,
    maxDbs: 8,
    // Address space only (the file grows as needed). lmdb-js grows a too-small map by mapping it
    // again and keeps the old mappings alive, so pages touched before a resize would count twice
    // in resident memory; starting large avoids resizes in practice.
    mapSize: MAP_SIZE,
    // Values are opaque bytes; never cache decoded objects in JS memory.
    cache: false,
  });
  const sub = (name: string, compression: false | { threshold: number } = false): BinaryDb =>
    root.openDB<Buffer, Buffer>({ name, encoding: 'binary', keyEncoding: 'binary', cache: false, compression });
  // One write transaction for all of it: opening a sub-database that does not exist yet creates
  // it in a transaction of its own, so a first start would otherwise commit seven times (~20 ms
  // of a fresh API server's start on a busy machine, ~1 ms as one).
  return root.transactionSync(() => {
    const env: LmdbEnv = {
      root,
      current: sub('current'),
      // LZ4 for values from 2 KiB up, which is where the bytes are: a pod of ~4 KiB with its
      // managedFields would otherwise take a whole 8 KiB overflow page (81 MB of file for 10,000
      // pods against 22 MB compressed), and every page of the file that LMDB's reads fault in
      // (with the kernel's fault-around of the pages next to it) counts in the resident memory:
      // 37 MB against 18.5 MB. lmdb-js compresses on libuv's thread pool, not the main thread
      // (~10 µs of CPU per 4 KiB value there). Small values are stored as they are: they fit in
      // leaf pages and would not shrink enough to pay for the hand-off. lmdb-js marks compressed
      // records, so values written before (or under another threshold) read back unchanged.
      values: sub('values', { threshold: COMPRESSION_THRESHOLD }),
      history: sub('history'),
      events: sub('events'),
      tombstones: sub('tombstones'),
      meta: sub('meta'),
      maxKeySize: (root as unknown as { maxKeySize?: number }).maxKeySize ?? 1978,
    };
    const format = env.meta.getBinary(META_FORMAT);
    if (format === undefined) {
      env.meta.putSync(META_FORMAT, encodeRev(FORMAT));
    } else if (decodeRev(format) !== FORMAT) {
      throw new StorageError('Unavailable', `${dataDir} holds lmdb storage format ${decodeRev(format)}, this build reads format ${FORMAT}`);
    }
    return env;
  });
}

export function readMetaRev(env: LmdbEnv, key: Buffer): number {
  const buf = env.meta.getBinary(key);
  return buf === undefined ? 0 : decodeRev(buf);
}

/** A point read inside a given read transaction (lmdb-js accepts the option; its typings omit it). */
export function getIn(db: BinaryDb, key: Buffer, txn: Transaction): Buffer | undefined {
  return (db as unknown as { getBinary(k: Buffer, o: { transaction: Transaction }): Buffer | undefined }).getBinary(key, {
    transaction: txn,
  });
}
