// Kubernetes' fieldmanager for kubelite: who owns which field of an object, kept in
// metadata.managedFields on every write.
// - trackUpdate (create, update, non-apply patch): the fields the write changed become its
//   manager's (an Update entry per manager/apiVersion/subresource, merged with the previous one,
//   time refreshed), and are taken away from every other manager; `[{}]` resets the list, and an
//   invalid list in the request falls back to the live one.
// - apply (server-side apply): the applied configuration merged into the live object by the
//   schema, the fields its manager dropped since its last apply removed unless someone else owns
//   them, conflicts with other managers reported (409) unless forced.
// Fields that are the system's (name, uid, resourceVersion, ...) are never owned, and each
// subresource owns only its part of the object (the main resource never owns status, /status
// owns only status and metadata), like the strategies' reset fields.
import type { StructType } from '../../api/schema/dsl.js';
import { fieldElement, pathToString, type Path } from '../fieldpath/element.js';
import { FieldSet } from '../fieldpath/set.js';
import { stringifyJson } from '../codec/json.js';
import { StatusError } from '../status.js';
import { compare } from '../typed/compare.js';
import { TypedError, toFieldSet } from '../typed/fieldset.js';
import { merge } from '../typed/merge.js';
import { prune } from '../typed/prune.js';
import { deepEqual, isObject, structNode, zeroObject, type StructNode } from '../typed/schema.js';
import { decodeManagedFields, encodeManagedFields, isResetRequest, managerId, timeOf, type Managed, type ManagerEntry } from './entries.js';

type Obj = Record<string, unknown>;

/** Who writes: the request's field manager, the group/version it speaks, the subresource. */
export interface Actor {
  manager: string;
  apiVersion: string;
  /** '' for the main resource; 'status', 'scale', ... */
  subresource: string;
  now: number;
}

/** What the field manager needs to know about a kind (built once per kind). */
export interface KindFields {
  readonly type: StructType;
  readonly node: StructNode;
  readonly zero: Obj;
  readonly hasStatus: boolean;
  /** Reset fields (the strategy's): what the main resource and /status never own. */
  readonly ignoredMain: FieldSet | undefined;
  readonly ignoredStatus: FieldSet;
  /** What comparisons skip: the system's fields and the reset fields, per subresource. */
  readonly excludeMain: FieldSet;
  readonly excludeStatus: FieldSet;
  readonly excludeOther: FieldSet;
}

/** The system's fields, never owned by a manager (stripMetaManager), besides `metadata` itself. */
const SYSTEM_FIELDS: Path[] = [
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => [
    fieldElement('metadata'),
    fieldElement(n),
  ]),
];

/** stripMetaManager's set: the system's fields and `metadata` itself. */
const STRIP = FieldSet.of(...SYSTEM_FIELDS, [fieldElement('metadata')]);

const kinds = new WeakMap<StructType, KindFields>();

export function kindFields(type: StructType, hasStatus: boolean): KindFields {
  let k = kinds.get(type);
  if (!k) {
    const others = Object.keys(type.fields).filter((f) => !['metadata', 'status', 'apiVersion', 'kind'].includes(f));
    const ignoredMain = hasStatus ? FieldSet.of([fieldElement('status')]) : undefined;
    const ignoredStatus = FieldSet.of(...others.map((f) => [fieldElement(f)]));
    const system = FieldSet.of(...SYSTEM_FIELDS);
    k = {
      type,
      node: structNode(type),
      zero: zeroObject(type),
      hasStatus,
      ignoredMain,
      ignoredStatus,
      excludeMain: ignoredMain ? system.union(ignoredMain) : system,
      excludeStatus: system.union(ignoredStatus),
      excludeOther: system,
    };
    kinds.set(type, k);
  }
  return k;
}

function ignoredFor(kind: KindFields, subresource: string): FieldSet | undefined {
  return subresource === 'status' ? kind.ignoredStatus : subresource === '' ? kind.ignoredMain : undefined;
}

function excludeFor(kind: KindFields, subresource: string): FieldSet {
  return subresource === 'status' ? kind.excludeStatus : subresource === '' ? kind.excludeMain : kind.excludeOther;
}

const METADATA = fieldElement('metadata');

/** The fields a write changed (added or modified) and removed, less what no manager can own. */
function changesOf(old: Obj, next: Obj, kind: KindFields, subresource: string): { changed: FieldSet; removed: FieldSet } {
  const c = withoutManagedFields(old, () => compare(old, next, kind.node, { exclude: excludeFor(kind, subresource), unionChanged: true }));
  // `metadata` itself is the system's too (it appears when the old object had none).
  const m = c.added.entry(METADATA);
  if (m) {
    if (m.child) m.member = false;
    else c.added.remove(METADATA);
  }
  return { changed: c.added, removed: c.removed };
}

