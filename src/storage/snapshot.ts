// Snapshots of a whole store and their restore, for resetting a cluster between tests (kubelite's
// answer to kind#3508) and for `kubelite snapshot save|restore` on a stopped data dir, as
// `etcdutl snapshot restore` is to etcd. A snapshot is every key and value at one revision. A
// restore brings the store back to it through ordinary writes — keys created since are deleted,
// changed ones are written back, deleted ones created again — so every write gets a new revision,
// resourceVersions only grow, and watchers see the restore as the events it is (no history is
// rewritten: informers stay consistent without a relist). A key a concurrent writer changes during
// the restore is read again and retried.
import { KEY_PREFIX, isStorageError, type Storage } from './types.js';

export interface Snapshot {
  /** The revision the snapshot was read at. */
  revision: number;
  entries: ReadonlyMap<string, Uint8Array>;
}

export interface RestoreResult {
  created: number;
  updated: number;
  deleted: number;
  /** The store's revision once the restore's writes are in. */
  revision: number;
}

const PAGE = 1000;
const ATTEMPTS = 5;

/** Every key under /registry/ at one revision. */
export async function takeSnapshot(storage: Storage): Promise<Snapshot> {
  const { revision, entries } = await readAll(storage);
  return { revision, entries };
}

async function readAll(storage: Storage): Promise<{ revision: number; entries: Map<string, Uint8Array>; modRevisions: Map<string, number> }> {
  const entries = new Map<string, Uint8Array>();
  const modRevisions = new Map<string, number>();
  let revision: number | undefined;
  let startAfter: string | undefined;
  for (;;) {
    const page = await storage.list(KEY_PREFIX, { limit: PAGE, ...(revision !== undefined ? { revision } : {}), ...(startAfter !== undefined ? { startAfter } : {}) });
    revision = page.revision;
    for (const kv of page.items) {
      // a copy: a backend may reuse the buffer it read into
      entries.set(kv.key, Uint8Array.from(kv.value));
      modRevisions.set(kv.key, kv.modRevision);
    }
    if (!page.more || page.items.length === 0) break;
    startAfter = page.items[page.items.length - 1]!.key;
  }
  return { revision: revision ?? 0, entries, modRevisions };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

/** Brings the store back to `snapshot` (see above). */
export async function restoreSnapshot(storage: Storage, snapshot: Snapshot): Promise<RestoreResult> {
  const result = { created: 0, updated: 0, deleted: 0 };
  const { entries: current, modRevisions } = await readAll(storage);
  const keys = new Set([...current.keys(), ...snapshot.entries.keys()]);
  await Promise.all([...keys].map((key) => restoreKey(storage, key, snapshot.entries.get(key), current.get(key), modRevisions.get(key), result)));
  return { ...result, revision: await storage.currentRevision() };
}

/** One key back to its snapshot value (undefined: absent), retried when someone else writes it meanwhile. */
async function restoreKey(storage: Storage, key: string, want: Uint8Array | undefined, have: Uint8Array | undefined, modRevision: number | undefined, result: { created: number; updated: number; deleted: number }): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (want === undefined) {
        if (have === undefined) return;
        await storage.delete(key, { expectModRevision: modRevision! });
        result.deleted++;
      } else if (have === undefined) {
        await storage.create(key, Uint8Array.from(want));
        result.created++;
      } else if (!sameBytes(want, have)) {
        await storage.update(key, Uint8Array.from(want), { expectModRevision: modRevision! });
        result.updated++;
      }
      return;
    } catch (err) {
      const raced = isStorageError(err, 'Conflict') || isStorageError(err, 'NotFound') || isStorageError(err, 'AlreadyExists');
      if (!raced || attempt >= ATTEMPTS) throw err;
      const now = await storage.get(key);
      have = now?.value;
      modRevision = now?.modRevision;
    }
  }
}

const MAGIC = 'kubelite-snapshot/v1';

/**
 * A snapshot as bytes: a header line (`{"format":"kubelite-snapshot/v1","revision":N,"keys":K}`),
 * then one line per key (`{"key":...,"value":<base64>}`).
 */
export function encodeSnapshot(snapshot: Snapshot): Buffer {
  const lines = [JSON.stringify({ format: MAGIC, revision: snapshot.revision, keys: snapshot.entries.size })];
  for (const [key, value] of snapshot.entries) lines.push(JSON.stringify({ key, value: Buffer.from(value).toString('base64') }));
  return Buffer.from(`${lines.join('\n')}\n`);
}

export class SnapshotFormatError extends Error {}

/** Reads encodeSnapshot's bytes back; throws SnapshotFormatError saying what is wrong. */
export function decodeSnapshot(bytes: Buffer): Snapshot {
  const lines = bytes.toString('utf8').split('\n').filter((l) => l !== '');
  const parse = (line: string, n: number): Record<string, unknown> => {
    try {
      const v = JSON.parse(line) as unknown;
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
      return v as Record<string, unknown>;
    } catch (e) {
      throw new SnapshotFormatError(`line ${n}: not a snapshot record (${(e as Error).message})`);
    }
  };
  if (lines.length === 0) throw new SnapshotFormatError('empty: not a kubelite snapshot');
  const head = parse(lines[0]!, 1);
  if (head.format !== MAGIC) throw new SnapshotFormatError(`not a kubelite snapshot (format ${JSON.stringify(head.format)}, expected ${MAGIC})`);
  if (!Number.isSafeInteger(head.revision) || !Number.isSafeInteger(head.keys)) throw new SnapshotFormatError('line 1: revision and keys must be integers');
  const entries = new Map<string, Uint8Array>();
  for (let i = 1; i < lines.length; i++) {
    const rec = parse(lines[i]!, i + 1);
    if (typeof rec.key !== 'string' || !rec.key.startsWith(KEY_PREFIX) || typeof rec.value !== 'string') throw new SnapshotFormatError(`line ${i + 1}: a record needs a key under ${KEY_PREFIX} and a base64 value`);
    if (entries.has(rec.key)) throw new SnapshotFormatError(`line ${i + 1}: key ${rec.key} appears twice`);
    entries.set(rec.key, Buffer.from(rec.value, 'base64'));
  }
  if (entries.size !== head.keys) throw new SnapshotFormatError(`truncated: the header says ${String(head.keys)} keys, the file holds ${entries.size}`);
  return { revision: head.revision as number, entries };
}
