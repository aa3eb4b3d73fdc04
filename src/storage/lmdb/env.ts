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
  const env: LmdbEnv = {
    root,
    current: sub('current'),
    // LZ4 (off the main thread) for large values, where most of the bytes are: big objects
    // shrink severalfold, and with them the file, I/O and mapped pages. Not for small ones:
    // lmdb-js hands each compression to a worker, which doubled the CPU cost of a 1.5 KB create.
    // lmdb-js marks compressed records, so any value bytes round-trip unchanged.
    values: sub('values', { threshold: 16 * 1024 }),
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
