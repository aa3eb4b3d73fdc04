// kubectl's client-side apply (the last-applied-configuration annotation) meeting server-side
// apply by the manager "kubectl": lastAppliedManager and lastAppliedUpdater.
import { stringifyJson } from '../codec/json.js';
import type { FieldSet } from '../fieldpath/set.js';
import { compare } from '../typed/compare.js';
import { toFieldSet } from '../typed/fieldset.js';
import { merge } from '../typed/merge.js';
import { isObject } from '../typed/schema.js';
import { metaOf, type KindFields, type Obj } from './common.js';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function lastAppliedOf(o: Obj): string | undefined {
  const a = isObject(o.metadata) && isObject(o.metadata.annotations) ? o.metadata.annotations[LAST_APPLIED] : undefined;
  return typeof a === 'string' && a !== '' ? a : undefined;
}

/**
 * The fields of the client-side apply annotation, when the live object still matches it: kubectl
 * switching to server-side apply may take those over without conflicts.
 */
export function allowedFromLastApplied(live: Obj, kind: KindFields): FieldSet | undefined {
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
export function syncLastApplied(live: Obj, result: Obj, config: Obj): void {
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
