// core/v1 ReplicationController: ReplicaSet's predecessor, with a plain map as its selector (every
// key=value must match) and an optional (pointer) template. Field numbers are those of k8s.io/api
// core/v1 generated.proto. Defaults are set in code (setDefaultsReplicationController), not here.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';
import type { KubeObject } from '../../schema/kind.js';
import { isObj, type Obj } from '../../go-json.js';
import { defaultPodTemplateSpec } from './defaults.js';
import { PodTemplateSpec } from './pod.js';

const C = 'io.k8s.api.core.v1.';

export const ReplicationControllerSpec = struct(C + 'ReplicationControllerSpec', {
  replicas: field(t.int32, 1, { pointer: true }),
  minReadySeconds: field(t.int32, 4),
  selector: field(mapOf(t.string), 2, { mapType: 'atomic' }),
  // *PodTemplateSpec `json:"template,omitempty"`.
  template: field(PodTemplateSpec, 3, { pointer: true }),
});

export const ReplicationControllerCondition = struct(C + 'ReplicationControllerCondition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 2, { omitempty: false, required: true }),
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const ReplicationControllerStatus = struct(C + 'ReplicationControllerStatus', {
  replicas: field(t.int32, 1, { omitempty: false, required: true }),
  fullyLabeledReplicas: field(t.int32, 2),
  readyReplicas: field(t.int32, 4),
  availableReplicas: field(t.int32, 5),
  observedGeneration: field(t.int64, 3),
  conditions: field(listOf(ReplicationControllerCondition), 6, {
    patchStrategy: 'merge',
    patchMergeKey: 'type',
    listType: 'map',
    listMapKeys: ['type'],
  }),
});

export const ReplicationController = struct(C + 'ReplicationController', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ReplicationControllerSpec, 2),
  status: field(ReplicationControllerStatus, 3),
});

export const ReplicationControllerList = struct(C + 'ReplicationControllerList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ReplicationController), 2, { omitempty: false, required: true }),
});

/**
 * SetObjectDefaults_ReplicationController: SetDefaults_ReplicationController (an empty selector and
 * empty metadata.labels take the template's labels, when it has any; replicas 1), then the pod
 * template's defaults when there is a template (it is a pointer: an absent one stays absent).
 */
export function setDefaultsReplicationController(obj: KubeObject): void {
  if (!isObj(obj.spec)) obj.spec = {};
  const spec = obj.spec as Obj;
  const template = isObj(spec.template) ? spec.template : undefined;
  const labels = template && isObj(template.metadata) && isObj(template.metadata.labels) ? template.metadata.labels : undefined;
  // Go: `if labels != nil` — a template with an empty (non-nil) map still counts, but copying an
  // empty map changes nothing a client sees (both are omitted), so only non-empty maps are copied.
  if (labels && Object.keys(labels).length > 0) {
    if (!isObj(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    if (!isObj(obj.metadata)) obj.metadata = {};
    const meta = obj.metadata as Obj;
    if (!isObj(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (template) defaultPodTemplateSpec(template);
}
