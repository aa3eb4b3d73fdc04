// The garbage collector's dependency graph (Kubernetes' GraphBuilder): one node per object seen by
// the metadata informers, plus "virtual" nodes for owners referenced but not (yet) observed. Graph
// changes are applied synchronously as the informers deliver events; what needs API calls is handed
// to the attemptToDelete and attemptToOrphan queues (by uid).
import type { KubeObject } from '../../client/types.js';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, groupOfApiVersion, hasFinalizer, isBeingDeleted, metadataOf, uidOf } from '../../api/meta/object.js';
import { ownerRefsOf, type OwnerReference } from '../common/controller-ref.js';

/** An object's coordinates (Kubernetes' objectReference: an owner reference plus namespace). */
export interface Identity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  namespace: string;
}

export function identityKey(id: Identity): string {
  return `${id.uid}|${id.namespace}|${groupOfApiVersion(id.apiVersion)}|${id.kind}|${id.name}`;
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.namespace === b.namespace && a.apiVersion === b.apiVersion;
}

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[] = [];
  /** Seen through an informer (false: virtual, known only as someone's owner). */
  observed = false;
  beingDeleted = false;
  deletingDependents = false;

  constructor(public identity: Identity) {}

  clone(): GraphNode {
    const n = new GraphNode({ ...this.identity });
    for (const d of this.dependents) n.dependents.add(d);
    n.owners = this.owners;
    n.observed = this.observed;
    n.beingDeleted = this.beingDeleted;
    n.deletingDependents = this.deletingDependents;
    return n;
  }

  /** Dependents whose reference to this node has blockOwnerDeletion. */
  blockingDependents(): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dep of this.dependents) {
      if (dep.owners.some((r) => r.uid === this.identity.uid && r.blockOwnerDeletion === true)) out.push(dep);
    }
    return out;
  }
}

/** A small LRU set (Kubernetes' absentOwnerCache, 500 entries). */
export class LruSet {
  private readonly items = new Map<string, true>();
  constructor(private readonly max = 500) {}
  add(key: string): void {
    this.items.delete(key);
    this.items.set(key, true);
    if (this.items.size > this.max) this.items.delete(this.items.keys().next().value as string);
  }
  delete(key: string): void {
    this.items.delete(key);
  }
  has(key: string): boolean {
    if (!this.items.has(key)) return false;
    this.add(key);
    return true;
  }
}

export interface GraphQueues {
  attemptToDelete(uid: string, rateLimited?: boolean): void;
  attemptToOrphan(uid: string): void;
  /** A dependent names an owner that lives in another namespace (Kubernetes' OwnerRefInvalidNamespace event). */
  invalidNamespaceOwnerRef?(dependent: Identity, owner: OwnerReference): void;
}

/** Whether the owner reference names `id` (uid, name, kind, API group; Kubernetes ignores the version). */
export function refMatches(ref: OwnerReference, id: Identity): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && groupOfApiVersion(ref.apiVersion) === groupOfApiVersion(id.apiVersion);
}

