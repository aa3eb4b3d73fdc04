// apps/v1 (k8s.io/api/apps/v1): Deployment, ReplicaSet, DaemonSet, StatefulSet, ControllerRevision.
// The storage version of all five kinds; apps/v1beta2, apps/v1beta1 and extensions/v1beta1 derive
// their structs from these (see ../schema/derive.ts). Field numbers are those of apps/v1
// generated.proto. Defaults are set by ./defaults.ts, not declared here (Kubernetes sets them in
// code, so its OpenAPI has none).
import { PersistentVolumeClaim } from '../core/v1/persistentvolumeclaim.js';
import { PodTemplateSpec } from '../core/v1/pod.js';
import { LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.apps.v1.';

/** `conditions` of every workload status: merged by type. */
const conditionsOptions = {
  patchStrategy: 'merge',
  patchMergeKey: 'type',
  listType: 'map',
  listMapKeys: ['type'],
} as const;
const conditionType = field(t.string, 1, { omitempty: false, required: true });
const conditionStatus = field(t.string, 2, { omitempty: false, required: true });

// ---- StatefulSet ----

export const RollingUpdateStatefulSetStrategy = struct(G + 'RollingUpdateStatefulSetStrategy', {
  partition: field(t.int32, 1, { pointer: true }),
  /** Needs the MaxUnavailableStatefulSet feature gate. */
  maxUnavailable: field(t.intOrString, 2, { pointer: true }),
});

export const StatefulSetUpdateStrategy = struct(G + 'StatefulSetUpdateStrategy', {
  type: field(t.string, 1, { enum: ['OnDelete', 'RollingUpdate'] }),
  rollingUpdate: field(RollingUpdateStatefulSetStrategy, 2, { pointer: true }),
});

export const StatefulSetPersistentVolumeClaimRetentionPolicy = struct(
  G + 'StatefulSetPersistentVolumeClaimRetentionPolicy',
  {
    whenDeleted: field(t.string, 1),
    whenScaled: field(t.string, 2),
  },
);

export const StatefulSetOrdinals = struct(G + 'StatefulSetOrdinals', {
  // `json:"start"`: written even when 0.
  start: field(t.int32, 1, { omitempty: false }),
});

export const StatefulSetSpec = struct(G + 'StatefulSetSpec', {
  replicas: field(t.int32, 1, { pointer: true }),
  selector: field(LabelSelector, 2, { pointer: true, omitempty: false, required: true }),
  template: field(PodTemplateSpec, 3, { omitempty: false, required: true }),
  volumeClaimTemplates: field(listOf(PersistentVolumeClaim), 4, { listType: 'atomic' }),
  // `json:"serviceName"` (written even when empty); optional since v1.33.
  serviceName: field(t.string, 5, { omitempty: false }),
  podManagementPolicy: field(t.string, 6, { enum: ['OrderedReady', 'Parallel'] }),
  updateStrategy: field(StatefulSetUpdateStrategy, 7),
  revisionHistoryLimit: field(t.int32, 8, { pointer: true }),
  minReadySeconds: field(t.int32, 9),
  persistentVolumeClaimRetentionPolicy: field(StatefulSetPersistentVolumeClaimRetentionPolicy, 10, { pointer: true }),
  ordinals: field(StatefulSetOrdinals, 11, { pointer: true }),
});

export const StatefulSetCondition = struct(G + 'StatefulSetCondition', {
  type: conditionType,
  status: conditionStatus,
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const StatefulSetStatus = struct(G + 'StatefulSetStatus', {
  observedGeneration: field(t.int64, 1),
  replicas: field(t.int32, 2, { omitempty: false, required: true }),
  readyReplicas: field(t.int32, 3),
  currentReplicas: field(t.int32, 4),
  updatedReplicas: field(t.int32, 5),
  currentRevision: field(t.string, 6),
  updateRevision: field(t.string, 7),
  collisionCount: field(t.int32, 9, { pointer: true }),
  conditions: field(listOf(StatefulSetCondition), 10, conditionsOptions),
  // `json:"availableReplicas"` (no omitempty) but +optional.
  availableReplicas: field(t.int32, 11, { omitempty: false }),
});

export const StatefulSet = struct(G + 'StatefulSet', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(StatefulSetSpec, 2),
  status: field(StatefulSetStatus, 3),
});

export const StatefulSetList = struct(G + 'StatefulSetList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(StatefulSet), 2, { omitempty: false, required: true }),
});

// ---- Deployment ----

export const RollingUpdateDeployment = struct(G + 'RollingUpdateDeployment', {
  maxUnavailable: field(t.intOrString, 1, { pointer: true, description: 'How many pods (a number or a percentage of the desired count) may be unavailable during the update. Defaults to 25%.' }),
  maxSurge: field(t.intOrString, 2, { pointer: true, description: 'How many pods (a number or a percentage of the desired count) may exist above the desired count during the update. Defaults to 25%.' }),
}, { description: 'Limits on how fast a rolling update replaces pods.' });

export const DeploymentStrategy = struct(G + 'DeploymentStrategy', {
  type: field(t.string, 1, { enum: ['Recreate', 'RollingUpdate'], description: 'How old pods are replaced: RollingUpdate (the default) or Recreate (all old pods are removed first).' }),
  rollingUpdate: field(RollingUpdateDeployment, 2, { pointer: true, description: 'Parameters of a RollingUpdate; only with type RollingUpdate.' }),
}, { description: 'How a deployment replaces old pods with new ones.' });

export const DeploymentSpec = struct(G + 'DeploymentSpec', {
  replicas: field(t.int32, 1, { pointer: true, description: 'The number of pods wanted. Defaults to 1.' }),
  selector: field(LabelSelector, 2, { pointer: true, omitempty: false, required: true, description: 'Which pods belong to the deployment. Must match the template\'s labels; cannot be changed in apps/v1.' }),
  template: field(PodTemplateSpec, 3, { omitempty: false, required: true, description: 'The pods the deployment creates.' }),
  strategy: field(DeploymentStrategy, 4, { patchStrategy: 'retainKeys', description: 'How pods are replaced when the template changes.' }),
  minReadySeconds: field(t.int32, 5, { description: 'Seconds a new pod must be ready, without crashing, to count as available. Defaults to 0.' }),
  revisionHistoryLimit: field(t.int32, 6, { pointer: true, description: 'How many old ReplicaSets to keep for rollback. Defaults to 10.' }),
  paused: field(t.bool, 7, { description: 'When true, changes to the template start no rollout.' }),
  progressDeadlineSeconds: field(t.int32, 9, { pointer: true, description: 'Seconds a rollout may go without progress before it is reported as failed (ProgressDeadlineExceeded). Defaults to 600.' }),
}, { description: 'The desired state of a deployment.' });

export const DeploymentCondition = struct(G + 'DeploymentCondition', {
  type: conditionType,
  status: conditionStatus,
  lastUpdateTime: field(t.time, 6),
  lastTransitionTime: field(t.time, 7),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const DeploymentStatus = struct(G + 'DeploymentStatus', {
  observedGeneration: field(t.int64, 1, { description: 'The generation of the deployment the controller last acted on.' }),
  replicas: field(t.int32, 2, { description: 'Number of pods targeted by the deployment, of any template version.' }),
  updatedReplicas: field(t.int32, 3, { description: 'Number of pods with the current template.' }),
  readyReplicas: field(t.int32, 7, { description: 'Number of pods that are ready.' }),
  availableReplicas: field(t.int32, 4, { description: 'Number of pods ready for at least minReadySeconds.' }),
  unavailableReplicas: field(t.int32, 5, { description: 'Number of pods still needed for the deployment to be fully available.' }),
  /** Needs the DeploymentReplicaSetTerminatingReplicas feature gate (alpha in 1.33). */
  terminatingReplicas: field(t.int32, 9, { pointer: true }),
  conditions: field(listOf(DeploymentCondition), 6, { ...conditionsOptions, description: 'Observations about the rollout: Available, Progressing, ReplicaFailure.' }),
  collisionCount: field(t.int32, 8, { pointer: true }),
}, { description: 'The observed state of a deployment, written by its controller.' });

export const Deployment = struct(G + 'Deployment', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1, { description: 'The object\'s name, namespace, labels and other metadata.' }),
  spec: field(DeploymentSpec, 2, { description: 'The desired state of the deployment.' }),
  status: field(DeploymentStatus, 3, { description: 'The most recently observed state of the deployment. Read-only.' }),
}, { description: 'Declarative updates for pods and ReplicaSets: keeps a number of pods of a template running and rolls out template changes.' });

export const DeploymentList = struct(G + 'DeploymentList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Deployment), 2, { omitempty: false, required: true }),
});

