// The generic store of one resource (Kubernetes' genericregistry.Store): create, get, list,
// update (main resource and status), guaranteed updates for patches and subresources, graceful
// and finalizer-aware delete, delete-collection and watch, on storage for writes and the watch
// cache for lists and watches. Objects are in the storage version, in canonical JSON form; the
// HTTP layer converts versions and formats. Kind-specific rules come from the ResourceStrategy.
import { finalizersOf, metadataOf, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../api/meta/object.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { canonicalize } from '../machinery/codec/normalize.js';
import { kindFields, trackUpdate } from '../machinery/managedfields/index.js';
import { StatusError } from '../machinery/status.js';
import { fieldError, type FieldError } from '../machinery/validation/field-errors.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../machinery/validation/object-meta.js';
import type { ResourceCache } from '../storage/cacher/index.js';
import type { CachedObject, ObjectFilter } from '../storage/cacher/types.js';
import { isStorageError, type KeyValue, type Storage } from '../storage/types.js';
import { apiError } from './errors.js';
import { namespacePrefix, objectKey } from './keys.js';
import type { PreparedWrite, ResourceWrites } from './fast-path/index.js';
import { decodeStored, type FieldsOf } from './materialize.js';
import { cloneJson, generateName, metaOf, newUid, str, timestamp, withResourceVersion } from './meta.js';
import type { RequestUser, ResourceStrategy, StrategyContext } from './strategy.js';

/**
 * Admission of one write (Kubernetes' admission chain as the store sees it, like its
 * createValidation/updateValidation funcs): `mutate` runs before the strategy prepares and
 * validates the object (on create) or on the object with the update or patch applied (on update);
 * `validate` runs after the strategy's validation, before the write. On delete both run, with `obj`
 * undefined, as Kubernetes runs both phases on deletes. Either may throw a StatusError to refuse
 * the write.
 */
export interface AdmissionHook {
  mutate?(obj: KubeObject | undefined, old: KubeObject | undefined): Promise<void> | void;
  validate?(obj: KubeObject | undefined, old: KubeObject | undefined): Promise<void> | void;
}

/** A store's use of a pool (see KindModule.allocator): fill in, claim before the write, release after. */
export interface PoolAllocator {
  /** Fills in what a new or changed object needs from the pool; the errors of a write the pool cannot serve. */
  allocate(obj: KubeObject, old: KubeObject | undefined): FieldError[];
  /**
   * Just before the write: makes what the object newly holds its own across API servers (it may
   * replace what allocate picked); the errors of a write that cannot have what it asked for, and
   * an undo for a write that then fails.
   */
  claim(obj: KubeObject, old: KubeObject | undefined): Promise<{ errors: FieldError[]; undo: () => Promise<void> }>;
  /** After the write: gives back what `old` held and `obj` (absent: deleted) no longer does. */
  release(obj: KubeObject | undefined, old: KubeObject): Promise<void>;
}

export interface StoreOptions {
  kind: KindVersion;
  strategy: ResourceStrategy;
  storage: Storage;
  cache: ResourceCache;
  fieldsOf: FieldsOf;
  /** Addresses a new or changed object needs (Services' cluster IPs and node ports). */
  allocator?: PoolAllocator;
  /** How writes are serialized, shared with the resource's watch cache (its `materialize`). */
  writes: ResourceWrites;
  /** Retries of unconditional updates and patches that lose an optimistic-lock race. */
  maxRetries?: number;
  now?: () => number;
}

export interface WriteOptions {
  dryRun?: boolean;
  /** create: the store may modify the object passed in (the caller is done with it), saving a deep copy. */
  consumeInput?: boolean;
  /** The group/version of the request (`apps/v1`), for rules that depend on it. */
  requestGroupVersion?: string;
  /** The request's admission (absent: none, as for the API server's own writes). */
  admission?: AdmissionHook;
  /**
   * The writer, recorded in metadata.managedFields as an Update (create, update, non-apply patch).
   * Absent: managedFields stay as the object carries them (server-side apply computes its own).
   */
  fieldManager?: FieldManagerInfo;
  /** The request's user, for strategies that record it (a CertificateSigningRequest's requestor). */
  user?: RequestUser;
  /**
   * Where the strategy's warnings about the written object go (Kubernetes' WarningsOnCreate and
   * WarningsOnUpdate, sent back in `Warning` headers): deprecated fields, odd but valid values.
   */
  warnings?: string[];
}

/** Appends the warnings not already there (an update retried after a conflict warns once). */
function addWarnings(sink: string[] | undefined, warnings: readonly string[] | undefined): void {
  if (!sink || !warnings) return;
  for (const w of warnings) if (!sink.includes(w)) sink.push(w);
}

export interface FieldManagerInfo {
  manager: string;
  /** The request's group/version (`apps/v1`), which the entry records. */
  apiVersion: string;
  /** '' (main resource), 'status', 'scale': tracked as separate entries. */
  subresource?: string;
}

export interface UpdateResult {
  object: KubeObject;
  /** False when the update changed nothing (no write, same resourceVersion). */
  changed: boolean;
}

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  /** The object as it is now (still present: graceful deletion or finalizers) or as it was (gone). */
  object: KubeObject;
  /** True when the object is gone from storage. */
  deleted: boolean;
}

