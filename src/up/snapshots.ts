// A running cluster's snapshots through its API server (/kubelite/snapshots, apiserver/snapshots.ts),
// as the admin: Cluster.snapshot() and Cluster.restore(handle).
import { request } from 'node:https';

export interface SnapshotHandle {
  /** The API server's name for it. */
  name: string;
  /** The revision it was taken at. */
  revision: number;
  /** How many objects it holds. */
  keys: number;
}

export interface RestoreSummary {
  created: number;
  updated: number;
  deleted: number;
  /** The store's revision after the restore (every resourceVersion written by it is newer than the snapshot's). */
  revision: number;
}

export interface AdminCredentials {
  server: string;
  ca: string;
  cert: string;
  key: string;
}

function call<T>(c: AdminCredentials, method: string, path: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request(`${c.server}${path}`, { method, ca: c.ca, cert: c.cert, key: c.key, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) >= 300) {
          let message = text;
          try {
            message = (JSON.parse(text) as { message?: string }).message ?? text;
          } catch {
            /* not a Status */
          }
          return reject(new Error(`${method} ${path}: ${res.statusCode}: ${message}`));
        }
        resolve(JSON.parse(text) as T);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function takeClusterSnapshot(c: AdminCredentials): Promise<SnapshotHandle> {
  const s = await call<{ metadata: { name: string }; revision: number; keys: number }>(c, 'POST', '/kubelite/snapshots');
  return { name: s.metadata.name, revision: s.revision, keys: s.keys };
}

export async function restoreClusterSnapshot(c: AdminCredentials, handle: SnapshotHandle): Promise<RestoreSummary> {
  const r = await call<RestoreSummary>(c, 'POST', `/kubelite/snapshots/${encodeURIComponent(handle.name)}/restore`);
  return { created: r.created, updated: r.updated, deleted: r.deleted, revision: r.revision };
}
