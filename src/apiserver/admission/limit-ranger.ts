// LimitRanger admission (Kubernetes' plugin/pkg/admission/limitranger): on pod creates, the
// namespace's LimitRanges give containers their default requests and limits (noted in the
// kubernetes.io/limit-ranger annotation); every pod create and PVC create or update is then held
// to the ranges' min, max and maxLimitRequestRatio, refused with Kubernetes' 403 texts.
import type { Quantity } from '../../api/meta/quantity.js';
import type { Container, LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod } from '../../api/types.js';
import { podResources, resourceList, type ResourceList } from '../../machinery/quota/index.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

/** The LimitRanges of a namespace. */
export interface LimitRangeLister {
  list(namespace: string): Promise<LimitRange[]>;
}

/** resource.MaxMilliValue. */
const MAX_MILLI = 9223372036854775n;

/** requestLimitEnforcedValues: the three values at milli precision when none overflows. */
function enforcedValues(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const v = (q: Quantity | undefined, scale: number) => (q ? q.scaledValueBig(scale) : 0n);
  const [r, l, e] = [v(req, 0), v(lim, 0), v(enforced, 0)];
  if (r <= MAX_MILLI && l <= MAX_MILLI && e <= MAX_MILLI) return [v(req, -3), v(lim, -3), v(enforced, -3)];
  return [r, l, e];
}

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${type} is ${enforced}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${enforced}, but request is ${req}`;
  if (lim && l < e) return `minimum ${name} usage per ${type} is ${enforced}, but limit is ${lim}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${type} is ${enforced}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${enforced}, but limit is ${lim}`;
  if (req && r > e) return `maximum ${name} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

/** maxRequestConstraint: a max on what is requested (PVCs have no limits). */
function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(name);
  const [r, , e] = enforcedValues(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${type} is ${enforced}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = enforcedValues(req, lim, enforced);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${type} is ${enforced}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${type} is ${enforced}, but no limit is specified or limit is 0`;
  const shown = Number(l) / Number(r);
  let observed = shown;
  let allowed = Number(enforced.scaledValueBig(0));
  if (enforced.scaledValueBig(0) <= MAX_MILLI) {
    observed = shown * 1000;
    allowed = Number(enforced.scaledValueBig(-3));
  }
  if (observed > allowed) return `${name} max limit to request ratio per ${type} is ${enforced}, but provided ratio is ${shown.toFixed(6)}`;
  return undefined;
}

const sortedEntries = (list: ResourceList): Array<[string, Quantity]> => [...list].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The min, max and ratio checks of one item against requests and limits. */
function checkItem(type: string, item: LimitRangeItem, requests: ResourceList, limits: ResourceList): string[] {
  const errs: Array<string | undefined> = [];
  for (const [k, v] of sortedEntries(resourceList(item.min))) errs.push(minConstraint(type, k, v, requests, limits));
  for (const [k, v] of sortedEntries(resourceList(item.max))) errs.push(maxConstraint(type, k, v, requests, limits));
  for (const [k, v] of sortedEntries(resourceList(item.maxLimitRequestRatio))) errs.push(ratioConstraint(type, k, v, requests, limits));
  return errs.filter((e): e is string => e !== undefined);
}

/** PodValidateLimitFunc. */
export function podLimitErrors(lr: LimitRange, pod: Pod): string[] {
  const errs: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        errs.push(...checkItem('Container', item, resourceList(c.resources?.requests), resourceList(c.resources?.limits)));
      }
    }
    if (item.type === 'Pod') errs.push(...checkItem('Pod', item, podResources(pod, 'requests', false), podResources(pod, 'limits', false)));
  }
  return errs;
}

/** PersistentVolumeClaimValidateLimitFunc. */
export function pvcLimitErrors(lr: LimitRange, pvc: PersistentVolumeClaim): string[] {
  const errs: Array<string | undefined> = [];
  const requests = resourceList(pvc.spec?.resources?.requests);
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sortedEntries(resourceList(item.min))) errs.push(minConstraint('PersistentVolumeClaim', k, v, requests, new Map()));
    for (const [k, v] of sortedEntries(resourceList(item.max))) errs.push(maxRequestConstraint('PersistentVolumeClaim', k, v, requests));
  }
  return errs.filter((e): e is string => e !== undefined);
}

/** mergePodResourceRequirements: the Container items' defaults where a container states nothing, and the annotation saying so. */
export function applyDefaults(lr: LimitRange, pod: Pod): void {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  const notes: string[] = [];
  const merge = (containers: readonly Container[], what: string) => {
    for (const c of containers) {
      const res = (c.resources ??= {});
      const lim = (res.limits ??= {});
      const req = (res.requests ??= {});
      const setLimits = Object.keys(limits).filter((k) => !(k in lim)).sort();
      const setRequests = Object.keys(requests).filter((k) => !(k in req)).sort();
      for (const k of setLimits) lim[k] = limits[k]!;
      for (const k of setRequests) req[k] = requests[k]!;
      // Empty maps are dropped again, as Go's omitempty writes them.
      if (Object.keys(lim).length === 0) delete res.limits;
      if (Object.keys(req).length === 0) delete res.requests;
      if (setRequests.length > 0) notes.push(`${setRequests.join(', ')} request for ${what} ${c.name}`);
      if (setLimits.length > 0) notes.push(`${setLimits.join(', ')} limit for ${what} ${c.name}`);
    }
  };
  merge(pod.spec?.containers ?? [], 'container');
  merge(pod.spec?.initContainers ?? [], 'init container');
  if (notes.length > 0) {
    const meta = (pod.metadata ??= {});
    meta.annotations = { ...(meta.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}

/** utilerrors.NewAggregate's message: repeated messages once, one as is, several in brackets. */
function aggregate(errs: readonly string[]): string {
  const distinct = [...new Set(errs)];
  return distinct.length === 1 ? distinct[0]! : `[${distinct.join(', ')}]`;
}

export class LimitRanger implements AdmissionPlugin {
  readonly name = 'LimitRanger';

  constructor(private readonly ranges: LimitRangeLister) {}

  /** SupportsAttributes: pods on create, PVCs on create and update, no other subresource. */
  private supports(a: AdmissionAttributes): 'pod' | 'pvc' | undefined {
    if (a.subresource !== '' || a.group !== '' || !a.object || a.operation === 'DELETE') return undefined;
    if (a.oldObject?.metadata && (a.oldObject.metadata as { deletionTimestamp?: unknown }).deletionTimestamp) return undefined;
    if (a.resource === 'pods') return a.operation === 'CREATE' ? 'pod' : undefined;
    if (a.resource === 'persistentvolumeclaims') return 'pvc';
    return undefined;
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (this.supports(a) !== 'pod') return;
    for (const lr of await this.ranges.list(a.namespace)) applyDefaults(lr, a.object as Pod);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const what = this.supports(a);
    if (!what) return;
    for (const lr of await this.ranges.list(a.namespace)) {
      const errs = what === 'pod' ? podLimitErrors(lr, a.object as Pod) : pvcLimitErrors(lr, a.object as PersistentVolumeClaim);
      if (errs.length > 0) throw admissionForbidden(a, aggregate(errs));
    }
  }
}

