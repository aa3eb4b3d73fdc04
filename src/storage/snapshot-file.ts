// `kubelite snapshot save|restore` and `up --from-snapshot`: a snapshot file of a data dir's lmdb
// store, taken or restored with the cluster stopped (the data dir lock says when it is not), as
// `etcdutl snapshot save|restore` on an etcd data dir. The restore goes through ordinary writes
// (snapshot.ts), so revisions only grow and clients that come back after it see a consistent
// history.
import { readFileSync, writeFileSync } from 'node:fs';
import { openStorage } from './open.js';
import { decodeSnapshot, encodeSnapshot, restoreSnapshot, takeSnapshot, type RestoreResult } from './snapshot.js';

export async function saveSnapshotFile(dataDir: string, file: string): Promise<{ revision: number; keys: number }> {
  const storage = await openStorage({ backend: 'lmdb', dataDir });
  try {
    const snapshot = await takeSnapshot(storage);
    writeFileSync(file, encodeSnapshot(snapshot), { mode: 0o600 });
    return { revision: snapshot.revision, keys: snapshot.entries.size };
  } finally {
    await storage.close();
  }
}

export async function restoreSnapshotFile(dataDir: string, file: string): Promise<RestoreResult> {
  const snapshot = decodeSnapshot(readFileSync(file));
  const storage = await openStorage({ backend: 'lmdb', dataDir });
  try {
    return await restoreSnapshot(storage, snapshot);
  } finally {
    await storage.close();
  }
}
