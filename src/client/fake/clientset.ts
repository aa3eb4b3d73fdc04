// FakeClientset: an in-memory Clientset for controller unit tests (client-go's fake clientset +
// object tracker). Every call is recorded in `actions` for table-driven assertions; reactors can
// intercept a verb/resource to inject errors or answers.
//
// Semantics (kept close to the API server's, simplified where tests do not need more):
// - Objects are kept per group + resource (all versions of a resource share one store; no
//   conversion: an object reads back as it was written, with apiVersion/kind of the client's ref).
// - One global resourceVersion counter; create sets uid, creationTimestamp, generation 1,
//   resourceVersion; generateName appends 5 random characters.
// - update/patch with a stale metadata.resourceVersion → 409 Conflict; a missing object → 404.
//   For kinds with a status subresource, an update of the main resource keeps the stored status
//   and bumps metadata.generation when spec changes; subresource 'status' changes only status;
//   'scale' reads/writes spec.replicas as an autoscaling/v1 Scale.
// - delete removes the object at once (no graceful deletion of pods, no garbage collection, no
//   propagation), except an object with finalizers: it gets a deletionTimestamp and stays until an
//   update/patch empties its finalizers.
// - watch delivers the tracker's events from the moment it is opened (resourceVersion is ignored;
//   sendInitialEvents adds ADDED events of the current objects first).
import { randomUUID } from 'node:crypto';
import { allKinds, findKind, findResource } from '../../api/kinds.js';
import { applyPatch } from '../../machinery/patch/index.js';
import { compileLabelSelector, labelSelectorAsSelector, parseFieldSelector } from '../../machinery/selectors/index.js';
import { labelsOf, metadataOf, nameOf } from '../../api/meta/object.js';
import { keyOf } from '../cache.js';
import { ClientStatusError, alreadyExists, conflict, notFound } from '../errors.js';
import type {
  Clientset,
  DeleteOptions,
  KubeObject,
  ListOptions,
  ObjectList,
  PatchType,
  ResourceClient,
  ResourceRef,
  Watch,
  WatchEventType,
  WatchOptions,
  WriteOptions,
} from '../types.js';
import { plainRef } from '../rest.js';
import { FakeDiscovery } from './discovery.js';
import { QueueWatch } from './watch.js';

export type FakeVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

export interface FakeAction {
  verb: FakeVerb;
  /** The plural resource name (`pods`); `ref` has group and version. */
  resource: string;
  ref: ResourceRef;
  namespace: string;
  /** The object's name (for create: the name asked for, or '' with generateName). */
  name: string;
  subresource?: string;
  /** create/update: the object sent; createSubresource: the body. */
  object?: KubeObject;
  patchType?: PatchType;
  patch?: unknown;
  options?: unknown;
}

export interface ReactorResult {
  handled: boolean;
  /** The answer (for delete: undefined means gone). */
  result?: KubeObject;
  /** Thrown to the caller when set. */
  error?: unknown;
}

/** Returns undefined (or handled: false) to fall through to the next reactor and the tracker. */
export type Reactor = (action: FakeAction) => ReactorResult | undefined | void;

export type TrackerListener = (type: WatchEventType, obj: KubeObject, old: KubeObject | undefined) => void;

const clone = <T>(v: T): T => structuredClone(v);

/**
 * The store of a resource: that of its storage kind, so that a resource served in two groups
 * (deployments in apps and extensions) holds one set of objects, as on the server.
 */
function resourceKey(ref: { group: string; resource: string }): string {
  const k = `${ref.group}/${ref.resource}`;
  let stored = storedAs.get(k);
  if (stored === undefined) {
    const kv = allKinds.find((x) => x.group === ref.group && x.resource === ref.resource);
    const hub = kv && !kv.storage && !kv.computed ? allKinds.find((s) => s.storage && s.kind === kv.kind && s.resource === kv.resource) : undefined;
    stored = hub ? `${hub.group}/${hub.resource}` : k;
    storedAs.set(k, stored);
  }
  return stored;
}
const storedAs = new Map<string, string>();

