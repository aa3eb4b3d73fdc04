// kube-apiserver's lease endpoint reconciler (--endpoint-reconciler-type=lease): every server
// keeps a key /registry/masterleases/<its advertise address> alive, and reconciles the
// `kubernetes` Service's Endpoints and EndpointSlice to the addresses whose keys are alive, so
// they list every live API server; a server that stops cleanly removes its key and itself.
//
// etcd gives those keys a TTL (15 s) through an etcd lease. kubelite's storage contract has no
// TTL (lmdb and memory have no leases), so the key's value records when it expires, and a key
// past that time counts as dead and is deleted by the next reconcile of any server.
import { StatusError } from '../../machinery/status.js';
import type { Registry } from '../../registry/registry.js';
import { isStorageError, type Storage } from '../../storage/types.js';
import { writeKubernetesEndpoints } from '../bootstrap.js';

export const MASTER_LEASES_PREFIX = '/registry/masterleases/';

interface MasterLease {
  ip: string;
  port: number;
  /** Milliseconds since the epoch after which the key is dead. */
  expiresAt: number;
}

export interface EndpointReconcilerOptions {
  /** The address this server advertises (--advertise-address). */
  ip: string;
  port: number;
  /** How long a key lives unrenewed (kube-apiserver: 15 s). */
  leaseTtlMs?: number;
  /** How often the key is renewed and the endpoints reconciled (kube-apiserver: 10 s). */
  intervalMs?: number;
  now?: () => number;
  log?: (fields: Record<string, unknown>) => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class LeaseEndpointReconciler {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: Registry,
    private readonly storage: Storage,
    private readonly opts: EndpointReconcilerOptions,
  ) {
    this.ttlMs = opts.leaseTtlMs ?? 15_000;
    this.now = opts.now ?? Date.now;
  }

  private get key(): string {
    return `${MASTER_LEASES_PREFIX}${this.opts.ip}`;
  }

  /** Reconciles once (the server is ready after it), then on every interval. */
  async start(): Promise<void> {
    await this.reconcile();
    const tick = () => {
      if (this.stopped) return;
      this.running = this.reconcile()
        .catch((err: unknown) => this.opts.log?.({ msg: 'kubernetes service endpoint reconcile', error: (err as Error).message }))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.opts.intervalMs ?? 10_000).unref();
        });
    };
    this.timer = setTimeout(tick, this.opts.intervalMs ?? 10_000).unref();
  }

  /** Stops renewing, removes this server's key and reconciles the endpoints without it (a clean shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    try {
      await this.storage.delete(this.key);
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
    }
    await this.writeEndpoints(await this.liveAddresses());
  }

  /** Renews this server's key, then writes the live set into the endpoints. */
  async reconcile(): Promise<void> {
    const value = encoder.encode(JSON.stringify({ ip: this.opts.ip, port: this.opts.port, expiresAt: this.now() + this.ttlMs } satisfies MasterLease));
    try {
      await this.storage.update(this.key, value);
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
      try {
        await this.storage.create(this.key, value);
      } catch (createErr) {
        if (!isStorageError(createErr, 'AlreadyExists')) throw createErr;
        await this.storage.update(this.key, value);
      }
    }
    const live = await this.liveAddresses();
    // Our own key was just written: listed even when a read lags behind the write.
    if (!live.includes(this.opts.ip)) live.push(this.opts.ip);
    await this.writeEndpoints(live);
  }

  /** Addresses of the keys not expired; expired keys are deleted (if unchanged since read). */
  async liveAddresses(): Promise<string[]> {
    const now = this.now();
    const live: string[] = [];
    for (const kv of (await this.storage.list(MASTER_LEASES_PREFIX)).items) {
      let lease: MasterLease | undefined;
      try {
        lease = JSON.parse(decoder.decode(kv.value)) as MasterLease;
      } catch {
        lease = undefined;
      }
      if (lease && typeof lease.ip === 'string' && lease.expiresAt >= now) {
        live.push(lease.ip);
        continue;
      }
      try {
        await this.storage.delete(kv.key, { expectModRevision: kv.modRevision });
      } catch (err) {
        if (!isStorageError(err, 'NotFound') && !isStorageError(err, 'Conflict')) throw err;
      }
    }
    return live;
  }

  private async writeEndpoints(ips: string[]): Promise<void> {
    try {
      await writeKubernetesEndpoints(this.registry, ips, this.opts.port);
    } catch (err) {
      // another server wrote them at the same time: the next reconcile sees its result
      if (!(err instanceof StatusError && (err.code === 409 || err.reason === 'AlreadyExists'))) throw err;
    }
  }
}
