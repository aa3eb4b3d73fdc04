// core/v1 Pod, PodList, PodTemplate, PodTemplateList, PodTemplateSpec: PodSpec and PodStatus and
// the small types only they use. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';
import { Affinity, Toleration, TopologySpreadConstraint } from './affinity.js';
import { Container, EphemeralContainer, ResourceRequirements } from './container.js';
import { Signal } from './probe.js';
import { LocalObjectReference } from './references.js';
import { PodSecurityContext } from './security.js';
import { Volume } from './volume.js';

const req = { omitempty: false, required: true } as const;

export const RestartPolicy = ['Always', 'Never', 'OnFailure'] as const;
export const DNSPolicy = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'] as const;
export const PreemptionPolicy = ['Never', 'PreemptLowerPriority'] as const;
export const PodPhase = ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'] as const;
export const PodQOSClass = ['BestEffort', 'Burstable', 'Guaranteed'] as const;

export const HostAlias = struct('io.k8s.api.core.v1.HostAlias', {
  ip: field(t.string, 1, req),
  hostnames: field(listOf(t.string), 2, { listType: 'atomic' }),
});

export const PodDNSConfigOption = struct('io.k8s.api.core.v1.PodDNSConfigOption', {
  name: field(t.string, 1),
  value: field(t.string, 2, { pointer: true }),
});

export const PodDNSConfig = struct('io.k8s.api.core.v1.PodDNSConfig', {
  nameservers: field(listOf(t.string), 1, { listType: 'atomic' }),
  searches: field(listOf(t.string), 2, { listType: 'atomic' }),
  options: field(listOf(PodDNSConfigOption), 3, { listType: 'atomic' }),
});

export const PodReadinessGate = struct('io.k8s.api.core.v1.PodReadinessGate', {
  conditionType: field(t.string, 1, req),
});

export const PodOS = struct('io.k8s.api.core.v1.PodOS', {
  name: field(t.string, 1, req),
});

export const PodSchedulingGate = struct('io.k8s.api.core.v1.PodSchedulingGate', {
  name: field(t.string, 1, req),
});

/** A ResourceClaim (or a template for one) the pod uses, by the name containers refer to it with. */
export const PodResourceClaim = struct('io.k8s.api.core.v1.PodResourceClaim', {
  name: field(t.string, 1, req),
  // Tag 2 (source) is reserved: replaced by the two fields below in v1.31.
  resourceClaimName: field(t.string, 3, { pointer: true }),
  resourceClaimTemplateName: field(t.string, 4, { pointer: true }),
});