function metaOf(obj: Obj): Obj {
  if (!isObject(obj.metadata)) obj.metadata = {};
  return obj.metadata as Obj;
}

/** Runs `fn` with metadata.managedFields taken off `obj` (comparisons must not see it), then puts it back. */
function withoutManagedFields<T>(obj: Obj, fn: () => T): T {
  const m = isObject(obj.metadata) ? obj.metadata : undefined;
  if (!m || !('managedFields' in m)) return fn();
  const saved = m.managedFields;
  delete m.managedFields;
  try {
    return fn();
  } finally {
    m.managedFields = saved;
  }
}

function decodeOrEmpty(v: unknown): Managed {
  if (v === undefined) return new Map();
  try {
    return decodeManagedFields(v);
  } catch {
    return new Map();
  }
}

/** decodeLiveOrNew: the managers a write starts from. */
function startingManagers(liveMF: unknown, requested: unknown, subresource: string): Managed {
  // Subresources never take managedFields from the request.
  if (subresource !== '') return decodeOrEmpty(liveMF);
  if (isResetRequest(requested)) return new Map();
  try {
    const managed = decodeManagedFields(requested);
    if (managed.size > 0) return managed;
  } catch {
    // A client that does not understand managedFields must not be able to break them: use the live ones.
  }
  return decodeOrEmpty(liveMF);
}

function setEntry(managed: Managed, id: string, e: ManagerEntry): void {
  if (e.set.isEmpty()) managed.delete(id);
  else managed.set(id, e);
}

/** The most Update entries kept; older ones are merged into an "ancient-changes" entry per version (capManagersManager). */
export const MAX_UPDATE_MANAGERS = 10;

function capUpdaters(managed: Managed): void {
  const updaters = [...managed.entries()].filter(([, e]) => e.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  const seconds = (t: string | undefined) => (t ? Math.floor(Date.parse(t) / 1000) : 0);
  updaters.sort(([ia, a], [ib, b]) => seconds(a.time) - seconds(b.time) || (ia < ib ? -1 : ia > ib ? 1 : 0));
  // Oldest first, per version: the first one seen becomes the bucket when a second one joins it.
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const [id, e] = updaters[i]!;
    const bucketId = managerId('ancient-changes', 'Update', e.apiVersion, undefined);
    const first = firstOfVersion.get(e.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(e.apiVersion, id);
      continue;
    }
    let bucket = managed.get(bucketId);
    if (!bucket) {
      const firstEntry = managed.get(first)!;
      managed.delete(first);
      bucket = { manager: 'ancient-changes', operation: 'Update', apiVersion: e.apiVersion, set: firstEntry.set };
      managed.set(bucketId, bucket);
    }
    bucket.set.addAll(e.set);
    // The bucket takes the time of the newest update merged into it.
    bucket.time = e.time;
    managed.delete(id);
    length--;
  }
}

function encodeInto(obj: Obj, managed: Managed): void {
  const entries = encodeManagedFields(managed);
  const m = metaOf(obj);
  if (entries) m.managedFields = entries;
  else delete m.managedFields;
}

/**
 * Records a create (`live` undefined), update or non-apply patch by `actor` in
 * `next.metadata.managedFields`. `next` is the object about to be written; `live` is not changed.
 */
export function trackUpdate(live: Obj | undefined, next: Obj, actor: Actor, kind: KindFields): void {
  const nm = metaOf(next);
  const requested = nm.managedFields;
  delete nm.managedFields;
  let createKey: string | undefined;
  if (live === undefined && requested === undefined) {
    createKey = createCacheKey(next, nm, actor, kind);
    const fields = createCache.get(createKey);
    if (fields !== undefined) {
      nm.managedFields = [updateEntry(actor, fields)];
      return;
    }
  }
  const liveMF = live && isObject(live.metadata) ? live.metadata.managedFields : undefined;
  const { changed, removed } = changesOf(live ?? kind.zero, next, kind, actor.subresource);
  if (changed.isEmpty() && removed.isEmpty()) {
    // Nothing changed hands: the live list stays as it is when the request kept it (or sent none).
    if (actor.subresource !== '' || requested === undefined || (!isResetRequest(requested) && deepEqual(requested, liveMF))) {
      if (liveMF !== undefined) nm.managedFields = liveMF;
      return;
    }
  }
  const managed = startingManagers(liveMF, requested, actor.subresource);
  // Whatever the write changed or removed is no longer anyone else's.
  for (const [id, e] of managed) {
    e.set.subtract(changed);
    e.set.subtract(removed);
    if (e.set.entries.size === 0) managed.delete(id);
  }
  if (!changed.isEmpty()) {
    const id = managerId(actor.manager, 'Update', actor.apiVersion, actor.subresource);
    const previous = managed.get(id);
    if (previous) previous.set.addAll(changed);
    managed.set(id, {
      manager: actor.manager,
      operation: 'Update',
      apiVersion: actor.apiVersion,
      // The scale subresource records no time (Kubernetes rebuilds its entry without one).
      time: actor.subresource === 'scale' ? undefined : timeOf(actor.now),
      subresource: actor.subresource || undefined,
      set: previous ? previous.set : changed,
    });
    capUpdaters(managed);
  }
  encodeInto(next, managed);
  if (createKey !== undefined && managed.size === 1) {
    if (createCache.size >= CREATE_CACHE_MAX) createCache.clear();
    createCache.set(createKey, deepFreeze((nm.managedFields as Obj[])[0]!.fieldsV1 as Obj));
  }
}

