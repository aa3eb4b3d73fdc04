// The API server's snapshot endpoints (kubelite's own, under /kubelite/snapshots; non-resource
// paths, so only a user RBAC lets post/get/delete there — system:masters — may use them): take a
// snapshot of the whole store, restore it, download it, upload one (a file `kubelite snapshot
// save` wrote), forget it. Snapshots are kept in memory, the 32 newest. What a snapshot and a
// restore are: storage/snapshot.ts.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../machinery/status.js';
import { decodeSnapshot, encodeSnapshot, restoreSnapshot, SnapshotFormatError, takeSnapshot, type Snapshot } from '../storage/snapshot.js';
import type { Storage } from '../storage/types.js';
import { readBody } from './http/body.js';
import { writeBytes } from './http/respond.js';

const MAX_KEPT = 32;
/** An uploaded snapshot may be this large (a store of a few thousand objects is a few MiB). */
const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
export const SNAPSHOTS_PATH = '/kubelite/snapshots';

export class SnapshotEndpoints {
  private readonly kept = new Map<string, Snapshot>();

  constructor(
    private readonly storage: Storage,
    /** Resolves once the API server's caches have seen `revision` (reads after a restore see it). */
    private readonly caughtUp: (revision: number) => Promise<void>,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<void> {
    const rest = path.slice(SNAPSHOTS_PATH.length).split('/').filter((p) => p !== '');
    if (rest.length === 0 && method === 'POST') {
      const uploaded = (req.headers['content-type'] ?? '').startsWith('application/octet-stream');
      let snapshot: Snapshot;
      if (uploaded) {
        try {
          snapshot = decodeSnapshot(await readBody(req, MAX_UPLOAD_BYTES));
        } catch (e) {
          if (e instanceof SnapshotFormatError) throw StatusError.badRequest(`not a snapshot: ${e.message}`);
          throw e;
        }
      } else {
        req.resume();
        snapshot = await takeSnapshot(this.storage);
      }
      const name = `snapshot-${snapshot.revision}-${randomBytes(3).toString('hex')}`;
      this.keep(name, snapshot);
      return json(res, 201, { kind: 'Snapshot', apiVersion: 'kubelite.dev/v1alpha1', metadata: { name }, revision: snapshot.revision, keys: snapshot.entries.size });
    }
    req.resume();
    if (rest.length === 0 && method === 'GET') {
      return json(res, 200, { kind: 'SnapshotList', apiVersion: 'kubelite.dev/v1alpha1', items: [...this.kept].map(([name, s]) => ({ metadata: { name }, revision: s.revision, keys: s.entries.size })) });
    }
    const name = rest[0] ?? '';
    const snapshot = this.kept.get(name);
    if (!snapshot) throw new StatusError(404, 'NotFound', `snapshot ${JSON.stringify(name)} not found`);
    if (rest.length === 2 && rest[1] === 'restore' && method === 'POST') {
      const result = await restoreSnapshot(this.storage, snapshot);
      await this.caughtUp(result.revision);
      return json(res, 200, { kind: 'SnapshotRestore', apiVersion: 'kubelite.dev/v1alpha1', metadata: { name }, ...result });
    }
    if (rest.length === 1 && method === 'GET') return writeBytes(res, 200, 'application/octet-stream', encodeSnapshot(snapshot));
    if (rest.length === 1 && method === 'DELETE') {
      this.kept.delete(name);
      return json(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, kind: 'snapshots' } });
    }
    throw new StatusError(405, 'MethodNotAllowed', `${method} is not supported on ${path}`);
  }

  private keep(name: string, snapshot: Snapshot): void {
    this.kept.set(name, snapshot);
    while (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }
}

function json(res: ServerResponse, code: number, body: unknown): void {
  writeBytes(res, code, 'application/json', `${JSON.stringify(body)}\n`);
}