/** A mutation of the current object for guaranteedUpdate; return the new object (or the same to skip). */
export type TryUpdate = (current: KubeObject) => KubeObject | typeof UNCHANGED | Promise<KubeObject | typeof UNCHANGED>;

/** What a TryUpdate returns when it knows the object stays exactly as it is (a no-op server-side apply): no validation, no write. */
export const UNCHANGED: unique symbol = Symbol('unchanged');

const encoder = new TextEncoder();
const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

export class Store {
  readonly kind: KindVersion;
  readonly strategy: ResourceStrategy;
  private readonly storage: Storage;
  readonly cache: ResourceCache;
  readonly fieldsOf: FieldsOf;
  private readonly allocator: PoolAllocator | undefined;
  private readonly writes: ResourceWrites;
  private readonly maxRetries: number;
  private readonly now: () => number;
  private readonly name: { group: string; resource: string };

  constructor(opts: StoreOptions) {
    this.kind = opts.kind;
    this.strategy = opts.strategy;
    this.storage = opts.storage;
    this.cache = opts.cache;
    this.fieldsOf = opts.fieldsOf;
    this.allocator = opts.allocator;
    this.writes = opts.writes;
    this.maxRetries = opts.maxRetries ?? 16;
    this.now = opts.now ?? Date.now;
    this.name = { group: opts.kind.group, resource: opts.kind.resource };
  }

  key(namespace: string, name: string): string {
    return objectKey(this.kind, namespace, name);
  }

  prefix(namespace: string): string {
    return namespacePrefix(this.kind, namespace);
  }

  private context(requestGroupVersion?: string, user?: RequestUser): StrategyContext {
    return { kind: this.kind, now: this.now(), newUid, requestGroupVersion, user };
  }

  private encode(obj: KubeObject): Uint8Array {
    // Stored without a resourceVersion: the revision of the write is the version.
    const m = metaOf(obj);
    const { resourceVersion: _rv, ...rest } = m;
    return encoder.encode(JSON.stringify({ ...obj, metadata: rest }));
  }

  /** The stored bytes and served JSON of a write of `obj`, made once; the watch cache will pick them up. */
  private prepare(key: string, obj: KubeObject): PreparedWrite {
    const w = this.writes.prepare(key, obj);
    this.writes.expect(w);
    return w;
  }

  private canonical(obj: KubeObject): KubeObject {
    return canonicalize<KubeObject>(obj, this.kind.type);
  }


  private invalid(name: string, errors: FieldError[]): StatusError {
    return apiError.invalid(this.kind.kind, this.kind.group, name, errors);
  }

  private validateMeta(obj: KubeObject): FieldError[] {
    return validateObjectMeta(obj, { namespaced: this.kind.namespaced, nameValidator: this.strategy.nameValidator, generic: this.strategy.genericObjectMeta });
  }

