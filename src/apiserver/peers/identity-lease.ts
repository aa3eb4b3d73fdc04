// kube-apiserver's identity lease: each server keeps a Lease in kube-system named after its
// identity (identity.ts), labelled apiserver.kubernetes.io/identity=kube-apiserver, renewed every
// 10 s with a duration of an hour (the start-apiserver-identity-lease-controller hook), and every
// server collects the Leases of servers that stopped renewing them (the
// start-apiserver-identity-lease-garbage-collector hook, apiserverleasegc: a Lease whose
// renewTime + leaseDurationSeconds has passed is deleted, once more checked just before).
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../api/schema/kind.js';
import { formatRfc3339Micro } from '../../machinery/codec/time.js';
import { StatusError } from '../../machinery/status.js';
import type { Registry } from '../../registry/registry.js';
import type { Store } from '../../registry/store.js';

export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
export const IDENTITY_LABEL_VALUE = 'kube-apiserver';
const NAMESPACE = 'kube-system';

export interface IdentityLeaseOptions {
  /** The Lease's name (apiserverIdentity()). */
  id: string;
  /** The kubernetes.io/hostname label. */
  hostname: string;
  /** --identity-lease-duration-seconds (3600). */
  leaseDurationSeconds?: number;
  /** --identity-lease-renew-interval-seconds (10 s). */
  renewIntervalMs?: number;
  /** How often expired Leases are collected (kube-apiserver: every hour, the lease duration). */
  gcPeriodMs?: number;
  now?: () => number;
  log?: (fields: Record<string, unknown>) => void;
}

function microTime(ms: number): string {
  return formatRfc3339Micro(Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6))!;
}

/** Whether an identity Lease's holder stopped renewing it longer than its duration ago. */
export function identityLeaseExpired(lease: KubeObject, now: number): boolean {
  const spec = (lease.spec ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
  if (spec.renewTime === undefined || spec.leaseDurationSeconds === undefined) return true;
  return Date.parse(spec.renewTime) + spec.leaseDurationSeconds * 1000 < now;
}

export class IdentityLeaseController {
  readonly holderIdentity: string;
  private readonly store: Store;
  private readonly durationSeconds: number;
  private readonly now: () => number;
  private renewTimer: NodeJS.Timeout | undefined;
  private gcTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    registry: Registry,
    private readonly opts: IdentityLeaseOptions,
  ) {
    this.store = registry.store('coordination.k8s.io', 'leases')!;
    this.durationSeconds = opts.leaseDurationSeconds ?? 3600;
    this.holderIdentity = `${opts.id}_${randomUUID()}`;
    this.now = opts.now ?? Date.now;
  }

  /** Writes the Lease once, then renews it and collects expired ones on their periods. */
  async start(): Promise<void> {
    await this.renew();
    const every = (ms: number, task: () => Promise<void>, set: (t: NodeJS.Timeout) => void) => {
      const tick = () => {
        if (this.stopped) return;
        void task()
          .catch((err: unknown) => this.opts.log?.({ msg: 'apiserver identity lease', error: (err as Error).message }))
          .finally(() => {
            if (!this.stopped) set(setTimeout(tick, ms).unref());
          });
      };
      set(setTimeout(tick, ms).unref());
    };
    every(this.opts.renewIntervalMs ?? 10_000, () => this.renew(), (t) => (this.renewTimer = t));
    every(this.opts.gcPeriodMs ?? this.durationSeconds * 1000, async () => void (await this.collect()), (t) => (this.gcTimer = t));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.renewTimer);
    clearTimeout(this.gcTimer);
  }

  /** Creates the Lease, or takes it over and renews it (a restart holds it under a new holder identity). */
  async renew(): Promise<void> {
    const spec = { holderIdentity: this.holderIdentity, leaseDurationSeconds: this.durationSeconds, renewTime: microTime(this.now()) };
    try {
      await this.store.guaranteedUpdate(NAMESPACE, this.opts.id, (cur) => ({ ...cur, spec: { ...(cur.spec as object), ...spec } }));
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
      const lease: KubeObject = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.opts.id, namespace: NAMESPACE, labels: { [IDENTITY_LABEL]: IDENTITY_LABEL_VALUE, 'kubernetes.io/hostname': this.opts.hostname } },
        spec,
      };
      try {
        await this.store.create(NAMESPACE, lease);
      } catch (createErr) {
        if (!(createErr instanceof StatusError && createErr.reason === 'AlreadyExists')) throw createErr;
      }
    }
  }

  /** Deletes the identity Leases that expired (each read again first, so that a renewal in between keeps it). */
  async collect(): Promise<string[]> {
    const deleted: string[] = [];
    for (const { name } of this.store.listNames(NAMESPACE)) {
      let lease: KubeObject;
      try {
        lease = await this.store.get(NAMESPACE, name);
      } catch {
        continue;
      }
      const labels = ((lease.metadata as { labels?: Record<string, string> }).labels ?? {});
      if (labels[IDENTITY_LABEL] !== IDENTITY_LABEL_VALUE || !identityLeaseExpired(lease, this.now())) continue;
      const resourceVersion = (lease.metadata as { resourceVersion?: string }).resourceVersion;
      try {
        await this.store.delete(NAMESPACE, name, { preconditions: { resourceVersion } });
        deleted.push(name);
        this.opts.log?.({ msg: 'deleted expired apiserver identity lease', lease: name });
      } catch (err) {
        // renewed (409) or collected by another server (404) meanwhile
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
    }
    return deleted;
  }
}