// ---- DaemonSet ----

export const RollingUpdateDaemonSet = struct(G + 'RollingUpdateDaemonSet', {
  maxUnavailable: field(t.intOrString, 1, { pointer: true }),
  maxSurge: field(t.intOrString, 2, { pointer: true }),
});

export const DaemonSetUpdateStrategy = struct(G + 'DaemonSetUpdateStrategy', {
  type: field(t.string, 1, { enum: ['OnDelete', 'RollingUpdate'] }),
  rollingUpdate: field(RollingUpdateDaemonSet, 2, { pointer: true }),
});

export const DaemonSetSpec = struct(G + 'DaemonSetSpec', {
  selector: field(LabelSelector, 1, { pointer: true, omitempty: false, required: true }),
  template: field(PodTemplateSpec, 2, { omitempty: false, required: true }),
  updateStrategy: field(DaemonSetUpdateStrategy, 3),
  minReadySeconds: field(t.int32, 4),
  revisionHistoryLimit: field(t.int32, 6, { pointer: true }),
});

export const DaemonSetCondition = struct(G + 'DaemonSetCondition', {
  type: conditionType,
  status: conditionStatus,
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const DaemonSetStatus = struct(G + 'DaemonSetStatus', {
  currentNumberScheduled: field(t.int32, 1, { omitempty: false, required: true }),
  numberMisscheduled: field(t.int32, 2, { omitempty: false, required: true }),
  desiredNumberScheduled: field(t.int32, 3, { omitempty: false, required: true }),
  numberReady: field(t.int32, 4, { omitempty: false, required: true }),
  observedGeneration: field(t.int64, 5),
  updatedNumberScheduled: field(t.int32, 6),
  numberAvailable: field(t.int32, 7),
  numberUnavailable: field(t.int32, 8),
  collisionCount: field(t.int32, 9, { pointer: true }),
  conditions: field(listOf(DaemonSetCondition), 10, conditionsOptions),
});

export const DaemonSet = struct(G + 'DaemonSet', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(DaemonSetSpec, 2),
  status: field(DaemonSetStatus, 3),
});

export const DaemonSetList = struct(G + 'DaemonSetList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(DaemonSet), 2, { omitempty: false, required: true }),
});