/**
 * Objects created from one template (a ReplicaSet's pods, a Job's) own the same fields, so their
 * FieldsV1 is kept by content: the object less its identity (name, uid, ...), which no one owns.
 * A hit costs one JSON.stringify instead of a walk of the object; the FieldsV1 object is shared,
 * frozen (nothing writes into a FieldsV1: managedFields are rebuilt, never edited in place).
 */
const createCache = new Map<string, Obj>();

function deepFreeze(o: Obj): Obj {
  for (const k in o) deepFreeze(o[k] as Obj);
  return Object.freeze(o);
}
const CREATE_CACHE_MAX = 256;
const IDENTITY = new Set(['name', 'namespace', 'uid', 'creationTimestamp', 'resourceVersion', 'generation', 'selfLink']);

function createCacheKey(next: Obj, nm: Obj, actor: Actor, kind: KindFields): string {
  const rest: Obj = {};
  for (const k in nm) if (!IDENTITY.has(k)) rest[k] = nm[k];
  return `${kind.type.name}\u0000${actor.manager}\u0000${actor.apiVersion}\u0000${actor.subresource}\u0000${JSON.stringify({ ...next, metadata: rest })}`;
}

function updateEntry(actor: Actor, fieldsV1: Obj): Obj {
  const e: Obj = { manager: actor.manager, operation: 'Update', apiVersion: actor.apiVersion };
  if (actor.subresource !== 'scale') e.time = timeOf(actor.now);
  e.fieldsType = 'FieldsV1';
  e.fieldsV1 = fieldsV1;
  if (actor.subresource) e.subresource = actor.subresource;
  return e;
}

export interface ApplyResult {
  /** The live object with the configuration applied and managedFields updated. */
  object: Obj;
  /** False when the object itself (not counting managedFields) did not change. */
  changed: boolean;
  /** False when managedFields are exactly the live ones too: the apply changed nothing at all. */
  managedFieldsChanged: boolean;
}

export interface ApplyOptions {
  force: boolean;
  /** "namespace/name" as the typed-patch error names the object. */
  objectName: string;
  /** `apps/v1, Kind=Deployment` as the typed-patch error names the kind. */
  gvkString: string;
}

/**
 * Server-side apply of `config` (already checked to be of the kind and version) by `actor` to
 * `live` (for a create: the empty object with name and namespace). Throws StatusError: 400 for a
 * configuration that does not fit the schema, 409 for conflicts.
 */
