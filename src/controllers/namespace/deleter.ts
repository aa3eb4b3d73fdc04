// Emptying a Terminating namespace (Kubernetes' namespacedResourcesDeleter): every namespaced
// resource discovery lists with the verbs list and delete (read afresh at each sync, so custom
// resources are covered) is listed and its objects deleted (Background propagation, so the namespace controller
// never orphans), what remains is reported in the namespace's conditions, and once nothing
// remains the `kubernetes` finalizer is removed through namespaces/<name>/finalize.
import type { Namespace, Pod } from '../../api/types.js';
import { discoveryError, preferredResources, withVerbs, type APIResourceInfo, type DiscoveryInterface } from '../../client/discovery.js';
import { discoveryOf } from '../../client/static-discovery.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { Clientset, ResourceClient } from '../../client/types.js';
import { deletionTimestampOf, finalizersOf, isBeingDeleted, metadataOf, nameOf, uidOf } from '../../api/meta/object.js';
import { NamespaceConditionUpdater, type ContentTotals } from './conditions.js';

/** Seconds to wait for objects with finalizers before looking again (Kubernetes' finalizerEstimateSeconds). */
export const FINALIZER_ESTIMATE_SECONDS = 15;
export const FINALIZER_KUBERNETES = 'kubernetes';

