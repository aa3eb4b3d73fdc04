// `labelSelector` and `fieldSelector` of a list or watch → a filter over cached objects, which
// carry their labels and selectable fields (computed once when cached).
import { storageVersionOf } from '../api/kinds.js';
import type { KindVersion } from '../api/schema/kind.js';
import { parseFieldSelectorFor, parseLabelSelector, selectableFields } from '../machinery/selectors/index.js';
import type { FieldsOf } from '../registry/materialize.js';
import type { ObjectFilter } from '../storage/cacher/types.js';

export function compileSelectors(labelSelector: string, fieldSelector: string, kv: KindVersion): ObjectFilter | undefined {
  const labels = labelSelector.trim() === '' ? undefined : parseLabelSelector(labelSelector);
  const fields = fieldSelector === '' ? undefined : parseFieldSelectorFor({ group: kv.group, version: kv.version, kind: kv.kind }, fieldSelector);
  const l = labels && !labels.isEmpty() ? labels : undefined;
  const f = fields && !fields.isEmpty() ? fields : undefined;
  if (!l && !f) return undefined;
  return (o) => (!l || l.matches(o.labels)) && (!f || f.matches(o.fields));
}

/** The selectable fields of a stored resource's objects (what the cache keeps per object). */
export function fieldsFor(group: string, resource: string, kinds: readonly KindVersion[]): FieldsOf {
  const kv = kinds.find((k) => k.storage && k.group === group && k.resource === resource);
  const gk = { group, kind: kv ? storageVersionOf(kv).kind : resource };
  return (obj) => selectableFields(gk, obj) as Record<string, string>;
}