// ---- ReplicaSet ----

export const ReplicaSetSpec = struct(G + 'ReplicaSetSpec', {
  replicas: field(t.int32, 1, { pointer: true }),
  minReadySeconds: field(t.int32, 4),
  selector: field(LabelSelector, 2, { pointer: true, omitempty: false, required: true }),
  // `json:"template,omitempty"` and +optional (unlike the other workloads).
  template: field(PodTemplateSpec, 3),
});

export const ReplicaSetCondition = struct(G + 'ReplicaSetCondition', {
  type: conditionType,
  status: conditionStatus,
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const ReplicaSetStatus = struct(G + 'ReplicaSetStatus', {
  replicas: field(t.int32, 1, { omitempty: false, required: true }),
  fullyLabeledReplicas: field(t.int32, 2),
  readyReplicas: field(t.int32, 4),
  availableReplicas: field(t.int32, 5),
  /** Needs the DeploymentReplicaSetTerminatingReplicas feature gate (alpha in 1.33). */
  terminatingReplicas: field(t.int32, 7, { pointer: true }),
  observedGeneration: field(t.int64, 3),
  conditions: field(listOf(ReplicaSetCondition), 6, conditionsOptions),
});

export const ReplicaSet = struct(G + 'ReplicaSet', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ReplicaSetSpec, 2),
  status: field(ReplicaSetStatus, 3),
});

export const ReplicaSetList = struct(G + 'ReplicaSetList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ReplicaSet), 2, { omitempty: false, required: true }),
});

// ---- ControllerRevision ----

export const ControllerRevision = struct(G + 'ControllerRevision', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  data: field(t.rawExtension, 2),
  revision: field(t.int64, 3, { omitempty: false, required: true }),
});

export const ControllerRevisionList = struct(G + 'ControllerRevisionList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ControllerRevision), 2, { omitempty: false, required: true }),
});
