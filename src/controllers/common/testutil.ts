// Helpers for the controllers' unit tests (not a test file itself).
import { randomUUID } from 'node:crypto';
import type { FakeClientset } from '../../client/fake/index.js';
import { flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { metadataOf } from '../../api/meta/object.js';

/**
 * Makes a FakeClientset delete as the API server does for the propagation policies: Orphan and
 * Foreground add their finalizer (`orphan`, `foregroundDeletion`) and a deletionTimestamp instead of
 * removing the object.
 */
export function emulateDeletePropagation(cs: FakeClientset): void {
  cs.prependReactor('delete', '*', (action) => {
    const opts = action.options as { propagationPolicy?: string; preconditions?: { uid?: string } } | undefined;
    const policy = opts?.propagationPolicy;
    if (policy !== 'Orphan' && policy !== 'Foreground') return undefined;
    const obj = cs.tracker.get(action.ref, action.namespace, action.name);
    if (!obj) return undefined;
    const meta = metadataOf(obj);
    if (opts?.preconditions?.uid && opts.preconditions.uid !== meta.uid) return undefined;
    const finalizer = policy === 'Orphan' ? 'orphan' : 'foregroundDeletion';
    const finalizers = Array.isArray(meta.finalizers) ? (meta.finalizers as string[]) : [];
    if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
    if (meta.deletionTimestamp === undefined) {
      meta.deletionTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      meta.deletionGracePeriodSeconds = 0;
    }
    meta.resourceVersion = cs.tracker.nextResourceVersion();
    return { handled: true, result: cs.tracker.put(action.ref, obj) };
  });
}

/** Polls `cond` (letting queued work and short timers run) until it holds or `timeoutMs` passes. */
export async function waitFor(cond: () => boolean, timeoutMs = 2000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await flush(3);
    await new Promise((r) => setTimeout(r, 2));
  }
}

export interface ObjOpts {
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  owners?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
  finalizers?: string[];
  deletionTimestamp?: string;
  creationTimestamp?: string;
  spec?: unknown;
  status?: unknown;
  annotations?: Record<string, string>;
}

/** A minimal object of any kind for seeding a fake clientset. */
export function obj(apiVersion: string, kind: string, name: string, o: ObjOpts = {}): KubeObject {
  const metadata: Record<string, unknown> = { name, uid: o.uid ?? randomUUID() };
  if (o.namespace !== undefined) metadata.namespace = o.namespace;
  if (o.labels) metadata.labels = o.labels;
  if (o.annotations) metadata.annotations = o.annotations;
  if (o.owners) metadata.ownerReferences = o.owners;
  if (o.finalizers) metadata.finalizers = o.finalizers;
  if (o.deletionTimestamp) metadata.deletionTimestamp = o.deletionTimestamp;
  if (o.creationTimestamp) metadata.creationTimestamp = o.creationTimestamp;
  const out: KubeObject = { apiVersion, kind, metadata };
  if (o.spec !== undefined) out.spec = o.spec;
  if (o.status !== undefined) out.status = o.status;
  return out;
}

/** An owner reference to `owner`. */
export function ownerRef(owner: KubeObject, extra: { controller?: boolean; blockOwnerDeletion?: boolean } = {}): NonNullable<ObjOpts['owners']>[number] {
  const m = metadataOf(owner);
  return { apiVersion: String(owner.apiVersion), kind: String(owner.kind), name: String(m.name), uid: String(m.uid), ...extra };
}

/**
 * Makes a FakeClientset treat namespaces as the API server does: status and finalize writes never
 * delete a Terminating namespace by themselves; emptying spec.finalizers (finalize) with no
 * metadata.finalizers left removes it.
 */
export function emulateNamespaces(cs: FakeClientset): void {
  cs.prependReactor('update', 'namespaces', (action) => {
    const current = cs.tracker.get(action.ref, '', action.name);
    if (!current || !action.object) return undefined;
    const incoming = action.object;
    const rv = metadataOf(incoming).resourceVersion;
    if (typeof rv === 'string' && rv !== '' && rv !== metadataOf(current).resourceVersion) {
      return { handled: true, error: Object.assign(new Error('conflict'), { code: 409, reason: 'Conflict', status: {} }) };
    }
    const next = structuredClone(current);
    if (action.subresource === 'status') next.status = incoming.status;
    else if (action.subresource === 'finalize') next.spec = { ...((next.spec as object) ?? {}), finalizers: (incoming.spec as { finalizers?: unknown }).finalizers };
    else return undefined;
    metadataOf(next).resourceVersion = cs.tracker.nextResourceVersion();
    const specFinalizers = (next.spec as { finalizers?: unknown[] } | undefined)?.finalizers ?? [];
    const metaFinalizers = (metadataOf(next).finalizers as unknown[] | undefined) ?? [];
    if (metadataOf(next).deletionTimestamp && specFinalizers.length === 0 && metaFinalizers.length === 0) {
      cs.tracker.put(action.ref, next);
      cs.tracker.remove(action.ref, '', action.name);
      return { handled: true, result: next };
    }
    return { handled: true, result: cs.tracker.put(action.ref, next) };
  });
}

/** Makes pod deletes graceful as the API server's: a pod on a node with a grace period gets a deletionTimestamp and stays. */
export function emulateGracefulPods(cs: FakeClientset): void {
  cs.prependReactor('delete', 'pods', (action) => {
    const pod = cs.tracker.get(action.ref, action.namespace, action.name);
    if (!pod) return undefined;
    const grace = (action.options as { gracePeriodSeconds?: number } | undefined)?.gracePeriodSeconds ?? (pod.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds ?? 30;
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (grace === 0 || !nodeName || phase === 'Succeeded' || phase === 'Failed') return undefined;
    const meta = metadataOf(pod);
    if (!meta.deletionTimestamp) {
      meta.deletionTimestamp = new Date(Date.now() + grace * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
      meta.deletionGracePeriodSeconds = grace;
      meta.resourceVersion = cs.tracker.nextResourceVersion();
      cs.tracker.put(action.ref, pod);
    }
    return { handled: true, result: pod };
  });
}
