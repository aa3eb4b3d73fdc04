// A DaemonSet's spec as the controller reads it: its selector as a matcher, and the rolling
// update's int-or-percent values with their defaults.
import type { KubeObject } from '../../client/types.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../machinery/selectors/index.js';

export type Spec = {
  selector?: LabelSelectorObject;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
  minReadySeconds?: number;
  templateGeneration?: number;
  updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
};
export const specOf = (ds: KubeObject): Spec => (ds.spec ?? {}) as Spec;

export function matcher(ds: KubeObject): ((labels: Record<string, string>) => boolean) | undefined {
  try {
    const sel = labelSelectorAsSelector(specOf(ds).selector);
    return (l) => sel.matches(l);
  } catch {
    return undefined;
  }
}

/** intstr.GetScaledValueFromIntOrPercent rounding up (maxUnavailable). */
export function scaledValue(v: number | string | undefined, total: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (m) return Math.ceil((Number(m[1]) * total) / 100);
  return /^\d+$/.test(v) ? Number(v) : dflt;
}

/** util.AllowsSurge: a RollingUpdate with a non-zero maxSurge. */
export function allowsSurge(ds: KubeObject): boolean {
  const st = specOf(ds).updateStrategy;
  return (st?.type ?? 'RollingUpdate') === 'RollingUpdate' && scaledValue(st?.rollingUpdate?.maxSurge, 1, 0) !== 0;
}
