// Which Service holds a cluster IP or node port, kept in storage so that API servers sharing one
// etcd never hand out the same address. Each server picks addresses from what its watch cache
// shows in use, which lags another server's writes by a moment; a reservation key created before
// the Service is written (create fails when the key exists) settles a race between two servers,
// as kube-apiserver's allocators settle it in etcd (IPAddress objects for cluster IPs, the
// node-port bitmap updated with compare-and-swap). A reservation lives as long as its Service: it
// goes when the Service drops the address or is deleted. One left behind by a server that died
// mid-write names a uid no Service has; after RESERVATION_GRACE_MS it is taken over.
import { isStorageError, type Storage } from '../../../../storage/types.js';

export type AddressPool = 'ips' | 'nodeports';

const PREFIX = '/registry/kubelite.dev/service-allocations/';
/** Longer than a write takes (kube-apiserver's request timeout is 60 s), so an in-flight create's reservation is never taken over. */
export const RESERVATION_GRACE_MS = 90_000;

interface Reservation {
  uid: string;
  namespace: string;
  name: string;
  /** When it was made (ms since the epoch). */
  at: number;
}

export interface Owner {
  uid: string;
  namespace: string;
  name: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const keyOf = (pool: AddressPool, value: string | number) => `${PREFIX}${pool}/${String(value)}`;

function parse(value: Uint8Array): Reservation | undefined {
  try {
    const r = JSON.parse(decoder.decode(value)) as Partial<Reservation>;
    return typeof r.uid === 'string' && typeof r.at === 'number' ? (r as Reservation) : undefined;
  } catch {
    return undefined;
  }
}

export class AddressReservations {
  constructor(
    private readonly storage: Storage,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Makes `value` the owner's. False when another Service holds it (or is being created with it);
   * true when it was free, already the owner's, or left behind by a write that never finished.
   */
  async reserve(pool: AddressPool, value: string | number, owner: Owner): Promise<boolean> {
    const key = keyOf(pool, value);
    const body = encoder.encode(JSON.stringify({ ...owner, at: this.now() } satisfies Reservation));
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        await this.storage.create(key, body);
        return true;
      } catch (err) {
        if (!isStorageError(err, 'AlreadyExists')) throw err;
      }
      const kv = await this.storage.get(key);
      if (!kv) continue;
      const held = parse(kv.value);
      if (held?.uid === owner.uid) return true;
      // The caller has checked that no Service it can see holds the value: a reservation older than
      // any write is one a dead server left.
      if (held && this.now() - held.at < RESERVATION_GRACE_MS) return false;
      try {
        await this.storage.update(key, body, { expectModRevision: kv.modRevision });
        return true;
      } catch (err) {
        if (!isStorageError(err, 'Conflict') && !isStorageError(err, 'NotFound')) throw err;
      }
    }
    return false;
  }

  /** Gives `value` back when the owner still holds it; a failure leaves a reservation a later write takes over. */
  async release(pool: AddressPool, value: string | number, ownerUid: string): Promise<void> {
    const key = keyOf(pool, value);
    try {
      const kv = await this.storage.get(key);
      if (!kv || parse(kv.value)?.uid !== ownerUid) return;
      await this.storage.delete(key, { expectModRevision: kv.modRevision });
    } catch {
      // (taken over, released by another server, or storage unavailable: nothing is lost)
    }
  }
}
