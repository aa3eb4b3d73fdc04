// The garbage collector's workers (Kubernetes' GarbageCollector): attemptToDelete decides, with a
// live GET of the object and of each owner, whether a dependent goes (Background, or the policy its
// own finalizers ask for), keeps it, or drops dangling references; it also finishes foreground
// deletions. attemptToOrphan strips an owner's references from its dependents and then the
// `orphan` finalizer from the owner.
import { isGroupDiscoveryFailed } from '../../client/discovery.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import { isNoMatchError, type DeferredDiscoveryRESTMapper, type RESTMapping } from '../../client/rest-mapper.js';
import type { Clientset, DeleteOptions, KubeObject, ResourceClient } from '../../client/types.js';
import { ownerRefsOf, type OwnerReference } from '../common/controller-ref.js';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, finalizersOf, hasFinalizer, isBeingDeleted, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import { identityKey, type GraphBuilder, type GraphNode, type Identity } from './graph.js';

/** The kind is not in discovery (yet) (Kubernetes' restMappingError: retried after the next discovery). */
export class RestMappingError extends Error {}
/** attemptToDeleteItem handed a verified absence to the graph: nothing to retry. */
export const enqueuedVirtualDelete = new Error('enqueued virtual delete event');
/** A cluster-scoped object naming a namespaced owner: never resolves, not retried. */
export const namespacedOwnerOfClusterScoped = new Error('cluster-scoped object references a namespaced owner');

export interface CollectorLog {
  (fields: Record<string, unknown>): void;
}

export class Collector {
  constructor(
    private readonly clientset: Clientset,
    private readonly mapper: DeferredDiscoveryRESTMapper,
    private readonly graph: GraphBuilder,
    private readonly enqueueDelete: (uid: string) => void,
    private readonly log: CollectorLog,
  ) {}

  /** Where an apiVersion/kind is served, from discovery; a RestMappingError when it is not (yet). */
  async mappingOf(apiVersion: string, kind: string): Promise<RESTMapping> {
    try {
      return await this.mapper.mappingFor(apiVersion, kind);
    } catch (e) {
      if (isNoMatchError(e) || isGroupDiscoveryFailed(e)) throw new RestMappingError(`unable to get REST mapping for ${apiVersion}/${kind}: ${e.message}`);
      throw e;
    }
  }

  private async client(id: Pick<Identity, 'apiVersion' | 'kind'>): Promise<{ client: ResourceClient; namespaced: boolean }> {
    const m = await this.mappingOf(id.apiVersion, id.kind);
    return { client: this.clientset.resource({ ...m.resource, namespaced: m.namespaced, kind: m.kind }), namespaced: m.namespaced };
  }

  async getObject(id: Identity): Promise<KubeObject> {
    const { client, namespaced } = await this.client(id);
    // a namespaced type without a namespace: only a cluster-scoped dependent names an owner so
    if (namespaced && id.namespace === '') throw namespacedOwnerOfClusterScoped;
    return client.get(namespaced ? id.namespace : '', id.name);
  }

  async deleteObject(id: Identity, policy: NonNullable<DeleteOptions['propagationPolicy']>): Promise<void> {
    const { client, namespaced } = await this.client(id);
    this.log({ msg: 'deleting object', object: id, propagationPolicy: policy });
    await client.delete(namespaced ? id.namespace : '', id.name, { propagationPolicy: policy, preconditions: { uid: id.uid } });
  }

  /** A strategic merge patch, falling back to a JSON merge patch built from a fresh GET where the server refuses it. */
  private async patch(id: Identity, smp: KubeObject, mergeFn: (latest: KubeObject) => KubeObject): Promise<void> {
    const { client, namespaced } = await this.client(id);
    const ns = namespaced ? id.namespace : '';
    try {
      await client.patch(ns, id.name, 'strategic', smp);
      return;
    } catch (e) {
      if (!(typeof e === 'object' && e !== null && ((e as { code?: number }).code === 415 || (e as { reason?: string }).reason === 'UnsupportedMediaType'))) throw e;
    }
    for (let attempt = 0; ; attempt++) {
      const latest = await client.get(ns, id.name);
      try {
        await client.patch(ns, id.name, 'merge', mergeFn(latest));
        return;
      } catch (e) {
        if (!isConflict(e) || attempt >= 4) throw e;
      }
    }
  }