function apiVersionOfRef(ref: ResourceRef): string {
  return ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
}

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += GENERATE_CHARS[Math.floor(Math.random() * GENERATE_CHARS.length)];
  return s;
}

function fieldValue(obj: KubeObject, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? '' : String(cur);
}

/** Whether an object is among those `opts`' label and field selectors select. */
export function selectorMatcher(opts: ListOptions | undefined): (obj: KubeObject) => boolean {
  const label = opts?.labelSelector ? compileLabelSelector(opts.labelSelector) : undefined;
  const field = opts?.fieldSelector ? parseFieldSelector(opts.fieldSelector) : undefined;
  return (obj) => {
    if (label && !label(labelsOf(obj))) return false;
    if (field) {
      const fields: Record<string, string> = {};
      for (const r of field.requirements) fields[r.field] = fieldValue(obj, r.field);
      if (!field.matches(fields)) return false;
    }
    return true;
  };
}

function isNamespaced(ref: ResourceRef, namespace: string): boolean {
  const kv = findResource(ref.group, ref.version, ref.resource);
  return kv ? kv.namespaced : (ref.namespaced ?? namespace !== '');
}

function hasStatusSubresource(ref: ResourceRef): boolean {
  const kv = findResource(ref.group, ref.version, ref.resource);
  return kv?.subresources?.status === true;
}

/** The in-memory store behind a FakeClientset (client-go's ObjectTracker). */
export class ObjectTracker {
  private rv = 0;
  private readonly stores = new Map<string, Map<string, KubeObject>>();
  private readonly listeners = new Map<string, Set<TrackerListener>>();

  /** The current global resourceVersion. */
  resourceVersion(): string {
    return String(this.rv);
  }

  nextResourceVersion(): string {
    return String(++this.rv);
  }

  private store(ref: { group: string; resource: string }): Map<string, KubeObject> {
    const k = resourceKey(ref);
    let s = this.stores.get(k);
    if (!s) this.stores.set(k, (s = new Map()));
    return s;
  }

  /** Listens to every change of one resource (synchronously, in write order). Returns an unsubscribe. */
  subscribe(ref: { group: string; resource: string }, fn: TrackerListener): () => void {
    const k = resourceKey(ref);
    let set = this.listeners.get(k);
    if (!set) this.listeners.set(k, (set = new Set()));
    set.add(fn);
    return () => set!.delete(fn);
  }

  private emit(ref: { group: string; resource: string }, type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    const set = this.listeners.get(resourceKey(ref));
    if (!set) return;
    for (const fn of [...set]) fn(type, clone(obj), old === undefined ? undefined : clone(old));
  }

  get(ref: { group: string; resource: string }, namespace: string, name: string): KubeObject | undefined {
    const o = this.store(ref).get(namespace === '' ? name : `${namespace}/${name}`);
    return o === undefined ? undefined : clone(o);
  }

  list(ref: { group: string; resource: string }, namespace = ''): KubeObject[] {
    const out: KubeObject[] = [];
    for (const o of this.store(ref).values()) {
      if (namespace === '' || metadataOf(o).namespace === namespace) out.push(clone(o));
    }
    return out;
  }

  /**
   * Adds or replaces an object without recording an action (seeding a test). Its resource comes
   * from `ref` or from its apiVersion/kind; uid, resourceVersion and creationTimestamp are filled
   * in when absent. Listeners (informers, watches) see an ADDED or MODIFIED event.
   */
  add(obj: KubeObject, ref?: ResourceRef): KubeObject {
    const r = ref ?? refOfObject(obj);
    const o = clone(obj);
    const meta = (o.metadata ??= {}) as Record<string, unknown>;
    if (!meta.uid) meta.uid = randomUUID();
    if (!meta.creationTimestamp) meta.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    meta.resourceVersion = this.nextResourceVersion();
    return this.put(r, o);
  }

  /** Stores `o` as is (resourceVersion already set) and notifies listeners. */
  put(ref: { group: string; resource: string }, o: KubeObject): KubeObject {
    const key = keyOf(o);
    const s = this.store(ref);
    const old = s.get(key);
    s.set(key, o);
    this.emit(ref, old ? 'MODIFIED' : 'ADDED', o, old);
    return clone(o);
  }

