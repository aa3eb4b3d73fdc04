// `labelSelector` and `fieldSelector` of a list or watch → a filter over cached objects, which
// carry their labels and selectable fields (computed once when cached, by the kind's module).
import type { KindVersion } from '../api/schema/kind.js';
import { parseFieldSelectorWith, parseLabelSelector } from '../machinery/selectors/index.js';
import { fieldLabelsOf } from '../registry/kinds/index.js';
import type { ObjectFilter } from '../storage/cacher/types.js';

export function compileSelectors(labelSelector: string, fieldSelector: string, kv: KindVersion): ObjectFilter | undefined {
  const labels = labelSelector.trim() === '' ? undefined : parseLabelSelector(labelSelector);
  const fields = fieldSelector === '' ? undefined : parseFieldSelectorWith(fieldLabelsOf(kv), fieldSelector);
  const l = labels && !labels.isEmpty() ? labels : undefined;
  const f = fields && !fields.isEmpty() ? fields : undefined;
  if (!l && !f) return undefined;
  return (o) => (!l || l.matches(o.labels)) && (!f || f.matches(o.fields));
}
