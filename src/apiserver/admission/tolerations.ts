// Kubernetes' pkg/util/tolerations MergeTolerations: two lists of tolerations as one, where a
// toleration another one already covers (tolerates a superset of its taints) is left out.
import type { Toleration } from '../../api/types.js';
import { semanticEqual } from '../../machinery/validation/common.js';

/** isSuperset: whether `ss` tolerates every taint `t` tolerates. */
export function toleratesSuperset(ss: Toleration, t: Toleration): boolean {
  if (semanticEqual(t, ss)) return true;
  const ssKey = ss.key ?? '';
  // An empty key with Exists matches every key and value.
  if ((t.key ?? '') !== ssKey && (ssKey !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && typeof ss.tolerationSeconds === 'number') {
    if (typeof t.tolerationSeconds !== 'number' || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '': // an empty operator means Equal
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => toleratesSuperset(m, t))) return;
    // Of two equal tolerations the first is kept.
    if (all.slice(i + 1).some((later) => !semanticEqual(t, later) && toleratesSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}
