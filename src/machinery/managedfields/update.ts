// Update entries (Kubernetes' fieldmanager on create, update and non-apply patch): the fields a
// write changed become its manager's (an Update entry per manager/apiVersion/subresource, merged
// with the previous one, time refreshed) and are taken away from every other manager; `[{}]`
// resets the list, and an invalid list in the request falls back to the live one.
import { KeyedByLength } from '../keyed-by-length.js';
import { deepEqual, isObject } from '../typed/schema.js';
import { changesOf, encodeInto, metaOf, type Actor, type KindFields, type Obj } from './common.js';
import { decodeManagedFields, isResetRequest, managerId, timeOf, type Managed } from './entries.js';

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

/**
 * Records a create (`live` undefined), update or non-apply patch by `actor` in
 * `next.metadata.managedFields`. `next` is the object about to be written; `live` is not changed.
 * `contentKey` (creates): equal for objects that differ in identity fields only, known to the
 * caller (the same request body less the name), so the create cache needs no JSON of `next`.
 */
export function trackUpdate(live: Obj | undefined, next: Obj, actor: Actor, kind: KindFields, contentKey?: string): void {
  const nm = metaOf(next);
  const requested = nm.managedFields;
  delete nm.managedFields;
  let createKey: string | undefined;
  if (live === undefined && requested === undefined) {
    // A caller's content key stands for the object less its identity, as the JSON would (it
    // starts with a character no JSON text starts with, so the two kinds of keys never meet).
    createKey = createCacheKey(actor, kind, contentKey !== undefined ? `\u0000${contentKey}` : objectContent(next, nm));
    const fields = createCache.get(createKey)?.fields;
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
  if (createKey !== undefined && managed.size === 1) createCache.add({ key: createKey, fields: deepFreeze((nm.managedFields as Obj[])[0]!.fieldsV1 as Obj) });
}

/**
 * Objects created from one template (a ReplicaSet's pods, a Job's) own the same fields, so their
 * FieldsV1 is kept by content: the object less its identity (name, uid, ...), which no one owns.
 * A hit costs one JSON.stringify instead of a walk of the object; the FieldsV1 object is shared,
 * frozen (nothing writes into a FieldsV1: managedFields are rebuilt, never edited in place).
 * Entries are found by the length of their key (keyed-by-length.ts).
 */
const CREATE_CACHE_MAX = 256;
const createCache = new KeyedByLength<{ key: string; fields: Obj }>(CREATE_CACHE_MAX);

function deepFreeze(o: Obj): Obj {
  for (const k in o) deepFreeze(o[k] as Obj);
  return Object.freeze(o);
}
const IDENTITY = new Set(['name', 'namespace', 'uid', 'creationTimestamp', 'resourceVersion', 'generation', 'selfLink']);

/** The JSON of the object less its identity. */
function objectContent(next: Obj, nm: Obj): string {
  const rest: Obj = {};
  for (const k in nm) if (!IDENTITY.has(k)) rest[k] = nm[k];
  return JSON.stringify({ ...next, metadata: rest });
}

/**
 * The create cache's key: the writer (kind, manager, apiVersion, subresource) and the content,
 * the writer's length first so that no writer and content make another's.
 */
function createCacheKey(actor: Actor, kind: KindFields, content: string): string {
  const writer = `${kind.type.name}\u0000${actor.manager}\u0000${actor.apiVersion}\u0000${actor.subresource}`;
  return `${writer.length}\u0000${writer}${content}`;
}

function updateEntry(actor: Actor, fieldsV1: Obj): Obj {
  const e: Obj = { manager: actor.manager, operation: 'Update', apiVersion: actor.apiVersion };
  if (actor.subresource !== 'scale') e.time = timeOf(actor.now);
  e.fieldsType = 'FieldsV1';
  e.fieldsV1 = fieldsV1;
  if (actor.subresource) e.subresource = actor.subresource;
  return e;
}