export const PodSpec = struct('io.k8s.api.core.v1.PodSpec', {
  volumes: field(listOf(Volume), 1, {
    description: 'Volumes the containers of this pod can mount.',
    patchStrategy: 'merge,retainKeys',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  initContainers: field(listOf(Container), 20, {
    description: 'Containers run one after the other, each to completion, before the app containers start.',
    patchStrategy: 'merge',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  containers: field(listOf(Container), 2, {
    description: 'The containers of the pod. At least one; they cannot be added or removed after creation.',
    ...req,
    patchStrategy: 'merge',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  ephemeralContainers: field(listOf(EphemeralContainer), 34, {
    patchStrategy: 'merge',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  restartPolicy: field(t.string, 3, { enum: RestartPolicy, description: 'When containers are restarted after they exit: Always (the default), OnFailure or Never.' }),
  terminationGracePeriodSeconds: field(t.int64, 4, { pointer: true, description: 'Seconds the pod is given to stop gracefully when deleted before it is killed. Defaults to 30.' }),
  activeDeadlineSeconds: field(t.int64, 5, { pointer: true }),
  dnsPolicy: field(t.string, 6, { enum: DNSPolicy }),
  nodeSelector: field(mapOf(t.string), 7, { mapType: 'atomic', description: 'Labels a node must have for the pod to be scheduled there.' }),
  serviceAccountName: field(t.string, 8, { description: 'The service account the pod runs as.' }),
  // DeprecatedServiceAccount in Go.
  serviceAccount: field(t.string, 9),
  automountServiceAccountToken: field(t.bool, 21, { pointer: true }),
  nodeName: field(t.string, 10, { description: 'The node the pod is bound to. Set by the scheduler; setting it yourself skips scheduling.' }),
  hostNetwork: field(t.bool, 11),
  hostPID: field(t.bool, 12),
  hostIPC: field(t.bool, 13),
  shareProcessNamespace: field(t.bool, 27, { pointer: true }),
  securityContext: field(PodSecurityContext, 14, { pointer: true }),
  imagePullSecrets: field(listOf(LocalObjectReference), 15, {
    patchStrategy: 'merge',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  hostname: field(t.string, 16),
  subdomain: field(t.string, 17),
  affinity: field(Affinity, 18, { pointer: true, description: 'Rules that attract or repel the pod to/from nodes and other pods when scheduling.' }),
  schedulerName: field(t.string, 19),
  tolerations: field(listOf(Toleration), 22, { listType: 'atomic', description: 'Taints of nodes that this pod accepts.' }),
  hostAliases: field(listOf(HostAlias), 23, {
    patchStrategy: 'merge',
    patchMergeKey: 'ip',
    listType: 'map',
    listMapKeys: ['ip'],
  }),
  priorityClassName: field(t.string, 24),
  priority: field(t.int32, 25, { pointer: true }),
  dnsConfig: field(PodDNSConfig, 26, { pointer: true }),
  readinessGates: field(listOf(PodReadinessGate), 28, { listType: 'atomic' }),
  runtimeClassName: field(t.string, 29, { pointer: true }),
  enableServiceLinks: field(t.bool, 30, { pointer: true }),
  preemptionPolicy: field(t.string, 31, { pointer: true, enum: PreemptionPolicy }),
  overhead: field(mapOf(t.quantity), 32),
  topologySpreadConstraints: field(listOf(TopologySpreadConstraint), 33, {
    patchStrategy: 'merge',
    patchMergeKey: 'topologyKey',
    listType: 'map',
    listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
  }),
  setHostnameAsFQDN: field(t.bool, 35, { pointer: true }),
  os: field(PodOS, 36, { pointer: true }),
  hostUsers: field(t.bool, 37, { pointer: true }),
  schedulingGates: field(listOf(PodSchedulingGate), 38, {
    patchStrategy: 'merge',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  resourceClaims: field(listOf(PodResourceClaim), 39, {
    patchStrategy: 'merge,retainKeys',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  // Pod-level requests and limits (PodLevelResources, v1.32).
  resources: field(ResourceRequirements, 40, { pointer: true }),
  // HostnameOverride, v1.34.
  hostnameOverride: field(t.string, 41, { pointer: true }),
}, { description: 'What a pod should run: its containers, volumes and scheduling constraints.' });

// ---- status ----

export const ContainerStateWaiting = struct('io.k8s.api.core.v1.ContainerStateWaiting', {
  reason: field(t.string, 1),
  message: field(t.string, 2),
});

export const ContainerStateRunning = struct('io.k8s.api.core.v1.ContainerStateRunning', {
  // A non-pointer Time: written always (`null` when zero).
  startedAt: field(t.time, 1),
});

export const ContainerStateTerminated = struct('io.k8s.api.core.v1.ContainerStateTerminated', {
  exitCode: field(t.int32, 1, req),
  signal: field(t.int32, 2),
  reason: field(t.string, 3),
  message: field(t.string, 4),
  startedAt: field(t.time, 5),
  finishedAt: field(t.time, 6),
  containerID: field(t.string, 7),
});

export const ContainerState = struct('io.k8s.api.core.v1.ContainerState', {
  waiting: field(ContainerStateWaiting, 1, { pointer: true }),
  running: field(ContainerStateRunning, 2, { pointer: true }),
  terminated: field(ContainerStateTerminated, 3, { pointer: true }),
});

export const LinuxContainerUser = struct('io.k8s.api.core.v1.LinuxContainerUser', {
  uid: field(t.int64, 1, req),
  gid: field(t.int64, 2, req),
  supplementalGroups: field(listOf(t.int64), 3, { listType: 'atomic' }),
});

export const ContainerUser = struct('io.k8s.api.core.v1.ContainerUser', {
  linux: field(LinuxContainerUser, 1, { pointer: true }),
});

export const VolumeMountStatus = struct('io.k8s.api.core.v1.VolumeMountStatus', {
  name: field(t.string, 1, req),
  mountPath: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
  recursiveReadOnly: field(t.string, 4, { pointer: true }),
});

/** Health of one device allocated to a container (ResourceHealthStatus). */
export const ResourceHealth = struct('io.k8s.api.core.v1.ResourceHealth', {
  resourceID: field(t.string, 1, req),
  health: field(t.string, 2),
});

export const ResourceStatus = struct('io.k8s.api.core.v1.ResourceStatus', {
  name: field(t.string, 1, req),
  resources: field(listOf(ResourceHealth), 2, { listType: 'map', listMapKeys: ['resourceID'] }),
});

export const ContainerStatus = struct('io.k8s.api.core.v1.ContainerStatus', {
  name: field(t.string, 1, req),
  // Non-pointer structs: written always.
  state: field(ContainerState, 2),
  lastState: field(ContainerState, 3),
  ready: field(t.bool, 4, req),
  restartCount: field(t.int32, 5, req),
  image: field(t.string, 6, req),
  imageID: field(t.string, 7, req),
  containerID: field(t.string, 8),
  started: field(t.bool, 9, { pointer: true }),
  allocatedResources: field(mapOf(t.quantity), 10),
  resources: field(ResourceRequirements, 11, { pointer: true }),
  volumeMounts: field(listOf(VolumeMountStatus), 12, {
    patchStrategy: 'merge',
    patchMergeKey: 'mountPath',
    listType: 'map',
    listMapKeys: ['mountPath'],
  }),
  user: field(ContainerUser, 13, { pointer: true }),
  allocatedResourcesStatus: field(listOf(ResourceStatus), 14, {
    patchStrategy: 'merge',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  stopSignal: field(t.string, 15, { pointer: true, enum: Signal }),
});

export const PodCondition = struct('io.k8s.api.core.v1.PodCondition', {
  type: field(t.string, 1, req),
  // PodObservedGenerationTracking, v1.33: a non-pointer int64, so Go's protobuf encoder writes it always.
  observedGeneration: field(t.int64, 7),
  status: field(t.string, 2, req),
  lastProbeTime: field(t.time, 3),
  lastTransitionTime: field(t.time, 4),
  reason: field(t.string, 5),
  message: field(t.string, 6),
});

export const PodIP = struct('io.k8s.api.core.v1.PodIP', {
  ip: field(t.string, 1, req),
});

export const HostIP = struct('io.k8s.api.core.v1.HostIP', {
  ip: field(t.string, 1, req),
});

export const PodResourceClaimStatus = struct('io.k8s.api.core.v1.PodResourceClaimStatus', {
  name: field(t.string, 1, req),
  resourceClaimName: field(t.string, 2, { pointer: true }),
});

/** Which container's extended resource maps to which request of the scheduler-made claim (DRAExtendedResource, v1.34). */
export const ContainerExtendedResourceRequest = struct('io.k8s.api.core.v1.ContainerExtendedResourceRequest', {
  containerName: field(t.string, 1, req),
  resourceName: field(t.string, 2, req),
  requestName: field(t.string, 3, req),
});

export const PodExtendedResourceClaimStatus = struct('io.k8s.api.core.v1.PodExtendedResourceClaimStatus', {
  requestMappings: field(listOf(ContainerExtendedResourceRequest), 1, { ...req, listType: 'atomic' }),
  resourceClaimName: field(t.string, 2, req),
});

export const PodStatus = struct('io.k8s.api.core.v1.PodStatus', {
  // PodObservedGenerationTracking, v1.33: a non-pointer int64, so Go's protobuf encoder writes it always.
  observedGeneration: field(t.int64, 17),
  phase: field(t.string, 1, { enum: PodPhase, description: 'Summary of where the pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.' }),
  conditions: field(listOf(PodCondition), 2, {
    description: 'Observations about the pod, such as PodScheduled, Initialized, ContainersReady and Ready.',
    patchStrategy: 'merge',
    patchMergeKey: 'type',
    listType: 'map',
    listMapKeys: ['type'],
  }),
  message: field(t.string, 3, { description: 'A human-readable note on why the pod is in its condition.' }),
  reason: field(t.string, 4, { description: 'A brief CamelCase word on why the pod is in its state, e.g. Evicted.' }),
  nominatedNodeName: field(t.string, 11),
  hostIP: field(t.string, 5, { description: 'IP address of the node the pod runs on.' }),
  hostIPs: field(listOf(HostIP), 16, { patchStrategy: 'merge', patchMergeKey: 'ip', listType: 'atomic' }),
  podIP: field(t.string, 6, { description: 'IP address given to the pod. Empty until one is allocated.' }),
  podIPs: field(listOf(PodIP), 12, { patchStrategy: 'merge', patchMergeKey: 'ip', listType: 'map', listMapKeys: ['ip'] }),
  startTime: field(t.time, 7, { pointer: true, description: 'When the kubelet accepted the pod, before its images were pulled.' }),
  initContainerStatuses: field(listOf(ContainerStatus), 10, { listType: 'atomic' }),
  containerStatuses: field(listOf(ContainerStatus), 8, { listType: 'atomic', description: 'The state of each app container, as last reported.' }),
  qosClass: field(t.string, 9, { enum: PodQOSClass, description: 'The quality-of-service class derived from the resource requests and limits: Guaranteed, Burstable or BestEffort.' }),
  ephemeralContainerStatuses: field(listOf(ContainerStatus), 13, { listType: 'atomic' }),
  // Deprecated (v1.33) in favour of the PodResizePending/PodResizeInProgress conditions; still served.
  resize: field(t.string, 14),
  resourceClaimStatuses: field(listOf(PodResourceClaimStatus), 15, {
    patchStrategy: 'merge,retainKeys',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  extendedResourceClaimStatus: field(PodExtendedResourceClaimStatus, 18, { pointer: true }),
}, { description: 'The observed state of a pod, reported by its node. Read-only for users.' });

// ---- top-level kinds ----

export const Pod = struct('io.k8s.api.core.v1.Pod', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1, { description: 'The object\'s name, namespace, labels and other metadata.' }),
  spec: field(PodSpec, 2, { description: 'The desired state of the pod.' }),
  status: field(PodStatus, 3, { description: 'The most recently observed state of the pod. Read-only.' }),
}, { description: 'A group of containers that run together on one node, sharing network and storage.' });

export const PodList = struct('io.k8s.api.core.v1.PodList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Pod), 2, req),
});

export const PodTemplateSpec = struct('io.k8s.api.core.v1.PodTemplateSpec', {
  metadata: field(ObjectMeta, 1, { description: 'Labels and annotations given to the pods made from this template.' }),
  spec: field(PodSpec, 2, { description: 'The spec of the pods made from this template.' }),
}, { description: 'The pods a controller creates: their metadata and spec.' });

export const PodTemplate = struct('io.k8s.api.core.v1.PodTemplate', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  template: field(PodTemplateSpec, 2),
});

export const PodTemplateList = struct('io.k8s.api.core.v1.PodTemplateList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PodTemplate), 2, req),
});