/** Splits dependents into those whose reference to the owner matches `owner`'s coordinates and the rest. */
export function partitionDependents(dependents: Iterable<GraphNode>, owner: Identity): [GraphNode[], GraphNode[]] {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  const ownerNamespaced = owner.namespace !== '';
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (ownerNamespaced && owner.namespace !== dep.identity.namespace) mismatch = true;
    else {
      for (const r of dep.owners) {
        if (r.uid !== owner.uid) continue;
        if (refMatches(r, owner)) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return [matching, nonmatching];
}

function deletionStartsWithFinalizer(oldObj: KubeObject | undefined, obj: KubeObject, finalizer: string): boolean {
  if (!isBeingDeleted(obj) || !hasFinalizer(obj, finalizer)) return false;
  if (!oldObj) return true;
  return !isBeingDeleted(oldObj) || !hasFinalizer(oldObj, finalizer);
}

function refsDiff(oldRefs: OwnerReference[], newRefs: OwnerReference[]): { added: OwnerReference[]; removed: OwnerReference[]; changed: [OwnerReference, OwnerReference][] } {
  const oldByUid = new Map(oldRefs.map((r) => [r.uid, r]));
  const newByUid = new Map(newRefs.map((r) => [r.uid, r]));
  const added = newRefs.filter((r) => !oldByUid.has(r.uid));
  const removed = oldRefs.filter((r) => !newByUid.has(r.uid));
  const changed: [OwnerReference, OwnerReference][] = [];
  for (const r of newRefs) {
    const o = oldByUid.get(r.uid);
    if (o && JSON.stringify(o) !== JSON.stringify(r)) changed.push([o, r]);
  }
  return { added, removed, changed };
}

export class GraphBuilder {
  readonly uidToNode = new Map<string, GraphNode>();
  readonly absentOwnerCache = new LruSet(500);

  constructor(private readonly queues: GraphQueues) {}

  /**
   * Applies one informer event. `apiVersion`/`kind` are those of the informer's resource (the
   * metadata informers' objects carry no reliable type).
   */
  observe(type: 'add' | 'update' | 'delete', apiVersion: string, kind: string, obj: KubeObject, oldObj?: KubeObject): void {
    const m = metadataOf(obj);
    const identity: Identity = {
      apiVersion,
      kind,
      name: typeof m.name === 'string' ? m.name : '',
      uid: uidOf(obj),
      namespace: typeof m.namespace === 'string' ? m.namespace : '',
    };
    if (identity.uid === '') return;
    // An object seen alive is not absent, whatever was verified of its uid before: a snapshot
    // restore brings objects back under their old uids, and dependents naming them must stay.
    if (type !== 'delete') {
      this.absentOwnerCache.delete(identityKey(identity));
      this.absentOwnerCache.delete(identityKey({ ...identity, namespace: '' }));
    }
    let existing = this.uidToNode.get(identity.uid);
    if (existing && !existing.observed && type !== 'delete') {
      // a virtual node is now observed: its coordinates come from the object itself
      if (!sameIdentity(identity, existing.identity)) {
        const [, invalid] = partitionDependents(existing.dependents, identity);
        for (const dep of invalid) {
          if (identity.namespace !== '' && dep.identity.namespace !== identity.namespace) this.reportInvalidNamespace(dep, identity.uid);
          this.queues.attemptToDelete(dep.identity.uid);
        }
        existing = existing.clone();
        existing.identity = identity;
        this.uidToNode.set(identity.uid, existing);
      }
      existing.observed = true;
    }
    if (type !== 'delete' && !existing) {
      const node = new GraphNode(identity);
      node.observed = true;
      node.owners = ownerRefsOf(obj);
      node.beingDeleted = isBeingDeleted(obj);
      node.deletingDependents = node.beingDeleted && hasFinalizer(obj, FINALIZER_FOREGROUND);
      this.uidToNode.set(identity.uid, node);
      this.addDependentToOwners(node, node.owners);
      this.processTransitions(oldObj, obj, node);
      return;
    }
    if (type !== 'delete' && existing) {
      const { added, removed, changed } = refsDiff(existing.owners, ownerRefsOf(obj));
      if (added.length || removed.length || changed.length) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = ownerRefsOf(obj);
        this.addDependentToOwners(existing, added);
        this.removeDependentFromOwners(existing, removed);
      }
      if (isBeingDeleted(obj)) existing.beingDeleted = true;
      this.processTransitions(oldObj, obj, existing);
      return;
    }
    if (type === 'delete' && existing) this.removeObserved(existing, identity);
  }

  /** A delete the collector verified with a live GET (Kubernetes' virtual delete event). */
  virtualDelete(deleted: Identity): void {
    const existing = this.uidToNode.get(deleted.uid);
    if (!existing) return;
    if (!existing.observed) {
      const [matching, nonmatching] = partitionDependents(existing.dependents, deleted);
      if (nonmatching.length > 0) {
        // dependents disagree on the owner's coordinates: keep the virtual node under another identity
        if (matching.length > 0) {
          this.absentOwnerCache.add(identityKey(deleted));
          for (const dep of matching) this.queues.attemptToDelete(dep.identity.uid);
        }
        if (sameIdentity(existing.identity, deleted)) {
          const alt = alternateIdentity(nonmatching, deleted);
          if (alt) {
            const replacement = existing.clone();
            replacement.identity = alt;
            this.uidToNode.set(alt.uid, replacement);
            this.queues.attemptToDelete(alt.uid, true);
          }
        }
        return;
      }
    } else if (!sameIdentity(existing.identity, deleted)) {
      const [matching] = partitionDependents(existing.dependents, deleted);
      if (matching.length > 0) {
        this.absentOwnerCache.add(identityKey(deleted));
        for (const dep of matching) this.queues.attemptToDelete(dep.identity.uid);
      }
      return;
    }
    this.removeObserved(existing, deleted);
  }

  private removeObserved(node: GraphNode, identity: Identity): void {
    this.uidToNode.delete(node.identity.uid);
    this.removeDependentFromOwners(node, node.owners);
    if (node.dependents.size > 0) this.absentOwnerCache.add(identityKey(identity));
    for (const dep of node.dependents) this.queues.attemptToDelete(dep.identity.uid);
    for (const ref of node.owners) {
      const owner = this.uidToNode.get(ref.uid);
      if (owner && owner.deletingDependents) this.queues.attemptToDelete(owner.identity.uid);
    }
  }

  private addDependentToOwners(node: GraphNode, refs: OwnerReference[]): void {
    let potentiallyInvalid = false;
    for (const ref of refs) {
      let owner = this.uidToNode.get(ref.uid);
      if (!owner) {
        owner = new GraphNode({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: node.identity.namespace });
        owner.dependents.add(node);
        this.uidToNode.set(ref.uid, owner);
        this.queues.attemptToDelete(ref.uid);
        continue;
      }
      owner.dependents.add(node);
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== node.identity.namespace) {
        // owners live in the dependent's namespace or are cluster-scoped
        if (owner.observed) this.reportInvalidNamespace(node, ref.uid);
        potentiallyInvalid = true;
      } else if (!refMatches(ref, owner.identity)) {
        potentiallyInvalid = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== node.identity.namespace && !owner.observed) {
        potentiallyInvalid = true;
      }
    }
    // the collector verifies such references with live reads
    if (potentiallyInvalid) this.queues.attemptToDelete(node.identity.uid);
  }

  private reportInvalidNamespace(dep: GraphNode, ownerUid: string): void {
    const ref = dep.owners.find((r) => r.uid === ownerUid);
    if (ref) this.queues.invalidNamespaceOwnerRef?.(dep.identity, ref);
  }

  private removeDependentFromOwners(node: GraphNode, refs: OwnerReference[]): void {
    for (const ref of refs) this.uidToNode.get(ref.uid)?.dependents.delete(node);
  }

  private addUnblockedOwnersToDeleteQueue(removed: OwnerReference[], changed: [OwnerReference, OwnerReference][]): void {
    const consider = (uid: string): void => {
      const owner = this.uidToNode.get(uid);
      if (owner?.deletingDependents) this.queues.attemptToDelete(uid);
    };
    for (const r of removed) if (r.blockOwnerDeletion) consider(r.uid);
    for (const [o, n] of changed) if (o.blockOwnerDeletion && !n.blockOwnerDeletion) consider(n.uid);
  }

  private processTransitions(oldObj: KubeObject | undefined, obj: KubeObject, node: GraphNode): void {
    if (deletionStartsWithFinalizer(oldObj, obj, FINALIZER_ORPHAN)) {
      this.queues.attemptToOrphan(node.identity.uid);
      return;
    }
    if (deletionStartsWithFinalizer(oldObj, obj, FINALIZER_FOREGROUND)) {
      node.deletingDependents = true;
      for (const dep of node.dependents) this.queues.attemptToDelete(dep.identity.uid);
      this.queues.attemptToDelete(node.identity.uid);
    }
  }
}

