// Structural pruning of a custom resource's body, as Kubernetes' decoder does for custom
// resources: what the version's schema does not specify is dropped, and reported like any
// unknown field (a Warning, or with fieldValidation=Strict a 400 that writes nothing).
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import type { FieldValidation } from './options.js';

export function pruneUnknownFields(kv: KindVersion, obj: KubeObject, validation: FieldValidation, warnings: string[]): void {
  if (!kv.custom) return;
  const removed = kv.custom.prune(obj);
  if (removed.length === 0 || validation === 'Ignore') return;
  const found = removed.map((p) => `unknown field ${JSON.stringify(p.replace(/^\./, ''))}`);
  if (validation === 'Strict') throw StatusError.badRequest(`strict decoding error: ${found.join(', ')}`);
  warnings.push(...found);
}
