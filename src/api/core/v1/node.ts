// core/v1 Node. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';

const required = { omitempty: false, required: true } as const;

/** A taint repels pods that do not tolerate it. timeAdded is only written for NoExecute taints. */
export const Taint = struct('io.k8s.api.core.v1.Taint', {
  key: field(t.string, 1, required),
  value: field(t.string, 2),
  effect: field(t.string, 3, { ...required, enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] }),
  timeAdded: field(t.time, 4, { pointer: true }),
});

/** Deprecated (dynamic kubelet config was removed); kept for wire compatibility. */
export const ConfigMapNodeConfigSource = struct('io.k8s.api.core.v1.ConfigMapNodeConfigSource', {
  namespace: field(t.string, 1, required),
  name: field(t.string, 2, required),
  uid: field(t.string, 3),
  resourceVersion: field(t.string, 4),
  kubeletConfigKey: field(t.string, 5, required),
});

/** Deprecated. (Tag 1 was the old configMapRef.) */
export const NodeConfigSource = struct('io.k8s.api.core.v1.NodeConfigSource', {
  configMap: field(ConfigMapNodeConfigSource, 2, { pointer: true }),
});

export const NodeSpec = struct('io.k8s.api.core.v1.NodeSpec', {
  podCIDR: field(t.string, 1),
  podCIDRs: field(listOf(t.string), 7, { patchStrategy: 'merge', listType: 'set' }),
  providerID: field(t.string, 3),
  unschedulable: field(t.bool, 4),
  taints: field(listOf(Taint), 5, { listType: 'atomic' }),
  configSource: field(NodeConfigSource, 6, { pointer: true }),
  /** Deprecated; Go field DoNotUseExternalID. */
  externalID: field(t.string, 2),
});

export const NodeCondition = struct('io.k8s.api.core.v1.NodeCondition', {
  type: field(t.string, 1, required),
  status: field(t.string, 2, required),
  lastHeartbeatTime: field(t.time, 3),
  lastTransitionTime: field(t.time, 4),
  reason: field(t.string, 5),
  message: field(t.string, 6),
});

/** type: Hostname, InternalIP, ExternalIP, InternalDNS, ExternalDNS. */
export const NodeAddress = struct('io.k8s.api.core.v1.NodeAddress', {
  type: field(t.string, 1, required),
  address: field(t.string, 2, required),
});

/** The JSON name is `Port` (capitalized), for historical reasons. */
export const DaemonEndpoint = struct('io.k8s.api.core.v1.DaemonEndpoint', {
  Port: field(t.int32, 1, required),
});

export const NodeDaemonEndpoints = struct('io.k8s.api.core.v1.NodeDaemonEndpoints', {
  kubeletEndpoint: field(DaemonEndpoint, 1),
});

export const NodeSwapStatus = struct('io.k8s.api.core.v1.NodeSwapStatus', {
  capacity: field(t.int64, 1, { pointer: true }),
});

export const NodeSystemInfo = struct('io.k8s.api.core.v1.NodeSystemInfo', {
  machineID: field(t.string, 1, required),
  systemUUID: field(t.string, 2, required),
  bootID: field(t.string, 3, required),
  kernelVersion: field(t.string, 4, required),
  osImage: field(t.string, 5, required),
  containerRuntimeVersion: field(t.string, 6, required),
  kubeletVersion: field(t.string, 7, required),
  kubeProxyVersion: field(t.string, 8, required),
  operatingSystem: field(t.string, 9, required),
  architecture: field(t.string, 10, required),
  swap: field(NodeSwapStatus, 11, { pointer: true }),
});

export const ContainerImage = struct('io.k8s.api.core.v1.ContainerImage', {
  // No omitempty in Go (`json:"names"`), but optional.
  names: field(listOf(t.string), 1, { omitempty: false, listType: 'atomic' }),
  sizeBytes: field(t.int64, 2),
});

export const AttachedVolume = struct('io.k8s.api.core.v1.AttachedVolume', {
  name: field(t.string, 1, required),
  devicePath: field(t.string, 2, required),
});

/** Deprecated, like NodeConfigSource. */
export const NodeConfigStatus = struct('io.k8s.api.core.v1.NodeConfigStatus', {
  assigned: field(NodeConfigSource, 1, { pointer: true }),
  active: field(NodeConfigSource, 2, { pointer: true }),
  lastKnownGood: field(NodeConfigSource, 3, { pointer: true }),
  error: field(t.string, 4),
});

export const NodeRuntimeHandlerFeatures = struct('io.k8s.api.core.v1.NodeRuntimeHandlerFeatures', {
  recursiveReadOnlyMounts: field(t.bool, 1, { pointer: true }),
  userNamespaces: field(t.bool, 2, { pointer: true }),
});

export const NodeRuntimeHandler = struct('io.k8s.api.core.v1.NodeRuntimeHandler', {
  // No omitempty in Go (`json:"name"`): "" is the default handler.
  name: field(t.string, 1, { omitempty: false }),
  features: field(NodeRuntimeHandlerFeatures, 2, { pointer: true }),
});

export const NodeFeatures = struct('io.k8s.api.core.v1.NodeFeatures', {
  supplementalGroupsPolicy: field(t.bool, 1, { pointer: true }),
});

export const NodeStatus = struct('io.k8s.api.core.v1.NodeStatus', {
  capacity: field(mapOf(t.quantity), 1),
  allocatable: field(mapOf(t.quantity), 2),
  /** Deprecated, never populated. */
  phase: field(t.string, 3, { enum: ['Pending', 'Running', 'Terminated'] }),
  conditions: field(listOf(NodeCondition), 4, {
    patchStrategy: 'merge',
    patchMergeKey: 'type',
    listType: 'map',
    listMapKeys: ['type'],
  }),
  addresses: field(listOf(NodeAddress), 5, {
    patchStrategy: 'merge',
    patchMergeKey: 'type',
    listType: 'map',
    listMapKeys: ['type'],
  }),
  daemonEndpoints: field(NodeDaemonEndpoints, 6),
  nodeInfo: field(NodeSystemInfo, 7),
  images: field(listOf(ContainerImage), 8, { listType: 'atomic' }),
  volumesInUse: field(listOf(t.string), 9, { listType: 'atomic' }),
  volumesAttached: field(listOf(AttachedVolume), 10, { listType: 'atomic' }),
  config: field(NodeConfigStatus, 11, { pointer: true }),
  runtimeHandlers: field(listOf(NodeRuntimeHandler), 12, { listType: 'atomic' }),
  features: field(NodeFeatures, 13, { pointer: true }),
});

export const Node = struct('io.k8s.api.core.v1.Node', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(NodeSpec, 2),
  status: field(NodeStatus, 3),
});

export const NodeList = struct('io.k8s.api.core.v1.NodeList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Node), 2, { omitempty: false, required: true }),
});