function alternateIdentity(deps: GraphNode[], verifiedAbsent: Identity): Identity | undefined {
  const absentClusterScoped = verifiedAbsent.namespace === '';
  const seen = new Set<string>([JSON.stringify(verifiedAbsent)]);
  let first: Identity | undefined;
  let firstFollowing: Identity | undefined;
  for (const dep of deps) {
    for (const r of dep.owners) {
      if (r.uid !== verifiedAbsent.uid) continue;
      const id: Identity = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid, namespace: dep.identity.namespace };
      // this apiVersion/kind is known cluster-scoped from the verified absence
      if (absentClusterScoped && id.apiVersion === verifiedAbsent.apiVersion && id.kind === verifiedAbsent.kind) id.namespace = '';
      const key = JSON.stringify(id);
      if (seen.has(key)) continue;
      seen.add(key);
      first ??= id;
      if (!firstFollowing && referenceLess(verifiedAbsent, id)) firstFollowing = id;
    }
  }
  // the first alternate following the absent one, so that retries cycle through them all
  return firstFollowing ?? first;
}

/** Kubernetes' referenceLessThan: by apiVersion, kind, name, uid, namespace. */
function referenceLess(a: Identity, b: Identity): boolean {
  for (const k of ['apiVersion', 'kind', 'name', 'uid', 'namespace'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k];
  }
  return false;
}