  /** Removes an object (no action recorded); listeners see DELETED with a new resourceVersion. */
  remove(ref: { group: string; resource: string }, namespace: string, name: string): KubeObject | undefined {
    const key = namespace === '' ? name : `${namespace}/${name}`;
    const s = this.store(ref);
    const old = s.get(key);
    if (!old) return undefined;
    s.delete(key);
    const gone = clone(old);
    (gone.metadata as Record<string, unknown>).resourceVersion = this.nextResourceVersion();
    this.emit(ref, 'DELETED', gone, old);
    return gone;
  }
}

/** The resource an object belongs to, from its apiVersion and kind (served kinds only). */
export function refOfObject(obj: KubeObject): ResourceRef {
  const kv = findKind(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
  if (!kv) throw new Error(`fake: unknown kind ${String(obj.apiVersion)} ${String(obj.kind)}; pass a ResourceRef`);
  return { group: kv.group, version: kv.version, resource: kv.resource };
}

export interface FakeClientsetOptions {
  /** Objects to seed (apiVersion and kind name their resource). */
  objects?: KubeObject[];
}

export class FakeClientset implements Clientset {
  readonly tracker = new ObjectTracker();
  /** Every call in order (reads included), as client-go's fake records them. */
  readonly actions: FakeAction[] = [];
  private readonly reactors: { verb: string; resource: string; fn: Reactor }[] = [];
  private readonly clients = new Map<string, FakeResourceClient>();
  /** What discovery answers: the compiled kinds, plus and minus what a test changes. */
  readonly fakeDiscovery = new FakeDiscovery();

  constructor(opts: FakeClientsetOptions = {}) {
    for (const o of opts.objects ?? []) this.tracker.add(o);
  }

  resource(ref: ResourceRef): ResourceClient {
    const k = `${ref.group}/${ref.version}/${ref.resource}`;
    let c = this.clients.get(k);
    if (!c || (ref.namespaced !== undefined && c.ref.namespaced !== ref.namespaced)) this.clients.set(k, (c = new FakeResourceClient(this, plainRef(ref))));
    return c;
  }

  discovery(): FakeDiscovery {
    return this.fakeDiscovery;
  }

  /** Runs `fn` before the tracker for matching calls ('*' matches any verb or resource). Newest first. */
  prependReactor(verb: FakeVerb | '*', resource: string, fn: Reactor): void {
    this.reactors.unshift({ verb, resource, fn });
  }

  clearActions(): void {
    this.actions.length = 0;
  }

  /** Actions other than get/list/watch (what a controller wrote). */
  writes(): FakeAction[] {
    return this.actions.filter((a) => a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch');
  }

  /** `verb resource[/subresource] namespace/name`, one string per action: compact for assertions. */
  actionStrings(opts: { writesOnly?: boolean } = {}): string[] {
    const acts = opts.writesOnly ? this.writes() : this.actions;
    return acts.map((a) => {
      const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
      const name = a.name || String(metadataOf(a.object ?? {}).generateName ?? '');
      return `${a.verb} ${res} ${a.namespace ? `${a.namespace}/` : ''}${name}`;
    });
  }

  /** @internal records the action and runs reactors; returns the reactor's answer if one handled it. */
  invoke(action: FakeAction): ReactorResult | undefined {
    this.actions.push(action);
    for (const r of this.reactors) {
      if ((r.verb === '*' || r.verb === action.verb) && (r.resource === '*' || r.resource === action.resource)) {
        const res = r.fn(action);
        if (res && res.handled) return res;
      }
    }
    return undefined;
  }
}

class FakeResourceClient implements ResourceClient {
  constructor(
    private readonly cs: FakeClientset,
    readonly ref: ResourceRef,
  ) {}

  private get t(): ObjectTracker {
    return this.cs.tracker;
  }

  private action(a: Omit<FakeAction, 'resource' | 'ref'>): FakeAction {
    const out: FakeAction = { ...a, resource: this.ref.resource, ref: this.ref };
    if (out.object) out.object = clone(out.object);
    return out;
  }

  private react(a: FakeAction): { handled: true; value: KubeObject | undefined } | undefined {
    const r = this.cs.invoke(a);
    if (!r) return undefined;
    if (r.error !== undefined) throw r.error;
    return { handled: true, value: r.result === undefined ? undefined : clone(r.result) };
  }

  private withTypeMeta(o: KubeObject): KubeObject {
    return { apiVersion: apiVersionOfRef(this.ref), kind: findResource(this.ref.group, this.ref.version, this.ref.resource)?.kind ?? o.kind, ...o };
  }

  private ns(namespace: string): string {
    return isNamespaced(this.ref, namespace) ? namespace : '';
  }

  async get(namespace: string, name: string, opts?: { subresource?: string }): Promise<KubeObject> {
    const r = this.react(this.action({ verb: 'get', namespace, name, subresource: opts?.subresource }));
    if (r) return r.value!;
    const o = this.t.get(this.ref, this.ns(namespace), name);
    if (!o) throw notFound(this.ref.group, this.ref.resource, name);
    return opts?.subresource === 'scale' ? this.scaleOf(o) : o;
  }

  async list(namespace: string, opts?: ListOptions): Promise<ObjectList> {
    const r = this.react(this.action({ verb: 'list', namespace, name: '', options: opts }));
    if (r) return r.value as unknown as ObjectList;
    const match = selectorMatcher(opts);
    const kind = findResource(this.ref.group, this.ref.version, this.ref.resource)?.kind;
    return {
      apiVersion: apiVersionOfRef(this.ref),
      kind: kind ? `${kind}List` : 'List',
      metadata: { resourceVersion: this.t.resourceVersion() },
      items: this.t.list(this.ref, this.ns(namespace)).filter(match),
    };
  }

  async watch(namespace: string, opts?: WatchOptions): Promise<Watch> {
    const r = this.react(this.action({ verb: 'watch', namespace, name: '', options: opts }));
    if (r) return r.value as unknown as Watch;
    const match = selectorMatcher(opts);
    const ns = this.ns(namespace);
    let unsubscribe: () => void = () => {};
    const w = new QueueWatch(() => unsubscribe());
    if (opts?.sendInitialEvents) {
      for (const o of this.t.list(this.ref, ns)) if (match(o)) w.push({ type: 'ADDED', object: o });
    }
    unsubscribe = this.t.subscribe(this.ref, (type, obj) => {
      if (ns !== '' && metadataOf(obj).namespace !== ns) return;
      if (!match(obj)) return;
      w.push({ type, object: obj });
    });
    return w;
  }

  async create(namespace: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject> {
    const r = this.react(this.action({ verb: 'create', namespace, name: nameOf(obj), object: obj, options: opts }));
    if (r) return r.value!;
    const o = this.withTypeMeta(clone(obj));
    const meta = (o.metadata ??= {}) as Record<string, unknown>;
    const ns = this.ns(namespace);
    if (ns !== '') {
      if (meta.namespace && meta.namespace !== ns) throw ClientStatusError.of(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
      meta.namespace = ns;
    } else delete meta.namespace;
    if (!meta.name) {
      if (typeof meta.generateName === 'string' && meta.generateName !== '') meta.name = meta.generateName + randomSuffix();
      else throw ClientStatusError.of(422, 'Invalid', `${this.ref.resource} "" is invalid: metadata.name: Required value: name or generateName is required`);
    }
    if (this.t.get(this.ref, ns, String(meta.name))) throw alreadyExists(this.ref.group, this.ref.resource, String(meta.name));
    meta.uid = randomUUID();
    meta.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    if (o.spec !== undefined || meta.generation !== undefined) meta.generation = 1;
    delete meta.deletionTimestamp;
    if (opts?.dryRun) return o;
    meta.resourceVersion = this.t.nextResourceVersion();
    return this.t.put(this.ref, o);
  }

  async update(namespace: string, obj: KubeObject, opts?: WriteOptions & { subresource?: string }): Promise<KubeObject> {
    const name = nameOf(obj);
    const r = this.react(this.action({ verb: 'update', namespace, name, subresource: opts?.subresource, object: obj, options: opts }));
    if (r) return r.value!;
    const ns = this.ns(namespace);
    const current = this.t.get(this.ref, ns, name);
    if (!current) throw notFound(this.ref.group, this.ref.resource, name);
    const rv = metadataOf(obj).resourceVersion;
    if (typeof rv === 'string' && rv !== '' && rv !== metadataOf(current).resourceVersion) {
      throw conflict(this.ref.group, this.ref.resource, name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    return this.write(current, clone(obj), opts?.subresource, opts?.dryRun === true);
  }

  /** The common tail of update and patch: the subresource's view of the change, then store. */
  private write(current: KubeObject, incoming: KubeObject, subresource: string | undefined, dryRun: boolean): KubeObject {
    let next: KubeObject;
    if (subresource === 'scale') {
      const replicas = (incoming.spec as { replicas?: number } | undefined)?.replicas ?? 0;
      next = clone(current);
      next.spec = { ...((next.spec as object) ?? {}), replicas };
    } else if (subresource === 'status') {
      next = clone(current);
      if (incoming.status === undefined) delete next.status;
      else next.status = incoming.status;
      // As the API server's generic status strategy: labels and annotations come with the write
      // (Kubernetes' SetClaimResizer annotates a claim this way), the rest of metadata is stored.
      const meta = metadataOf(incoming);
      const kept = (next.metadata ??= {}) as Record<string, unknown>;
      for (const k of ['labels', 'annotations'] as const) {
        if (meta[k] === undefined) delete kept[k];
        else kept[k] = meta[k];
      }
    } else if (subresource === 'finalize') {
      next = clone(current);
      next.spec = { ...((next.spec as object) ?? {}), finalizers: (incoming.spec as { finalizers?: unknown } | undefined)?.finalizers };
    } else if (subresource) {
      next = incoming;
    } else {
      next = this.withTypeMeta(incoming);
      const meta = (next.metadata ??= {}) as Record<string, unknown>;
      const cur = metadataOf(current);
      meta.uid = cur.uid;
      meta.creationTimestamp = cur.creationTimestamp;
      meta.name = cur.name;
      if (cur.namespace !== undefined) meta.namespace = cur.namespace;
      if (cur.deletionTimestamp !== undefined) meta.deletionTimestamp = cur.deletionTimestamp;
      else delete meta.deletionTimestamp;
      if (hasStatusSubresource(this.ref)) {
        if (current.status === undefined) delete next.status;
        else next.status = current.status;
      }
      if (cur.generation !== undefined) {
        meta.generation = JSON.stringify(next.spec) !== JSON.stringify(current.spec) ? Number(cur.generation) + 1 : cur.generation;
      }
    }
    const meta = next.metadata as Record<string, unknown>;
    if (dryRun) return subresource === 'scale' ? this.scaleOf(next) : next;
    meta.resourceVersion = this.t.nextResourceVersion();
    const finalizers = meta.finalizers;
    if (meta.deletionTimestamp !== undefined && (!Array.isArray(finalizers) || finalizers.length === 0)) {
      this.t.put(this.ref, next);
      const gone = this.t.remove(this.ref, String(meta.namespace ?? ''), String(meta.name));
      return gone ?? next;
    }
    const stored = this.t.put(this.ref, next);
    return subresource === 'scale' ? this.scaleOf(stored) : stored;
  }

  private scaleOf(o: KubeObject): KubeObject {
    const meta = metadataOf(o);
    const spec = (o.spec ?? {}) as { replicas?: number; selector?: unknown };
    const status = (o.status ?? {}) as { replicas?: number };
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: JSON.parse(JSON.stringify({ name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp })),
      spec: { replicas: spec.replicas ?? 0 },
      // the selector of the pods, as a string (the scale subresource's)
      status: { replicas: status.replicas ?? 0, ...(spec.selector ? { selector: labelSelectorAsSelector(spec.selector as never).toString() } : {}) },
    };
  }

  async patch(namespace: string, name: string, type: PatchType, patch: unknown, opts?: WriteOptions & { subresource?: string; force?: boolean }): Promise<KubeObject> {
    const r = this.react(this.action({ verb: 'patch', namespace, name, subresource: opts?.subresource, patchType: type, patch: clone(patch), options: opts }));
    if (r) return r.value!;
    const ns = this.ns(namespace);
    const current = this.t.get(this.ref, ns, name);
    const body = typeof patch === 'string' ? JSON.parse(patch) : patch instanceof Uint8Array ? JSON.parse(Buffer.from(patch).toString('utf8')) : patch;
    if (!current) {
      if (type === 'apply') return this.create(namespace, { ...(body as KubeObject), metadata: { ...metadataOf(body as KubeObject), name } }, opts);
      throw notFound(this.ref.group, this.ref.resource, name);
    }
    const base = opts?.subresource === 'scale' ? this.scaleOf(current) : current;
    const kv = findResource(this.ref.group, this.ref.version, this.ref.resource);
    let patched: KubeObject;
    try {
      if (type === 'strategic' && kv) patched = applyPatch('strategic', base, body, kv.type) as KubeObject;
      else if (type === 'json') patched = applyPatch('json', base, body, kv?.type as never) as KubeObject;
      else patched = applyPatch('merge', base, body, kv?.type as never) as KubeObject; // merge, and apply simplified to a merge
    } catch (e) {
      if (e instanceof Error && 'code' in e) throw new ClientStatusError({ code: (e as { code: number }).code, reason: (e as { reason?: string }).reason ?? '', message: e.message });
      throw ClientStatusError.of(422, 'Invalid', e instanceof Error ? e.message : String(e));
    }
    const rv = metadataOf(body as KubeObject).resourceVersion;
    if (typeof rv === 'string' && rv !== '' && rv !== metadataOf(current).resourceVersion) {
      throw conflict(this.ref.group, this.ref.resource, name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    return this.write(current, patched, opts?.subresource, opts?.dryRun === true);
  }

  async delete(namespace: string, name: string, opts?: DeleteOptions): Promise<KubeObject | undefined> {
    const r = this.react(this.action({ verb: 'delete', namespace, name, options: opts }));
    if (r) return r.value;
    const ns = this.ns(namespace);
    const current = this.t.get(this.ref, ns, name);
    if (!current) throw notFound(this.ref.group, this.ref.resource, name);
    const meta = metadataOf(current);
    const pre = opts?.preconditions;
    if (pre?.uid && pre.uid !== meta.uid) {
      throw conflict(this.ref.group, this.ref.resource, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(meta.uid)}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
      throw conflict(this.ref.group, this.ref.resource, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${String(meta.resourceVersion)}`);
    }
    if (opts?.dryRun) return Array.isArray(meta.finalizers) && meta.finalizers.length > 0 ? current : undefined;
    if (Array.isArray(meta.finalizers) && meta.finalizers.length > 0) {
      if (meta.deletionTimestamp === undefined) {
        meta.deletionTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        meta.deletionGracePeriodSeconds = 0;
        meta.resourceVersion = this.t.nextResourceVersion();
        return this.t.put(this.ref, current);
      }
      return current;
    }
    this.t.remove(this.ref, ns, name);
    return undefined;
  }

  async createSubresource(namespace: string, name: string, subresource: string, body: KubeObject, opts?: WriteOptions): Promise<KubeObject> {
    const r = this.react(this.action({ verb: 'create', namespace, name, subresource, object: body, options: opts }));
    if (r) return r.value!;
    const ns = this.ns(namespace);
    const current = this.t.get(this.ref, ns, name);
    if (!current) throw notFound(this.ref.group, this.ref.resource, name);
    if (opts?.dryRun) return body;
    if (this.ref.resource === 'pods' && subresource === 'binding') {
      const spec = (current.spec ??= {}) as Record<string, unknown>;
      if (spec.nodeName) throw conflict('', 'pods', name, `pod ${name} is already assigned to node "${String(spec.nodeName)}"`);
      spec.nodeName = (body.target as { name?: string } | undefined)?.name;
      (current.metadata as Record<string, unknown>).resourceVersion = this.t.nextResourceVersion();
      this.t.put(this.ref, current);
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
    }
    if (this.ref.resource === 'pods' && subresource === 'eviction') {
      this.t.remove(this.ref, ns, name);
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
    }
    return body;
  }
}
