// The quota evaluators (pkg/quota/v1/evaluator/core and the generic object count evaluator): for
// each group/resource, which quota resources it controls, what one object uses, the scopes it is
// in and the constraints it must meet. Shared by the ResourceQuota admission plugin and the
// resourcequota controller.
import type { PersistentVolumeClaim, Pod, Service } from '../../api/types.js';
import { isExtendedResourceName } from '../validation/resource-names.js';
import { podConstraints, podMatchesScope, podUsage, type ScopeRequirement } from './pods.js';
import { max, one, resourceList, zero, type ResourceList } from './resources.js';

export type QuotaOperation = 'CREATE' | 'UPDATE';

export interface Evaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether writes of this operation are charged (object counts: creates only). */
  handles(op: QuotaOperation): boolean;
  /** The quota resources among `names` this evaluator accounts for. */
  matchingResources(names: readonly string[]): string[];
  /** What the object uses. */
  usage(obj: Record<string, unknown>, now: number): ResourceList;
  /** Whether the object is in a scope (evaluators without scopes match none). */
  matchesScope(req: ScopeRequirement, obj: Record<string, unknown>): boolean;
  /** '' or why the object may not be admitted under a quota on `required`. */
  constraints(required: readonly string[], obj: Record<string, unknown>): string;
}

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export const objectCountName = (group: string, resource: string): string => (group === '' ? `count/${resource}` : `count/${resource}.${group}`);

const within = (names: readonly string[], set: ReadonlySet<string>) => names.filter((n) => set.has(n));
const noScope = () => false;
const noConstraints = () => '';

const POD_RESOURCES = new Set([
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
]);

const podEvaluator: Evaluator = {
  group: '',
  resource: 'pods',
  // A pod's resources change only through pods/resize, which quota admission does not serve yet.
  handles: (op) => op === 'CREATE',
  matchingResources(names) {
    const out = within(names, POD_RESOURCES);
    for (const n of names) {
      if (n.startsWith('hugepages-') || n.startsWith('requests.hugepages-')) out.push(n);
      if (n.startsWith('requests.') && isExtendedResourceName(n.slice('requests.'.length))) out.push(n);
    }
    return out;
  },
  usage: (obj, now) => podUsage(obj as Pod, now),
  matchesScope: (req, obj) => podMatchesScope(req, obj as Pod),
  constraints: (required, obj) => podConstraints(required, obj as Pod),
};

const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.loadbalancers', 'services.nodeports']);

/** serviceEvaluator.Usage: one service, load balancers, and the node ports it asks for. */
function serviceUsage(svc: Service): ResourceList {
  const out: ResourceList = new Map([
    ['count/services', one()],
    ['services', one()],
    ['services.loadbalancers', zero()],
    ['services.nodeports', zero()],
  ]);
  const ports = svc.spec?.ports ?? [];
  switch (svc.spec?.type) {
    case 'NodePort':
      out.set('services.nodeports', one().mul(ports.length));
      break;
    case 'LoadBalancer':
      // Without node port allocation only the ports that name a node port count.
      out.set('services.nodeports', one().mul(svc.spec?.allocateLoadBalancerNodePorts === false ? ports.filter((p) => (p.nodePort ?? 0) !== 0).length : ports.length));
      out.set('services.loadbalancers', one());
      break;
  }
  return out;
}

const serviceEvaluator: Evaluator = {
  group: '',
  resource: 'services',
  handles: () => true,
  matchingResources: (names) => within(names, SERVICE_RESOURCES),
  usage: (obj) => serviceUsage(obj as Service),
  matchesScope: noScope,
  constraints: noConstraints,
};

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const PVC_RESOURCES = new Set(['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage']);

function storageClassOf(pvc: PersistentVolumeClaim): string {
  const annotated = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
  return annotated ?? pvc.spec?.storageClassName ?? '';
}

/** pvcEvaluator.Usage: the claim, its storage request (or the larger allocation), per class too. */
function pvcUsage(pvc: PersistentVolumeClaim): ResourceList {
  const out: ResourceList = new Map([
    ['count/persistentvolumeclaims', one()],
    ['persistentvolumeclaims', one()],
  ]);
  const cls = storageClassOf(pvc);
  if (cls !== '') out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, one());
  const storage = max(resourceList(pvc.spec?.resources?.requests), resourceList(pvc.status?.allocatedResources)).get('storage');
  if (storage) {
    out.set('requests.storage', storage);
    if (cls !== '') out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
  return out;
}

const pvcEvaluator: Evaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  handles: () => true,
  matchingResources: (names) =>
    names.filter((n) => PVC_RESOURCES.has(n) || (n.includes(STORAGE_CLASS_SUFFIX) && (n.endsWith('/requests.storage') || n.endsWith('/persistentvolumeclaims')))),
  usage: (obj) => pvcUsage(obj as PersistentVolumeClaim),
  matchesScope: (req, obj) => {
    if (req.scopeName !== 'VolumeAttributesClass') return false;
    const cls = (obj as PersistentVolumeClaim).spec?.volumeAttributesClassName ?? '';
    if (req.operator === 'Exists') return cls !== '';
    if (req.operator === 'DoesNotExist') return cls === '';
    if (req.operator === 'In') return req.values.includes(cls);
    return !req.values.includes(cls);
  },
  constraints: noConstraints,
};

/** The core kinds whose object count also has a bare quota name (`configmaps`, `secrets`, ...). */
const LEGACY_COUNT_NAMES = new Set(['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']);

/** The generic object count evaluator of any other kind: creates count one. */
function objectCountEvaluator(group: string, resource: string): Evaluator {
  const names = new Set([objectCountName(group, resource)]);
  if (group === '' && LEGACY_COUNT_NAMES.has(resource)) names.add(resource);
  return {
    group,
    resource,
    handles: (op) => op === 'CREATE',
    matchingResources: (list) => within(list, names),
    usage: () => new Map([...names].map((n) => [n, one()])),
    matchesScope: noScope,
    constraints: noConstraints,
  };
}

const SPECIFIC: readonly Evaluator[] = [podEvaluator, serviceEvaluator, pvcEvaluator];
const generic = new Map<string, Evaluator>();

/** The evaluator of a group/resource. */
export function evaluatorFor(group: string, resource: string): Evaluator {
  const specific = SPECIFIC.find((e) => e.group === group && e.resource === resource);
  if (specific) return specific;
  const key = `${resource}.${group}`;
  let e = generic.get(key);
  if (!e) generic.set(key, (e = objectCountEvaluator(group, resource)));
  return e;
}

/** Whether the resource's usage is more than a count of its objects (pods, services, PVCs): it needs whole objects. */
export function hasSpecificEvaluator(group: string, resource: string): boolean {
  return SPECIFIC.some((e) => e.group === group && e.resource === resource);
}

/** The group/resources a quota resource name may be charged by (the controller lists these). */
export function resourcesCountedBy(name: string): Array<{ group: string; resource: string }> {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    return [dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) }];
  }
  const out = SPECIFIC.filter((e) => e.matchingResources([name]).length > 0).map((e) => ({ group: e.group, resource: e.resource }));
  if (out.length === 0 && LEGACY_COUNT_NAMES.has(name)) out.push({ group: '', resource: name });
  return out;
}
