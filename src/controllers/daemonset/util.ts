// The DaemonSet controller's small helpers (Kubernetes' daemon/util): spec accessors, template
// generation, updated pods, int-or-percent values, pod ordering, expectations and the failed-pod
// back-off.
import type { KubeObject } from '../../client/types.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../machinery/selectors/index.js';
import { annotationsOf, creationTimestampOf, labelsOf, nameOf } from '../../api/meta/object.js';
import { TEMPLATE_GENERATION_LABEL, UNIQUE_LABEL } from './history.js';

const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

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

/** GetTemplateGeneration: the deprecated annotation (apps/v1), or spec.templateGeneration. */
export function templateGeneration(ds: KubeObject): number | undefined {
  const a = annotationsOf(ds)[TEMPLATE_GENERATION_ANNOTATION];
  if (a !== undefined && /^\d+$/.test(a)) return Number(a);
  const g = specOf(ds).templateGeneration;
  return typeof g === 'number' ? g : undefined;
}

export function isPodUpdated(pod: KubeObject, hash: string, generation: number | undefined): boolean {
  const l = labelsOf(pod);
  return (generation !== undefined && l[TEMPLATE_GENERATION_LABEL] === String(generation)) || (hash !== '' && l[UNIQUE_LABEL] === hash);
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

export function byCreationAndPhase(a: KubeObject, b: KubeObject): number {
  const pa = (a.status as { phase?: string } | undefined)?.phase ?? '';
  const pb = (b.status as { phase?: string } | undefined)?.phase ?? '';
  if (pa !== pb) {
    // running pods before others (podByCreationTimestampAndPhase)
    if (pa === 'Running') return -1;
    if (pb === 'Running') return 1;
  }
  const ta = Date.parse(creationTimestampOf(a)) || 0;
  const tb = Date.parse(creationTimestampOf(b)) || 0;
  if (ta !== tb) return ta - tb;
  return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
}

/** Add/delete counts a sync waits for (controller.ControllerExpectations). */
export class Expectations {
  private readonly m = new Map<string, { add: number; del: number; at: number }>();
  constructor(private readonly now: () => number) {}
  set(key: string, add: number, del: number): void {
    this.m.set(key, { add, del, at: this.now() });
  }
  satisfied(key: string): boolean {
    const e = this.m.get(key);
    return !e || (e.add <= 0 && e.del <= 0) || this.now() - e.at > 5 * 60_000;
  }
  observe(key: string, add: number, del: number): void {
    const e = this.m.get(key);
    if (e) {
      e.add -= add;
      e.del -= del;
    }
  }
  delete(key: string): void {
    this.m.delete(key);
  }
}

/** client-go's flowcontrol.Backoff (without jitter): per-key exponential delays that expire after 2× the cap. */
export class Backoff {
  private readonly entries = new Map<string, { backoff: number; lastUpdate: number }>();
  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {}
  private expired(now: number, last: number): boolean {
    return now - last > 2 * this.maxMs;
  }
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(now, e.lastUpdate)) return false;
    return now - e.lastUpdate < e.backoff;
  }
  next(key: string, now: number): void {
    const e = this.entries.get(key);
    if (!e || this.expired(now, e.lastUpdate)) this.entries.set(key, { backoff: this.initialMs, lastUpdate: now });
    else {
      e.backoff = Math.min(e.backoff * 2, this.maxMs);
      e.lastUpdate = now;
    }
  }
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }
  /** Drops entries that expired (Kubernetes calls this every minute). */
  gc(now: number): void {
    for (const [k, e] of this.entries) if (this.expired(now, e.lastUpdate)) this.entries.delete(k);
  }
}