/** Content is still going away; look again in about `estimate` seconds. */
export class ResourcesRemainingError extends Error {
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

/** What the deleter works through: the namespaced resources (one version each) with a discovery error when the answer is partial. */
export interface Discovery {
  (): Promise<{ resources: APIResourceInfo[]; error?: Error }>;
}

/**
 * The namespaced resources of each group's preferred version that can be listed and deleted
 * (Kubernetes' ServerPreferredNamespacedResources filtered by SupportsAllVerbs{list, delete}).
 */
export function deletableNamespacedResources(discovery: DiscoveryInterface): Discovery {
  return async () => {
    const doc = await discovery.serverGroupsAndResources();
    const resources = withVerbs(preferredResources(doc), ['delete', 'list']).filter((r) => r.namespaced);
    const error = discoveryError(doc);
    return error ? { resources, error } : { resources };
  };
}

interface ResourceOutcome {
  estimate: number;
  remaining: number;
  byFinalizer: Map<string, number>;
}

function gvrString(kv: APIResourceInfo): string {
  return `${kv.group}/${kv.version}, Resource=${kv.resource}`;
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

export class NamespacedResourcesDeleter {
  private readonly nsClient: ResourceClient;
  private readonly discover: Discovery;

  constructor(
    private readonly clientset: Clientset,
    private readonly now: () => number,
    discover?: Discovery,
    private readonly finalizerToken = FINALIZER_KUBERNETES,
  ) {
    this.discover = discover ?? deletableNamespacedResources(discoveryOf(clientset));
    this.nsClient = clientset.resource({ group: '', version: 'v1', resource: 'namespaces' });
  }

  /** Empties the namespace and finalizes it; throws ResourcesRemainingError while content goes away. */
  async delete(name: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.nsClient.get('', name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!isBeingDeleted(ns)) return;
    try {
      ns = await this.retryOnConflict(ns, (n) => this.updateStatusPhase(n));
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!isBeingDeleted(ns)) return;
    if (specFinalizers(ns).length === 0) return;

    const estimate = await this.deleteAllContent(ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);

    try {
      await this.retryOnConflict(ns, (n) => this.finalize(n));
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
  }

  private async retryOnConflict(ns: Namespace, fn: (ns: Namespace) => Promise<Namespace>): Promise<Namespace> {
    let latest = ns;
    for (;;) {
      try {
        return await fn(latest);
      } catch (e) {
        if (!isConflict(e)) throw e;
        const prev = latest;
        latest = await this.nsClient.get('', nameOf(prev));
        if (uidOf(prev) !== uidOf(latest)) throw new Error('namespace uid has changed across retries');
      }
    }
  }

  private async updateStatusPhase(ns: Namespace): Promise<Namespace> {
    const status = ns.status ?? {};
    if (!isBeingDeleted(ns) || status.phase === 'Terminating') return ns;
    const next = structuredClone(ns);
    next.status = { ...status, phase: 'Terminating' };
    return this.nsClient.update('', next, { subresource: 'status' });
  }

  private async finalize(ns: Namespace): Promise<Namespace> {
    const finalizers = [...new Set(specFinalizers(ns).filter((f) => f !== this.finalizerToken))].sort();
    const body: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: structuredClone(metadataOf(ns)), spec: { ...(ns.spec ?? {}), finalizers } };
    try {
      return await this.nsClient.update('', body, { subresource: 'finalize' });
    } catch (e) {
      if (isNotFound(e)) return ns;
      throw e;
    }
  }

  /** Deletes every namespaced object; returns the estimate (seconds) before what remains is gone. */
  async deleteAllContent(ns: Namespace): Promise<number> {
    const namespace = nameOf(ns);
    const deletedAt = Date.parse(deletionTimestampOf(ns) ?? '') || this.now();
    const errs: Error[] = [];
    const updater = new NamespaceConditionUpdater(() => rfc3339(this.now()));
    let resources: APIResourceInfo[] = [];
    try {
      const d = await this.discover();
      resources = d.resources;
      if (d.error) {
        errs.push(d.error);
        updater.processDiscoverResourcesErr(d.error);
      }
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      errs.push(err);
      updater.processDiscoverResourcesErr(err);
    }
    let estimate = 0;
    const totals: ContentTotals = { byResource: new Map(), byFinalizer: new Map() };
    for (const kv of resources) {
      let out: ResourceOutcome;
      try {
        out = await this.deleteAllContentFor(kv, namespace, deletedAt);
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        errs.push(err);
        updater.processDeleteContentErr(err);
        const partial = (e as { outcome?: ResourceOutcome }).outcome;
        if (!partial) continue;
        out = partial;
      }
      estimate = Math.max(estimate, out.estimate);
      if (out.remaining > 0) {
        totals.byResource.set(`${kv.resource}.${kv.group}`, out.remaining);
        for (const [f, n] of out.byFinalizer) if (n > 0) totals.byFinalizer.set(f, (totals.byFinalizer.get(f) ?? 0) + n);
      }
    }
    updater.processContentTotals(totals);
    const status = (ns.status ??= {});
    if (updater.update(status)) {
      try {
        const updated = await this.nsClient.update('', ns, { subresource: 'status' });
        metadataOf(ns).resourceVersion = metadataOf(updated).resourceVersion;
      } catch {
        // as Kubernetes: a failed condition update is only logged; the next sync writes it again
      }
    }
    if (errs.length > 0) throw new AggregateError(errs, errs.length === 1 ? errs[0]!.message : `[${errs.map((e) => e.message).join(', ')}]`);
    return estimate;
  }

  private async deleteAllContentFor(kv: APIResourceInfo, namespace: string, deletedAt: number): Promise<ResourceOutcome> {
    const client = this.clientset.resource({ group: kv.group, version: kv.version, resource: kv.resource, namespaced: true, kind: kv.kind });
    const items = (await client.list(namespace)).items;
    let estimate = 0;
    if (kv.group === '' && kv.resource === 'pods') estimate = this.estimateGracefulTerminationForPods(items, deletedAt);
    for (const item of items) {
      if (isBeingDeleted(item)) continue;
      try {
        await client.delete(namespace, nameOf(item), { propagationPolicy: 'Background' });
      } catch (e) {
        if (isNotFound(e) || (e as { code?: number }).code === 405) continue;
        throw Object.assign(e instanceof Error ? e : new Error(String(e)), { outcome: { estimate, remaining: items.length, byFinalizer: new Map() } });
      }
    }
    // verify with a fresh list what remains (a delete's answer does not tell reliably)
    const remaining = items.length === 0 ? [] : (await client.list(namespace)).items;
    if (remaining.length === 0) return { estimate: 0, remaining: 0, byFinalizer: new Map() };
    const byFinalizer = new Map<string, number>();
    for (const o of remaining) for (const f of finalizersOf(o)) byFinalizer.set(f, (byFinalizer.get(f) ?? 0) + 1);
    if (estimate !== 0) return { estimate, remaining: remaining.length, byFinalizer };
    if (byFinalizer.size > 0) return { estimate: FINALIZER_ESTIMATE_SECONDS, remaining: remaining.length, byFinalizer };
    // nothing holds them, yet they remain (graceful deletion without an estimate, or a race)
    const err = new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(kv)}`);
    throw Object.assign(err, { outcome: { estimate, remaining: remaining.length, byFinalizer } });
  }

  /** The longest grace period of the namespace's non-terminal pods, 0 once that long has passed since the namespace's deletion. */
  private estimateGracefulTerminationForPods(pods: readonly Pod[], deletedAt: number): number {
    let estimate = 0;
    for (const p of pods) {
      const phase = p.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const grace = p.spec?.terminationGracePeriodSeconds;
      if (typeof grace === 'number' && grace > estimate) estimate = grace;
    }
    if (this.now() - deletedAt >= estimate * 1000) return 0;
    return estimate;
  }
}

export function specFinalizers(ns: Namespace): string[] {
  const f = ns.spec?.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}
