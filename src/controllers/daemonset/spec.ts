// A DaemonSet's spec as the controller reads it: its selector as a matcher, and the rolling
// update's int-or-percent values with their defaults.
import type { ControllerRevision, DaemonSet, DaemonSetSpec, Node } from '../../api/types.js';
import type { KubeObject } from '../../client/types.js';
import { labelSelectorAsSelector } from '../../machinery/selectors/index.js';

// Informers and the API hand objects over as JSON the API server validated against the schema
// api/types.ts is derived from: these are the one place that JSON becomes typed.
export const asDaemonSet = (o: KubeObject): DaemonSet => o as DaemonSet;
export const asNode = (o: KubeObject): Node => o as Node;
export const asControllerRevision = (o: KubeObject): ControllerRevision => o as ControllerRevision;

export const specOf = (ds: DaemonSet): DaemonSetSpec => ds.spec ?? {};

export function matcher(ds: DaemonSet): ((labels: Record<string, string>) => boolean) | undefined {
  try {
    const sel = labelSelectorAsSelector(specOf(ds).selector);
    return (l) => sel.matches(l);
  } catch {
    return undefined;
  }
}

/** intstr.GetScaledValueFromIntOrPercent rounding up (maxUnavailable). */
export function scaledValue(v: number | string | null | undefined, total: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (m) return Math.ceil((Number(m[1]) * total) / 100);
  return /^\d+$/.test(v) ? Number(v) : dflt;
}

/** util.AllowsSurge: a RollingUpdate with a non-zero maxSurge. */
export function allowsSurge(ds: DaemonSet): boolean {
  const st = specOf(ds).updateStrategy;
  return (st?.type ?? 'RollingUpdate') === 'RollingUpdate' && scaledValue(st?.rollingUpdate?.maxSurge, 1, 0) !== 0;
}