  /**
   * Creates `obj` (storage version, defaults applied) in `namespace` (the request's; '' for
   * cluster-scoped kinds). Returns the stored object with its resourceVersion.
   */
  async create(namespace: string, input: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const obj = opts.consumeInput ? input : cloneJson(input);
    const m = metaOf(obj);
    if (this.kind.namespaced) {
      if (str(m.namespace) === '') m.namespace = namespace;
      else if (m.namespace !== namespace) {
        throw apiError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
    } else {
      delete m.namespace;
    }
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
    delete m.resourceVersion;
    delete m.selfLink;
    const ctx = this.context(opts.requestGroupVersion, opts.user);
    if (this.strategy.hasStatus) delete obj.status;
    if (this.strategy.tracksGeneration) m.generation = 1;
    else delete m.generation;
    // Kubernetes' FillObjectMetaSystemFields comes first: strategies may derive from the uid (a Job's selector).
    m.uid = newUid();
    m.creationTimestamp = timestamp(ctx.now);
    // Kubernetes' field manager sees the object as the client sent it (defaulted), before the strategy.
    if (opts.fieldManager) this.trackManagedFields(undefined, obj, opts.fieldManager, ctx.now, this.writes.createKeyOf(input));
    // Mutating admission comes after the field manager (what it adds is no one's: a pod's token
    // volume is not in its managedFields) and before the strategy, as in kube-apiserver's handler.
    await opts.admission?.mutate?.(obj, undefined);
    this.strategy.prepareForCreate?.(obj, ctx);
    const generated = str(m.name) === '' && str(m.generateName) !== '';
    if (generated) m.name = generateName(str(m.generateName));

    const errors = [...(this.allocator?.allocate(obj, undefined) ?? []), ...this.validateMeta(obj), ...this.strategy.validate(obj, ctx)];
    if (errors.length > 0) throw this.invalid(str(m.name), errors);
    await opts.admission?.validate?.(obj, undefined);
    addWarnings(opts.warnings, this.strategy.warnings?.(obj, undefined));

    if (opts.dryRun) return this.canonical(obj);
    const undo = await this.claimAddresses(obj, undefined);
    try {
      return await this.createStored(this.canonical(obj), generated);
    } catch (err) {
      await undo();
      throw err;
    }
  }

  /** Writes a new object, giving a generated name that collided another suffix, a few times, as Kubernetes does. */
  private async createStored(result: KubeObject, generated: boolean): Promise<KubeObject> {
    for (let attempt = 0; ; attempt++) {
      const rm = metaOf(result);
      const w = this.prepare(this.key(str(rm.namespace), str(rm.name)), result);
      try {
        const rev = await this.storage.create(w.key, w.stored);
        result.metadata = withResourceVersion(rm, String(rev));
        this.writes.committed(result, w, rev);
        return result;
      } catch (err) {
        this.writes.failed(w);
        if (!isStorageError(err, 'AlreadyExists')) throw this.storageFailure(err, str(rm.name));
        if (!generated || attempt >= 8) throw apiError.alreadyExists(this.name, str(rm.name));
        rm.name = generateName(str(rm.generateName));
        result = this.canonical(result);
      }
    }
  }

  /** A deleted object, once the pool addresses it held are given back. */
  private async released(deleted: KubeObject): Promise<KubeObject> {
    await this.allocator?.release(undefined, deleted);
    return deleted;
  }

  /** Reserves the pool addresses a write gives the object (see PoolAllocator.claim); resolves with the undo for a failed write. */
  private async claimAddresses(obj: KubeObject, old: KubeObject | undefined): Promise<() => Promise<void>> {
    if (!this.allocator) return async () => {};
    const { errors, undo } = await this.allocator.claim(obj, old);
    if (errors.length > 0) throw this.invalid(nameOf(obj), errors);
    return undo;
  }

  /** The current object from storage (a consistent read), or 404. */
  async get(namespace: string, name: string): Promise<KubeObject> {
    const kv = await this.readCurrent(namespace, name);
    return decodeStored(kv.value, kv.modRevision);
  }

  /** The object as the watch cache holds it (resourceVersion=0 reads), or 404. */
  getCached(namespace: string, name: string): CachedObject {
    const o = this.cache.get(this.key(namespace, name));
    if (!o) throw apiError.notFound(this.name, name);
    return o;
  }

  private async readCurrent(namespace: string, name: string): Promise<KeyValue> {
    let kv: KeyValue | undefined;
    try {
      kv = await this.storage.get(this.key(namespace, name));
    } catch (err) {
      throw this.storageFailure(err, name);
    }
    if (!kv) throw apiError.notFound(this.name, name);
    return kv;
  }

  /**
   * Reads the current object, applies `tryUpdate`, validates and writes it conditionally on the
   * revision it read; on a lost race re-reads and re-applies (unless `expectResourceVersion` pins
   * the version the caller saw, which then fails with 409 Conflict).
   */
  async guaranteedUpdate(
    namespace: string,
    name: string,
    tryUpdate: TryUpdate,
    opts: WriteOptions & {
      subresource?: '' | 'status';
      expectResourceVersion?: string;
      /** The strategy of a subresource that replaces part of the object (namespaces/finalize), instead of the kind's. */
      strategy?: ResourceStrategy;
    } = {},
  ): Promise<UpdateResult> {
    for (let attempt = 0; ; attempt++) {
      const kv = await this.readCurrent(namespace, name);
      const current = decodeStored(kv.value, kv.modRevision);
      if (opts.expectResourceVersion !== undefined && opts.expectResourceVersion !== String(kv.modRevision)) {
        throw apiError.modified(this.name, name);
      }
      const proposed = await tryUpdate(cloneJson(current));
      if (proposed === UNCHANGED) return { object: current, changed: false };
      if (opts.fieldManager) this.trackManagedFields(current, proposed, opts.fieldManager, this.now());
      await opts.admission?.mutate?.(proposed, current);
      const next = this.prepareUpdate(proposed, current, opts.subresource ?? '', opts.requestGroupVersion, opts.strategy);
      await opts.admission?.validate?.(next, current);
      if ((opts.subresource ?? '') === '') addWarnings(opts.warnings, (opts.strategy ?? this.strategy).warnings?.(next, current));
      // (A deletion the object's own spec holds waits too: Kubernetes' ShouldDeleteNamespaceDuringUpdate.)
      if (emptiesFinalizers(next, current) && !this.strategy.holdsDeletion?.(next)) {
        // Kubernetes' shouldDeleteDuringUpdate: the update removed the last finalizer of an object
        // whose deletion waits for nothing else, so the object is deleted (watchers see DELETED).
        if (opts.dryRun) return { object: next, changed: true };
        try {
          const res = await this.storage.delete(kv.key, { expectModRevision: kv.modRevision });
          return { object: await this.released(decodeStored(res.prev.value, res.revision)), changed: true };
        } catch (err) {
          if (isStorageError(err, 'NotFound')) throw apiError.notFound(this.name, name);
          if (!isStorageError(err, 'Conflict')) throw this.storageFailure(err, name);
          if (opts.expectResourceVersion !== undefined || attempt >= this.maxRetries) throw apiError.modified(this.name, name);
          continue;
        }
      }
      const undo = opts.dryRun || (opts.subresource ?? '') !== '' ? async () => {} : await this.claimAddresses(next, current);
      const w = this.writes.prepare(kv.key, next);
      // A no-op update writes nothing and keeps the resourceVersion, as Kubernetes does.
      if (sameBytes(w.stored, kv.value)) return { object: current, changed: false };
      if (opts.dryRun) {
        next.metadata = withResourceVersion(metaOf(next), String(kv.modRevision));
        return { object: next, changed: true };
      }
      this.writes.expect(w);
      try {
        const rev = await this.storage.update(kv.key, w.stored, { expectModRevision: kv.modRevision });
        next.metadata = withResourceVersion(metaOf(next), String(rev));
        this.writes.committed(next, w, rev);
        await this.allocator?.release(next, current);
        return { object: next, changed: true };
      } catch (err) {
        this.writes.failed(w);
        await undo();
        if (isStorageError(err, 'NotFound')) throw apiError.notFound(this.name, name);
        if (!isStorageError(err, 'Conflict')) throw this.storageFailure(err, name);
        if (opts.expectResourceVersion !== undefined || attempt >= this.maxRetries) throw apiError.modified(this.name, name);
      }
    }
  }

  /**
   * PUT of the main resource or its status: `obj` replaces the object. Its resourceVersion, when
   * set, must be the current one (optimistic lock); unset means "whatever is current".
   */
  async update(namespace: string, name: string, obj: KubeObject, opts: WriteOptions & { subresource?: '' | 'status' } = {}): Promise<UpdateResult> {
    const named = nameOf(obj);
    if (named !== '' && named !== name) {
      throw apiError.badRequest(`the name of the object (${named}) does not match the name on the URL (${name})`);
    }
    const inNamespace = namespaceOf(obj);
    if (this.kind.namespaced && inNamespace !== '' && inNamespace !== namespace) {
      throw apiError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const rv = resourceVersionOf(obj);
    try {
      return await this.guaranteedUpdate(namespace, name, () => cloneJson(obj), { ...opts, expectResourceVersion: rv === '' ? undefined : rv });
    } catch (err) {
      // Kinds that allow it are created by a PUT to a missing name (without a resourceVersion).
      if (!(err instanceof StatusError && err.code === 404 && this.strategy.allowCreateOnUpdate && rv === '' && opts.subresource !== 'status')) throw err;
      return { object: await this.create(namespace, { ...obj, metadata: { ...metadataOf(obj), name } }, opts), changed: true };
    }
  }

  /** metadata.managedFields of `next` after `writer` turned `live` (undefined: nothing, a create) into it. */
  private trackManagedFields(live: KubeObject | undefined, next: KubeObject, writer: FieldManagerInfo, now: number, contentKey?: string): void {
    const actor = { manager: writer.manager, apiVersion: writer.apiVersion, subresource: writer.subresource ?? '', now };
    trackUpdate(live, next, actor, kindFields(this.kind.type, !!this.strategy.hasStatus), contentKey);
  }

  /** Kubernetes' BeforeUpdate: system metadata kept, status or spec kept by path, generation, validation. */
  private prepareUpdate(proposed: KubeObject, old: KubeObject, subresource: '' | 'status', requestGroupVersion?: string, override?: ResourceStrategy): KubeObject {
    const ctx = this.context(requestGroupVersion);
    const strategy = override ?? this.strategy;
    let obj = proposed;
    const om = metadataOf(old);
    if (subresource === 'status') {
      // Through /status only the status (and metadata) change; the spec stays as it was.
      obj = { ...proposed };
      for (const k of Object.keys(old)) if (k !== 'status' && k !== 'metadata') obj[k] = cloneJson(old[k]);
      for (const k of Object.keys(obj)) if (!(k in old) && k !== 'status' && k !== 'metadata') delete obj[k];
      strategy.prepareForStatusUpdate?.(obj, old, ctx);
    } else {
      if (strategy.hasStatus) {
        if (old.status === undefined) delete obj.status;
        else obj.status = cloneJson(old.status);
      }
    }
    const m = metaOf(obj);
    if (this.kind.namespaced && str(m.namespace) === '') m.namespace = om.namespace;
    if (str(m.name) === '') m.name = om.name;
    if (str(m.uid) === '') m.uid = om.uid;
    m.creationTimestamp = om.creationTimestamp;
    if (om.deletionTimestamp !== undefined) m.deletionTimestamp = om.deletionTimestamp;
    else delete m.deletionTimestamp;
    if (om.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined) {
      m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
    }
    if (om.generation !== undefined) m.generation = om.generation;
    else delete m.generation;
    // Unconditional updates validate as if they named the current version (encode() drops it again).
    m.resourceVersion = om.resourceVersion;
    const allocationErrors = subresource === '' ? (this.allocator?.allocate(obj, old) ?? []) : [];
    if (subresource === '') {
      strategy.prepareForUpdate?.(obj, old, ctx);
      if (strategy.tracksGeneration && JSON.stringify(obj.spec) !== JSON.stringify(old.spec)) {
        m.generation = (typeof om.generation === 'number' ? om.generation : 0) + 1;
      }
    }
    const next = this.canonical(obj);
    const errors = [
      ...allocationErrors,
      ...validateObjectMetaUpdate(next, old, 'metadata', strategy.genericObjectMeta),
      ...(subresource === 'status'
        ? (strategy.validateStatusUpdate?.(next, old, ctx) ?? [])
        : [...this.validateMeta(next), ...strategy.validateUpdate(next, old, ctx)]),
    ];
    if (errors.length > 0) throw this.invalid(nameOf(next), errors);
    return next;
  }

  /**
   * DELETE with Kubernetes' semantics: preconditions, graceful deletion (a grace period > 0 only
   * marks the object), finalizers (the object stays with a deletionTimestamp until they are gone),
   * and the orphan / foreground finalizers of the propagation policy.
   */
  async delete(namespace: string, name: string, opts: DeleteOptions = {}): Promise<DeleteResult> {
    for (let attempt = 0; ; attempt++) {
      const kv = await this.readCurrent(namespace, name);
      const current = decodeStored(kv.value, kv.modRevision);
      const recordedUid = uidOf(current);
      if (attempt === 0) {
        await opts.admission?.mutate?.(undefined, current);
        await opts.admission?.validate?.(undefined, current);
      }
      const pre = opts.preconditions;
      if (pre?.uid !== undefined && pre.uid !== recordedUid) {
        throw new StatusError(409, 'Conflict',
          `Operation cannot be fulfilled on ${this.kind.kind} ${JSON.stringify(name)}: the UID in the precondition (${pre.uid}) does not match the UID in record (${recordedUid}). The object might have been deleted and then recreated`,
          { details: { name, group: this.kind.group, kind: this.kind.kind } });
      }
      if (pre?.resourceVersion !== undefined && pre.resourceVersion !== String(kv.modRevision)) {
        throw new StatusError(409, 'Conflict',
          `Operation cannot be fulfilled on ${this.kind.kind} ${JSON.stringify(name)}: the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${kv.modRevision}). The object might have been modified`,
          { details: { name, group: this.kind.group, kind: this.kind.kind } });
      }

      const next = cloneJson(current);
      const nm = metaOf(next);
      const finalizers = new Set(Array.isArray(nm.finalizers) ? (nm.finalizers as string[]) : []);
      const hadFinalizers = finalizers.size;
      if (opts.propagationPolicy === 'Orphan') {
        finalizers.add(ORPHAN);
        finalizers.delete(FOREGROUND);
      } else if (opts.propagationPolicy === 'Foreground') {
        finalizers.add(FOREGROUND);
        finalizers.delete(ORPHAN);
      } else if (opts.propagationPolicy === 'Background') {
        finalizers.delete(ORPHAN);
        finalizers.delete(FOREGROUND);
      }
      const finalizersChanged = finalizers.size !== hadFinalizers || [...finalizers].some((f, i) => (nm.finalizers as string[] | undefined)?.[i] !== f);
      if (finalizersChanged) {
        if (finalizers.size > 0) nm.finalizers = [...finalizers];
        else delete nm.finalizers;
      }

      const now = this.now();
      let grace = opts.gracePeriodSeconds ?? this.strategy.defaultGracePeriodSeconds?.(current) ?? 0;
      if (grace < 0) grace = 0;
      const alreadyDeleting = nm.deletionTimestamp !== undefined && nm.deletionTimestamp !== null;
      const currentGrace = typeof nm.deletionGracePeriodSeconds === 'number' ? nm.deletionGracePeriodSeconds : undefined;
      // Kinds with a graceful-delete strategy (pods) are always marked first, even with a grace
      // period of 0 (then deleted straight after): watchers see MODIFIED, then DELETED.
      const graceful = this.strategy.defaultGracePeriodSeconds !== undefined;
      let deleteAfterMark = false;
      let mark = false;
      if (this.strategy.beginDeletion && !alreadyDeleting) {
        nm.deletionTimestamp = timestamp(now);
        this.strategy.beginDeletion(next);
        mark = true;
      } else if (this.strategy.holdsDeletion?.(next)) {
        throw apiError.conflict(this.name, name, this.strategy.deletionHeldMessage ?? 'the object is being deleted');
      } else if (grace > 0 && (!alreadyDeleting || currentGrace === undefined || grace < currentGrace)) {
        // Graceful: the object stays until whoever runs it (the node) finishes within the period.
        nm.deletionTimestamp = timestamp(now + grace * 1000);
        nm.deletionGracePeriodSeconds = grace;
        mark = true;
      } else if (finalizers.size > 0) {
        if (!alreadyDeleting) {
          nm.deletionTimestamp = timestamp(now);
          nm.deletionGracePeriodSeconds = 0;
        } else if (grace === 0 && currentGrace !== 0) {
          nm.deletionGracePeriodSeconds = 0;
        }
        mark = true;
      } else if (graceful && !alreadyDeleting) {
        nm.deletionTimestamp = timestamp(now);
        nm.deletionGracePeriodSeconds = 0;
        mark = true;
        deleteAfterMark = true;
      }

      // The first mark of a deletion bumps the generation (Kubernetes' BeforeDelete / markAsDeleting):
      // controllers of the object see a change they must act on.
      if (mark && !alreadyDeleting && typeof nm.generation === 'number' && nm.generation > 0) nm.generation += 1;
      if (mark || (finalizers.size > 0 && finalizersChanged)) {
        const updated = this.canonical(next);
        if (opts.dryRun && deleteAfterMark) return { object: updated, deleted: true };
        if (opts.dryRun) return { object: updated, deleted: false };
        let rev: number;
        try {
          rev = await this.storage.update(kv.key, this.encode(updated), { expectModRevision: kv.modRevision });
        } catch (err) {
          if (!isStorageError(err, 'Conflict') && !isStorageError(err, 'NotFound')) throw this.storageFailure(err, name);
          if (attempt >= this.maxRetries) throw apiError.modified(this.name, name);
          continue;
        }
        updated.metadata = withResourceVersion(metaOf(updated), String(rev));
        if (!deleteAfterMark) return { object: updated, deleted: false };
        try {
          const res = await this.storage.delete(kv.key, { expectModRevision: rev });
          return { object: await this.released(decodeStored(res.prev.value, res.revision)), deleted: true };
        } catch (err) {
          if (!isStorageError(err, 'Conflict') && !isStorageError(err, 'NotFound')) throw this.storageFailure(err, name);
          if (attempt >= this.maxRetries) throw apiError.modified(this.name, name);
          continue;
        }
      }
      if (alreadyDeleting && finalizers.size > 0) return { object: current, deleted: false };

      if (opts.dryRun) return { object: current, deleted: true };
      try {
        const res = await this.storage.delete(kv.key, { expectModRevision: kv.modRevision });
        return { object: await this.released(decodeStored(res.prev.value, res.revision)), deleted: true };
      } catch (err) {
        if (isStorageError(err, 'NotFound')) throw apiError.notFound(this.name, name);
        if (!isStorageError(err, 'Conflict')) throw this.storageFailure(err, name);
        if (attempt >= this.maxRetries) throw apiError.modified(this.name, name);
      }
    }
  }

  /** Storage's compacted revision: reads at older revisions fail (410). */
  compactedRevision(): Promise<number> {
    return this.storage.compactedRevision();
  }

  /** A range read from storage (for list pages at a snapshot revision); storage errors pass through. */
  listStorage(prefix: string, opts: { revision?: number; limit?: number; startAfter?: string }) {
    return this.storage.list(prefix, opts);
  }

  /** Names of the objects in `namespace` that `filter` selects, from the watch cache. */
  listNames(namespace: string, filter?: ObjectFilter): Array<{ namespace: string; name: string }> {
    return this.cache.list({ prefix: this.prefix(namespace), filter }).items.map((o) => ({ namespace: o.namespace, name: o.name }));
  }

  /** Maps storage failures to API errors (the storage layer's own messages stay in the log). */
  storageFailure(err: unknown, name: string): StatusError {
    if (err instanceof StatusError) return err;
    if (isStorageError(err, 'ValueTooLarge')) return StatusError.requestEntityTooLarge(1.5 * 1024 * 1024);
    if (isStorageError(err, 'Unavailable')) return apiError.serviceUnavailable(`storage is unavailable: ${err.message}`);
    // as kube-apiserver answers etcd's "database space exceeded": an internal error saying so
    if (isStorageError(err, 'NoSpace') || isStorageError(err, 'ReadOnly')) return apiError.internal(`storage: ${err.message}`);
    if (isStorageError(err, 'NotFound')) return apiError.notFound(this.name, name);
    return apiError.internal(err instanceof Error ? err.message : String(err));
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** An update leaves no finalizer on an object being deleted without (or past) its grace period. */
function emptiesFinalizers(next: KubeObject, old: KubeObject): boolean {
  const om = metadataOf(old);
  if (finalizersOf(next).length > 0) return false;
  if (om.deletionTimestamp === undefined || om.deletionTimestamp === null) return false;
  return om.deletionGracePeriodSeconds === undefined || om.deletionGracePeriodSeconds === null || om.deletionGracePeriodSeconds === 0;
}

/** Kubernetes' DeleteOptions rule: orphanDependents and propagationPolicy are exclusive. */
export function validateDeleteOptions(orphanDependents: boolean | undefined, propagationPolicy: string | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (orphanDependents !== undefined && propagationPolicy !== undefined) {
    errors.push(fieldError.invalid('propagationPolicy', propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (propagationPolicy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(propagationPolicy)) {
    errors.push(fieldError.notSupported('propagationPolicy', propagationPolicy, ['Foreground', 'Background', 'Orphan']));
  }
  return errors;
}