export function apply(live: Obj, config: Obj, actor: Actor, kind: KindFields, opts: ApplyOptions): ApplyResult {
  if (isObject(config.metadata) && config.metadata.managedFields !== undefined && config.metadata.managedFields !== null) {
    throw StatusError.badRequest('metadata.managedFields must be nil');
  }
  let managed: Managed;
  try {
    managed = decodeManagedFields(isObject(live.metadata) ? live.metadata.managedFields : undefined);
  } catch (err) {
    throw new StatusError(500, 'InternalError', `failed to decode managed fields: ${(err as Error).message}`);
  }
  let applied: FieldSet;
  try {
    applied = toFieldSet(config, kind.node);
  } catch (err) {
    if (!(err instanceof TypedError)) throw err;
    throw StatusError.badRequest(`failed to create typed patch object (${opts.objectName}; ${opts.gvkString}): ${err.message}`);
  }
  const ignored = ignoredFor(kind, actor.subresource);
  if (ignored) applied = applied.recursiveDifference(ignored);
  applied = applied.difference(STRIP);

  const liveManagedFields = isObject(live.metadata) ? live.metadata.managedFields : undefined;
  return withoutManagedFields(live, (): ApplyResult => {
    const id = managerId(actor.manager, 'Apply', actor.apiVersion, actor.subresource);
    const previous = managed.get(id);
    let result = merge(live, config, kind.node) as Obj;
    const mine: ManagerEntry = { manager: actor.manager, operation: 'Apply', apiVersion: actor.apiVersion, subresource: actor.subresource || undefined, set: applied };
    if (previous?.time) mine.time = previous.time;
    managed.set(id, mine);
    if (previous && !previous.set.isEmpty()) {
      const owned = new FieldSet();
      for (const e of managed.values()) owned.addAll(e.set);
      result = prune(result, kind.node, previous.set, owned) as Obj;
    }
    if (result === live) result = { ...live };
    if (isObject(result.metadata)) result.metadata = { ...result.metadata };
    delete metaOf(result).managedFields;

    const { changed, removed } = changesOf(live, result, kind, actor.subresource);
    const conflicts: Array<{ id: string; path: Path }> = [];
    for (const [otherId, e] of managed) {
      if (otherId === id) continue;
      const clash = e.set.intersection(changed);
      if (!clash.isEmpty()) clash.iterate((path) => conflicts.push({ id: otherId, path }));
    }
    if (conflicts.length > 0 && !opts.force) {
      // kubectl's own server-side apply may take over what its client-side apply set (lastAppliedManager).
      const allowed = actor.manager === 'kubectl' ? allowedFromLastApplied(live, kind) : undefined;
      const remaining = allowed ? conflicts.filter((c) => !allowed.has(c.path)) : conflicts;
      if (remaining.length > 0) throw conflictError(remaining);
    }
    for (const [otherId, e] of managed) {
      if (otherId === id) continue;
      e.set.subtract(changed);
      e.set.subtract(removed);
      if (e.set.entries.size === 0) managed.delete(otherId);
    }
    if (mine.set.isEmpty()) managed.delete(id);
    const objectChanged = !deepEqual(stripForEquality(live), stripForEquality(result));
    if (objectChanged) mine.time = timeOf(actor.now);
    encodeInto(result, managed);
    if (actor.manager === 'kubectl') syncLastApplied(live, result, config);
    const managedFieldsChanged = !deepEqual(metaOf(result).managedFields, liveManagedFields);
    // kubectl's annotation sync may have changed the object after all.
    const anyChange = objectChanged || (actor.manager === 'kubectl' && !deepEqual(stripForEquality(live), stripForEquality(result)));
    return { object: result, changed: anyChange, managedFieldsChanged };
  });
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function lastAppliedOf(o: Obj): string | undefined {
  const a = isObject(o.metadata) && isObject(o.metadata.annotations) ? o.metadata.annotations[LAST_APPLIED] : undefined;
  return typeof a === 'string' && a !== '' ? a : undefined;
}

/**
 * The fields of the client-side apply annotation, when the live object still matches it: kubectl
 * switching to server-side apply may take those over without conflicts.
 */
function allowedFromLastApplied(live: Obj, kind: KindFields): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (!text) return undefined;
  try {
    const last = JSON.parse(text) as unknown;
    if (!isObject(last)) return undefined;
    const set = toFieldSet(last, kind.node);
    const onLast = merge(live, last, kind.node);
    const c = compare(live, onLast, kind.node);
    if (!c.added.isEmpty() || !c.modified.isEmpty() || !c.removed.isEmpty()) return undefined;
    return set;
  } catch {
    return undefined;
  }
}

/** lastAppliedUpdater: kubectl's server-side apply keeps an existing client-side apply annotation current. */
function syncLastApplied(live: Obj, result: Obj, config: Obj): void {
  if (!lastAppliedOf(live)) return;
  const copy = JSON.parse(JSON.stringify(config)) as Obj;
  if (isObject(copy.metadata) && isObject(copy.metadata.annotations)) delete copy.metadata.annotations[LAST_APPLIED];
  const m = metaOf(result);
  m.annotations = { ...(isObject(m.annotations) ? m.annotations : {}), [LAST_APPLIED]: stringifyJson(sortKeys(copy)) + '\n' };
}

/** Go marshals map[string]interface{} with sorted keys. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

function stripForEquality(o: Obj): Obj {
  if (!isObject(o.metadata) || !('managedFields' in o.metadata)) return o;
  const { managedFields: _mf, ...rest } = o.metadata;
  return { ...o, metadata: rest };
}

/** The manager as conflict messages name it (printManager). */
function printManager(id: string): string {
  const e = JSON.parse(id) as { manager?: string; operation?: string; apiVersion?: string; subresource?: string; time?: string };
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion ?? ''}`;
  return s;
}

/** The 409 of conflicting fields, worded as kube-apiserver's NewConflictError. */
function conflictError(conflicts: Array<{ id: string; path: Path }>): StatusError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.id)}`, field: pathToString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.id)}: ${pathToString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const list = byManager.get(c.id) ?? [];
      list.push(pathToString(c.path));
      byManager.set(c.id, list);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${printManager(id)}:`);
      for (const p of byManager.get(id)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { details: { causes } });
}
