// core/v1 ResourceQuota and LimitRange: a namespace's aggregate limits and its per-object
// limits and defaults. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';

const req = { omitempty: false, required: true } as const;

export const ResourceQuotaScopes = ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating', 'VolumeAttributesClass'] as const;
export const ScopeSelectorOperators = ['DoesNotExist', 'Exists', 'In', 'NotIn'] as const;
export const LimitTypes = ['Container', 'PersistentVolumeClaim', 'Pod'] as const;

export const ScopedResourceSelectorRequirement = struct('io.k8s.api.core.v1.ScopedResourceSelectorRequirement', {
  scopeName: field(t.string, 1, { ...req, enum: ResourceQuotaScopes }),
  operator: field(t.string, 2, { ...req, enum: ScopeSelectorOperators }),
  values: field(listOf(t.string), 3, { listType: 'atomic' }),
});

export const ScopeSelector = struct(
  'io.k8s.api.core.v1.ScopeSelector',
  { matchExpressions: field(listOf(ScopedResourceSelectorRequirement), 1, { listType: 'atomic' }) },
  { structType: 'atomic' },
);

export const ResourceQuotaSpec = struct('io.k8s.api.core.v1.ResourceQuotaSpec', {
  hard: field(mapOf(t.quantity), 1),
  scopes: field(listOf(t.string), 2, { listType: 'atomic', enum: ResourceQuotaScopes }),
  scopeSelector: field(ScopeSelector, 3, { pointer: true }),
});

export const ResourceQuotaStatus = struct('io.k8s.api.core.v1.ResourceQuotaStatus', {
  hard: field(mapOf(t.quantity), 1),
  used: field(mapOf(t.quantity), 2),
});

export const ResourceQuota = struct('io.k8s.api.core.v1.ResourceQuota', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ResourceQuotaSpec, 2),
  status: field(ResourceQuotaStatus, 3),
});

export const ResourceQuotaList = struct('io.k8s.api.core.v1.ResourceQuotaList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ResourceQuota), 2, req),
});

export const LimitRangeItem = struct('io.k8s.api.core.v1.LimitRangeItem', {
  type: field(t.string, 1, { ...req, enum: LimitTypes }),
  max: field(mapOf(t.quantity), 2),
  min: field(mapOf(t.quantity), 3),
  default: field(mapOf(t.quantity), 4),
  defaultRequest: field(mapOf(t.quantity), 5),
  maxLimitRequestRatio: field(mapOf(t.quantity), 6),
});

export const LimitRangeSpec = struct('io.k8s.api.core.v1.LimitRangeSpec', {
  limits: field(listOf(LimitRangeItem), 1, { ...req, listType: 'atomic' }),
});

export const LimitRange = struct('io.k8s.api.core.v1.LimitRange', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(LimitRangeSpec, 2),
});

export const LimitRangeList = struct('io.k8s.api.core.v1.LimitRangeList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(LimitRange), 2, req),
});

export const ComponentCondition = struct('io.k8s.api.core.v1.ComponentCondition', {
  type: field(t.string, 1, req),
  status: field(t.string, 2, req),
  message: field(t.string, 3),
  error: field(t.string, 4),
});

/** Deprecated in 1.19 but served: the health of the control plane's components, computed on read. */
export const ComponentStatus = struct('io.k8s.api.core.v1.ComponentStatus', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  conditions: field(listOf(ComponentCondition), 2, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
});

export const ComponentStatusList = struct('io.k8s.api.core.v1.ComponentStatusList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ComponentStatus), 2, req),
});

type Json = Record<string, unknown>;
const jsonMap = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/**
 * SetDefaults_LimitRangeItem for every item of a LimitRange: a Container item's default limit is
 * its max where unset, its default request the default limit, else the min.
 */
export function setDefaultsLimitRange(obj: Json): void {
  const limits = jsonMap(obj.spec).limits;
  if (!Array.isArray(limits)) return;
  for (const raw of limits) {
    const item = jsonMap(raw);
    if (item.type !== 'Container') continue;
    const def = { ...jsonMap(item.default) };
    const defReq = { ...jsonMap(item.defaultRequest) };
    for (const [k, v] of Object.entries(jsonMap(item.max))) if (!(k in def)) def[k] = v;
    for (const [k, v] of Object.entries(def)) if (!(k in defReq)) defReq[k] = v;
    for (const [k, v] of Object.entries(jsonMap(item.min))) if (!(k in defReq)) defReq[k] = v;
    if (Object.keys(def).length > 0) item.default = def;
    if (Object.keys(defReq).length > 0) item.defaultRequest = defReq;
  }
}
