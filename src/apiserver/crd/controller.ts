// The API server's own CRD loops (kube-apiserver's apiextensions controllers, in process): it
// follows the CustomResourceDefinitions in the watch cache and, for each, decides its names
// (naming.ts), serves its custom resources through the registry before marking it Established, and
// when it is deleted removes its custom resources (the customresourcecleanup finalizer) before
// letting it go. Every API server sharing a storage runs this, so each serves every CRD.
import type { KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import { decodeCached } from '../../registry/decode-cached.js';
import {
  conditionOf,
  CRD_GROUP,
  CRD_RESOURCE,
  CUSTOM_RESOURCE_CLEANUP_FINALIZER,
  customResourceServing,
  servingFingerprint,
  type ConversionWebhook,
  type CRDCondition,
  type CustomResourceDefinition,
} from '../../registry/custom/index.js';
import { timestamp } from '../../registry/meta.js';
import type { Registry } from '../../registry/registry.js';
import type { Store } from '../../registry/store.js';
import { followCache, type CacheFollow } from '../auth/follow-cache.js';
import { decideNames } from './naming.js';

const FIELD_MANAGER = { manager: 'kube-apiserver', apiVersion: 'apiextensions.k8s.io/v1', subresource: 'status' };
/** How often a deleting CRD looks again for custom resources that finalizers still hold. */
const CLEANUP_RETRY_MS = 1000;

type Log = (fields: Record<string, unknown>) => void;

export class CustomResourceDefinitionController {
  private readonly crds = new Map<string, CustomResourceDefinition>();
  private readonly queue = new Set<string>();
  private running = false;
  private follow: CacheFollow | undefined;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly registry: Registry,
    private readonly log: Log = () => undefined,
    /** Calls a CRD's conversion webhook (CRDs with conversion strategy Webhook). */
    private readonly conversionWebhook?: ConversionWebhook,
  ) {}

  /** Starts following CRDs; resolves once the CRDs present at start are served. */
  async start(): Promise<void> {
    const store = this.registry.store(CRD_GROUP, CRD_RESOURCE);
    if (!store) return;
    let listing: Set<string> | undefined;
    this.follow = followCache(this.registry, CRD_GROUP, CRD_RESOURCE, {
      begin: () => {
        listing = new Set();
      },
      event: (type, cached) => {
        const crd = decodeCached(cached) as unknown as CustomResourceDefinition;
        const name = cached.name;
        listing?.add(name);
        if (type === 'DELETED') this.crds.delete(name);
        else this.crds.set(name, crd);
        this.enqueue(name);
        // Names freed or taken change what the group's other CRDs may accept.
        for (const other of this.crds.values()) if (other.spec.group === crd.spec.group && other.metadata.name !== name) this.enqueue(other.metadata.name);
      },
      synced: () => {
        for (const name of [...this.crds.keys()]) if (!listing?.has(name)) this.crds.delete(name);
        for (const name of this.registry.customResources().keys()) this.enqueue(name);
        listing = undefined;
      },
    });
    await this.follow.synced;
    await this.idle();
  }

  stop(): void {
    this.stopped = true;
    this.follow?.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Resolves when no CRD waits to be synced. */
  idle(): Promise<void> {
    if (!this.running && this.queue.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private enqueue(name: string): void {
    this.queue.add(name);
    if (!this.running) void this.drain();
  }

  private later(name: string, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) this.enqueue(name);
    }, ms);
    this.timers.add(t);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.size > 0 && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        try {
          await this.sync(name);
        } catch (err) {
          // Gone meanwhile: its DELETED event is on the way and syncs it again.
          if (err instanceof StatusError && err.code === 404) continue;
          this.log({ msg: 'custom resource definition sync failed', crd: name, error: err instanceof Error ? err.message : String(err) });
          this.later(name, CLEANUP_RETRY_MS);
        }
      }
    } finally {
      this.running = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private crdStore(): Store {
    return this.registry.store(CRD_GROUP, CRD_RESOURCE)!;
  }

  private async sync(name: string): Promise<void> {
    const crd = this.crds.get(name);
    if (!crd) {
      this.registry.unserveCustom(name);
      return;
    }
    const group = [...this.crds.values()].filter((c) => c.spec.group === crd.spec.group);
    const { names, namesAccepted } = decideNames(crd, group);
    const deleting = crd.metadata.deletionTimestamp !== undefined && crd.metadata.deletionTimestamp !== null;
    const wasEstablished = conditionOf(crd, 'Established')?.status === 'True';
    const served = { ...crd, status: { ...crd.status, acceptedNames: names } };
    let established: CRDCondition;
    if (namesAccepted.status === 'True' || wasEstablished) {
      const current = this.registry.customResources().get(name);
      if (!current || current.fingerprint !== servingFingerprint(served)) {
        await this.registry.serveCustom(customResourceServing(served, deleting, this.conversionWebhook));
      }
      established = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
    } else {
      this.registry.unserveCustom(name);
      established = { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
    }
    const serving = this.registry.customResources().get(name);
    if (serving) serving.terminating = deleting;
    const conditions: CRDCondition[] = [namesAccepted, established];
    if (deleting && crd.metadata.finalizers?.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) {
      conditions.push({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
    }
    await this.writeStatus(name, names, conditions);
    if (deleting && crd.metadata.finalizers?.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) await this.cleanUp(crd);
  }

  /** Sets the accepted names and conditions (a condition's transition time moves only when its status does). */
  private async writeStatus(name: string, acceptedNames: CustomResourceDefinition['spec']['names'], conditions: CRDCondition[]): Promise<void> {
    const now = timestamp(Date.now());
    await this.crdStore().guaranteedUpdate(
      '',
      name,
      (current) => {
        const crd = current as unknown as CustomResourceDefinition;
        const status = { ...(crd.status ?? {}) } as NonNullable<CustomResourceDefinition['status']>;
        const merged = [...(status.conditions ?? [])];
        for (const c of conditions) {
          const i = merged.findIndex((x) => x.type === c.type);
          const old = i >= 0 ? merged[i] : undefined;
          const next = { ...c, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : now };
          if (i >= 0) merged[i] = next;
          else merged.push(next);
        }
        status.conditions = merged;
        status.acceptedNames = acceptedNames;
        return { ...current, status } as KubeObject;
      },
      { subresource: 'status', fieldManager: FIELD_MANAGER },
    );
  }

  /**
   * Deletes every custom resource of a deleting CRD; once none is left, stops serving them and
   * removes the finalizer (the CRD then goes). Objects that finalizers hold are looked at again.
   */
  private async cleanUp(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata.name;
    const serving = this.registry.customResources().get(name);
    if (serving) {
      const store = this.registry.storeFor(serving.storage);
      for (const item of store.listNames('')) {
        try {
          await store.delete(item.namespace, item.name, { propagationPolicy: 'Background' });
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
      if (store.listNames('').length > 0) {
        this.later(name, CLEANUP_RETRY_MS);
        return;
      }
    }
    await this.writeStatus(name, crd.status?.acceptedNames ?? crd.spec.names, [
      { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' },
    ]);
    this.registry.unserveCustom(name);
    await this.crdStore().guaranteedUpdate('', name, (current) => {
      const m = current.metadata as Record<string, unknown>;
      const finalizers = ((m.finalizers as string[] | undefined) ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER);
      const next = { ...current, metadata: { ...m, finalizers } };
      if (finalizers.length === 0) delete (next.metadata as Record<string, unknown>).finalizers;
      return next;
    });
  }
}
