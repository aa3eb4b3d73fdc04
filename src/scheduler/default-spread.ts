// PodTopologySpread's system default constraints (helper.DefaultSelector): a pod selected by
// Services, ReplicaSets or StatefulSets of its namespace spreads by hostname and zone among the
// pods they all select. The pods of one template (a ReplicaSet's thousands) share namespace and
// labels, and so their constraints: made once per label set, until forget() (a Service,
// ReplicaSet or StatefulSet came, went or selects otherwise).
import type { KubeObject, Lister } from '../client/types.js';
import type { ReplicaSet, Service, StatefulSet } from '../api/types.js';
import { labelMatcher, systemDefaultSpread, type LabelMatcher, type PodInfo, type SpreadConstraint } from './model.js';

type Workload = ReplicaSet | StatefulSet;

/** Label sets remembered at most (emptied when full). */
const MAX_LABEL_SETS = 4096;

const selectorCache = new WeakMap<Workload, LabelMatcher | null>();
/** A workload's spec.selector as a matcher (null when empty: it selects nothing here). */
function workloadSelector(o: Workload): LabelMatcher | null {
  let m = selectorCache.get(o);
  if (m === undefined) {
    const sel = o.spec?.selector;
    m = sel && (Object.keys(sel.matchLabels ?? {}).length > 0 || (sel.matchExpressions ?? []).length > 0) ? labelMatcher(sel) : null;
    selectorCache.set(o, m);
  }
  return m;
}

/** spec.selector of a Service (a map) or a workload (a LabelSelector). */
export const selectorOf = (o: KubeObject): unknown => (o.spec as { selector?: unknown } | undefined)?.selector;

export class DefaultSpreads {
  private readonly byLabels = new Map<string, SpreadConstraint[] | null>();

  constructor(
    private readonly services: Lister,
    private readonly workloads: readonly Lister[],
  ) {}

  /** The constraints of `p` when none of its own are given; null when nothing selects it. */
  of(p: PodInfo): SpreadConstraint[] | null {
    const key = `${p.namespace}\0${JSON.stringify(p.labels)}`;
    let spread = this.byLabels.get(key);
    if (spread === undefined) {
      if (this.byLabels.size >= MAX_LABEL_SETS) this.byLabels.clear();
      this.byLabels.set(key, (spread = this.make(p)));
    }
    return spread;
  }

  /** Services or workloads changed: every label set's constraints are made again. */
  forget(): void {
    this.byLabels.clear();
  }

  private make(p: PodInfo): SpreadConstraint[] | null {
    const set: Record<string, string> = {};
    let any = false;
    const services = this.services.list(p.namespace) as Service[];
    for (const svc of services) {
      const sel = svc.spec?.selector;
      if (!sel || Object.keys(sel).length === 0) continue;
      if (Object.keys(sel).every((k) => p.labels[k] === sel[k])) {
        Object.assign(set, sel);
        any = true;
      }
    }
    const matchers: LabelMatcher[] = [];
    for (const lister of this.workloads)
      for (const o of lister.list(p.namespace)) {
        const m = workloadSelector(o as Workload);
        if (m && m(p.labels)) matchers.push(m);
      }
    if (!any && matchers.length === 0) return null;
    const keys = Object.keys(set);
    return systemDefaultSpread((labels) => keys.every((k) => labels[k] === set[k]) && matchers.every((m) => m(labels)));
  }
}
