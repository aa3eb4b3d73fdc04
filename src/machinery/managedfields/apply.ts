// Server-side apply: the applied configuration merged into the live object by the schema, the
// fields its manager dropped since its last apply removed unless someone else owns them,
// conflicts with other managers reported (409) unless forced.
import { FieldSet } from '../fieldpath/set.js';
import { StatusError } from '../status.js';
import { TypedError, toFieldSet } from '../typed/fieldset.js';
import { merge } from '../typed/merge.js';
import { prune } from '../typed/prune.js';
import { deepEqual, isObject } from '../typed/schema.js';
import { changesOf, encodeInto, ignoredFor, metaOf, STRIP, withoutManagedFields, type Actor, type KindFields, type Obj } from './common.js';
import { conflictError } from './conflicts.js';
import { decodeManagedFields, managerId, timeOf, type Managed, type ManagerEntry } from './entries.js';
import { allowedFromLastApplied, syncLastApplied } from './last-applied.js';
import type { Path } from '../fieldpath/element.js';

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

function stripForEquality(o: Obj): Obj {
  if (!isObject(o.metadata) || !('managedFields' in o.metadata)) return o;
  const { managedFields: _mf, ...rest } = o.metadata;
  return { ...o, metadata: rest };
}
