// The LMDB environment and its sub-databases. One environment (one data.mdb file) holds all of
// them, so a single LMDB transaction updates current state, history, the event log and the meta
// record atomically.
import { open, type Database, type RootDatabase, type Transaction } from 'lmdb';
import { StorageError } from '../types.js';
import { decodeRev, encodeRev, revKey } from './codec.js';
import { packValue, unpackValue } from './value-packing.js';

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
  /** First revision whose value is stored packed (value-packing.ts); older ones predate format 2. */
  packedFrom: number;
}

/** 2: values packed by value-packing.ts. Format 1 stores are upgraded in place when opened. */
const FORMAT = 2;
const MAP_SIZE = 64 * 1024 ** 3;
/** Above any value: lmdb-js never compresses on write, it only reads format 1's compressed values. */
const NEVER = Number.MAX_SAFE_INTEGER;
export const META_REV = Buffer.from('rev');
export const META_COMPACTED = Buffer.from('compacted');
const META_FORMAT = Buffer.from('format');
const META_PACKED_FROM = Buffer.from('packed-from');

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
      // Values are compressed by value-packing.ts before they get here. lmdb-js's compression stays
      // configured for reading: format 1 stores hold values it compressed.
      values: sub('values', { threshold: NEVER }),
      history: sub('history'),
      events: sub('events'),
      tombstones: sub('tombstones'),
      meta: sub('meta'),
      maxKeySize: (root as unknown as { maxKeySize?: number }).maxKeySize ?? 1978,
      packedFrom: 0,
    };
    const stored = env.meta.getBinary(META_FORMAT);
    const format = stored === undefined ? undefined : decodeRev(stored);
    if (format === 1) {
      // Values already written stay as they are; every later revision is packed.
      const rev = env.meta.getBinary(META_REV);
      env.meta.putSync(META_PACKED_FROM, encodeRev((rev === undefined ? 0 : decodeRev(rev)) + 1));
    } else if (format !== undefined && format !== FORMAT) {
      throw new StorageError('Unavailable', `${dataDir} holds lmdb storage format ${format}, this build reads formats 1 and ${FORMAT}`);
    }
    if (format !== FORMAT) env.meta.putSync(META_FORMAT, encodeRev(FORMAT));
    const packedFrom = env.meta.getBinary(META_PACKED_FROM);
    env.packedFrom = packedFrom === undefined ? 0 : decodeRev(packedFrom);
    return env;
  });
}

export function readMetaRev(env: LmdbEnv, key: Buffer): number {
  const buf = env.meta.getBinary(key);
  return buf === undefined ? 0 : decodeRev(buf);
}

/** lmdb-js put options for MDB_APPEND (its typings only declare the version-number overload). */
export const APPEND = { append: true } as unknown as number;

/** The value written at `revision`, or undefined if there is none; `txn`: within that read transaction. */
export function readValue(env: LmdbEnv, revision: number, txn?: Transaction): Buffer | undefined {
  const key = revKey(revision);
  const stored = txn ? getIn(env.values, key, txn) : env.values.getBinary(key);
  return stored === undefined ? undefined : unpackValue(stored, revision, env.packedFrom);
}

/** Stores the value of a new revision (appended: revisions only grow); resolves false if refused. */
export function appendValue(env: LmdbEnv, revision: number, value: Uint8Array): Promise<boolean> {
  return env.values.put(revKey(revision), packValue(value), APPEND);
}

/** A point read inside a given read transaction (lmdb-js accepts the option; its typings omit it). */
export function getIn(db: BinaryDb, key: Buffer, txn: Transaction): Buffer | undefined {
  return (db as unknown as { getBinary(k: Buffer, o: { transaction: Transaction }): Buffer | undefined }).getBinary(key, {
    transaction: txn,
  });
}