  /** Removes the references to `ownerUids` from `id`'s ownerReferences. */
  async deleteOwnerRefs(id: Identity, ownerUids: string[]): Promise<void> {
    const smp = { metadata: { ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })), uid: id.uid } };
    await this.patch(id, smp, (latest) => ({
      metadata: { resourceVersion: resourceVersionOf(latest), ownerReferences: ownerRefsOf(latest).filter((r) => !ownerUids.includes(r.uid)) },
    }));
  }

  /** Sets blockOwnerDeletion false on every blocking reference of the node (breaks foreground cycles). */
  async unblockOwnerReferences(node: GraphNode): Promise<void> {
    const blocking = node.owners.filter((r) => r.blockOwnerDeletion === true).map((r) => ({ ...r, blockOwnerDeletion: false }));
    const smp = { metadata: { ownerReferences: blocking, uid: node.identity.uid } };
    await this.patch(node.identity, smp, (latest) => ({
      metadata: {
        resourceVersion: resourceVersionOf(latest),
        ownerReferences: ownerRefsOf(latest).map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r)),
      },
    }));
  }

  /** Removes one finalizer from the object (GET, then a merge patch with its resourceVersion; retried on conflict). */
  async removeFinalizer(id: Identity, finalizer: string): Promise<void> {
    const { client, namespaced } = await this.client(id);
    const ns = namespaced ? id.namespace : '';
    for (let attempt = 0; ; attempt++) {
      let obj: KubeObject;
      try {
        obj = await client.get(ns, id.name);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      if (uidOf(obj) !== id.uid) return;
      const finalizers = finalizersOf(obj);
      if (!finalizers.includes(finalizer)) return;
      const rest = finalizers.filter((f) => f !== finalizer);
      try {
        this.log({ msg: 'removing finalizer', finalizer, object: id });
        await client.patch(ns, id.name, 'merge', { metadata: { resourceVersion: resourceVersionOf(obj), finalizers: rest.length ? rest : null } });
        return;
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isConflict(e)) throw e;
        if (attempt >= 4) throw new Error(`updateMaxRetries(5) has reached. The garbage collector will retry later for owner ${JSON.stringify(id)}`);
      }
    }
  }

  /**
   * Whether the owner named by `ref` is gone (absent, or another object under its name), with the
   * owner when it exists. A live GET settles it, as Kubernetes does.
   */
  async isDangling(ref: OwnerReference, item: GraphNode): Promise<{ dangling: boolean; owner?: KubeObject }> {
    const clusterKey = identityKey({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: '' });
    if (this.graph.absentOwnerCache.has(clusterKey)) return { dangling: true };
    const nsKey = identityKey({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: item.identity.namespace });
    if (this.graph.absentOwnerCache.has(nsKey)) return { dangling: true };
    const { client, namespaced } = await this.client(ref);
    if (item.identity.namespace === '' && namespaced) throw namespacedOwnerOfClusterScoped;
    let owner: KubeObject;
    try {
      owner = await client.get(namespaced ? item.identity.namespace : '', ref.name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      this.graph.absentOwnerCache.add(namespaced ? nsKey : clusterKey);
      return { dangling: true };
    }
    if (uidOf(owner) !== ref.uid) {
      this.graph.absentOwnerCache.add(namespaced ? nsKey : clusterKey);
      return { dangling: true };
    }
    return { dangling: false, owner };
  }

  async classifyReferences(item: GraphNode, refs: OwnerReference[]): Promise<{ solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] }> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const r = await this.isDangling(ref, item);
      if (r.dangling) dangling.push(ref);
      else if (isBeingDeleted(r.owner!) && hasFinalizer(r.owner!, FINALIZER_FOREGROUND)) waiting.push(ref);
      else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  /** Kubernetes' attemptToDeleteItem. Throws enqueuedVirtualDelete when the object turned out absent. */
  async attemptToDeleteItem(item: GraphNode): Promise<void> {
    // "being deleted" is a one-way trip: wait for the final deletion, then process the dependents
    if (item.beingDeleted && !item.deletingDependents) return;
    let latest: KubeObject;
    try {
      latest = await this.getObject(item.identity);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      this.graph.virtualDelete(item.identity);
      throw enqueuedVirtualDelete;
    }
    if (uidOf(latest) !== item.identity.uid) {
      this.graph.virtualDelete(item.identity);
      throw enqueuedVirtualDelete;
    }
    if (item.deletingDependents) return this.processDeletingDependents(item);

    const refs = ownerRefsOf(latest);
    if (refs.length === 0) return;
    const { solid, dangling, waiting } = await this.classifyReferences(item, refs);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // the dangling references go, and so do those to owners waiting for their dependents
      // (otherwise those owners would wait forever)
      const uids = [...dangling, ...waiting].map((r) => r.uid);
      this.log({ msg: 'removing dangling owner references', object: item.identity, owners: uids });
      await this.deleteOwnerRefs(item.identity, uids);
      return;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      for (const dep of item.dependents) {
        if (dep.deletingDependents) {
          // a cycle of foreground deletions: unblock our owners so they can go
          await this.unblockOwnerReferences(item);
          break;
        }
      }
      await this.deleteObject(item.identity, 'Foreground');
      return;
    }
    // no solid owner: collect it, with the policy its own finalizers ask for
    const policy = hasFinalizer(latest, FINALIZER_ORPHAN) ? 'Orphan' : hasFinalizer(latest, FINALIZER_FOREGROUND) ? 'Foreground' : 'Background';
    await this.deleteObject(item.identity, policy);
  }

  private async processDeletingDependents(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      await this.removeFinalizer(item.identity, FINALIZER_FOREGROUND);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.enqueueDelete(dep.identity.uid);
  }

  /** Kubernetes' attemptToOrphanWorker body: strip the owner from its dependents, then the finalizer. */
  async orphan(owner: GraphNode): Promise<void> {
    const dependents = [...owner.dependents];
    const results = await Promise.allSettled(
      dependents.map(async (dep) => {
        try {
          await this.deleteOwnerRefs(dep.identity, [owner.identity.uid]);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) throw new Error(`failed to orphan dependents of owner ${JSON.stringify(owner.identity)}: ${failed.map((f) => String(f.reason)).join('; ')}`);
    await this.removeFinalizer(owner.identity, FINALIZER_ORPHAN);
  }
}
