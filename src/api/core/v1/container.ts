// core/v1 containers: Container, EphemeralContainer (with its inline EphemeralContainerCommon),
// ports, env, resources, mounts, resize and restart rules.
import { field, inline, listOf, mapOf, struct, t } from '../../schema/dsl.js';
import { Lifecycle, Probe } from './probe.js';
import { LocalObjectReference } from './references.js';
import { SecurityContext } from './security.js';
import { ConfigMapKeySelector, FileKeySelector, ObjectFieldSelector, ResourceFieldSelector, SecretKeySelector } from './selectors.js';
import { PullPolicy } from './volume.js';

const req = { omitempty: false, required: true } as const;

export const Protocol = ['SCTP', 'TCP', 'UDP'] as const;
export const TerminationMessagePolicy = ['FallbackToLogsOnError', 'File'] as const;
export const MountPropagationMode = ['Bidirectional', 'HostToContainer', 'None'] as const;

export const ContainerPort = struct('io.k8s.api.core.v1.ContainerPort', {
  name: field(t.string, 1),
  hostPort: field(t.int32, 2),
  containerPort: field(t.int32, 3, req),
  protocol: field(t.string, 4, { default: 'TCP', enum: Protocol }),
  hostIP: field(t.string, 5),
});

export const EnvVarSource = struct('io.k8s.api.core.v1.EnvVarSource', {
  fieldRef: field(ObjectFieldSelector, 1, { pointer: true }),
  resourceFieldRef: field(ResourceFieldSelector, 2, { pointer: true }),
  configMapKeyRef: field(ConfigMapKeySelector, 3, { pointer: true }),
  secretKeyRef: field(SecretKeySelector, 4, { pointer: true }),
  fileKeyRef: field(FileKeySelector, 5, { pointer: true }),
});

export const EnvVar = struct('io.k8s.api.core.v1.EnvVar', {
  name: field(t.string, 1, req),
  value: field(t.string, 2),
  valueFrom: field(EnvVarSource, 3, { pointer: true }),
});

export const ConfigMapEnvSource = struct('io.k8s.api.core.v1.ConfigMapEnvSource', {
  ...inline(LocalObjectReference, 1, 'localObjectReference'),
  optional: field(t.bool, 2, { pointer: true }),
});

export const SecretEnvSource = struct('io.k8s.api.core.v1.SecretEnvSource', {
  ...inline(LocalObjectReference, 1, 'localObjectReference'),
  optional: field(t.bool, 2, { pointer: true }),
});

export const EnvFromSource = struct('io.k8s.api.core.v1.EnvFromSource', {
  prefix: field(t.string, 1),
  configMapRef: field(ConfigMapEnvSource, 2, { pointer: true }),
  secretRef: field(SecretEnvSource, 3, { pointer: true }),
});

/** A container's reference to one of the pod's resource claims (and optionally one request in it). */
export const ResourceClaim = struct('io.k8s.api.core.v1.ResourceClaim', {
  name: field(t.string, 1, req),
  request: field(t.string, 2),
});

export const ResourceRequirements = struct('io.k8s.api.core.v1.ResourceRequirements', {
  limits: field(mapOf(t.quantity), 1),
  requests: field(mapOf(t.quantity), 2),
  claims: field(listOf(ResourceClaim), 3, { listType: 'map', listMapKeys: ['name'] }),
});

export const VolumeMount = struct('io.k8s.api.core.v1.VolumeMount', {
  name: field(t.string, 1, req),
  readOnly: field(t.bool, 2),
  recursiveReadOnly: field(t.string, 7, { pointer: true }),
  mountPath: field(t.string, 3, req),
  subPath: field(t.string, 4),
  mountPropagation: field(t.string, 5, { pointer: true, enum: MountPropagationMode }),
  subPathExpr: field(t.string, 6),
});

export const VolumeDevice = struct('io.k8s.api.core.v1.VolumeDevice', {
  name: field(t.string, 1, req),
  devicePath: field(t.string, 2, req),
});

export const ContainerResizePolicy = struct('io.k8s.api.core.v1.ContainerResizePolicy', {
  resourceName: field(t.string, 1, req),
  restartPolicy: field(t.string, 2, req),
});

/** Exit codes a container restart rule matches (ContainerRestartRules, v1.34). */
export const ContainerRestartRuleOnExitCodes = struct('io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes', {
  operator: field(t.string, 1, { required: true }),
  values: field(listOf(t.int32), 2, { listType: 'set' }),
});

/** What to do when a container exits in a given way (ContainerRestartRules, v1.34). */
export const ContainerRestartRule = struct('io.k8s.api.core.v1.ContainerRestartRule', {
  action: field(t.string, 1, { required: true }),
  exitCodes: field(ContainerRestartRuleOnExitCodes, 2, { pointer: true }),
});

/** The fields shared by Container and EphemeralContainerCommon, in Go order. */
function containerFields() {
  return {
    name: field(t.string, 1, req),
    image: field(t.string, 2),
    command: field(listOf(t.string), 3, { listType: 'atomic' }),
    args: field(listOf(t.string), 4, { listType: 'atomic' }),
    workingDir: field(t.string, 5),
    ports: field(listOf(ContainerPort), 6, {
      patchStrategy: 'merge',
      patchMergeKey: 'containerPort',
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
    }),
    envFrom: field(listOf(EnvFromSource), 19, { listType: 'atomic' }),
    env: field(listOf(EnvVar), 7, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] }),
    // A non-pointer struct: Go writes `"resources": {}` when empty.
    resources: field(ResourceRequirements, 8),
    resizePolicy: field(listOf(ContainerResizePolicy), 23, { listType: 'atomic' }),
    restartPolicy: field(t.string, 24, { pointer: true }),
    restartPolicyRules: field(listOf(ContainerRestartRule), 25, { listType: 'atomic' }),
    volumeMounts: field(listOf(VolumeMount), 9, {
      patchStrategy: 'merge',
      patchMergeKey: 'mountPath',
      listType: 'map',
      listMapKeys: ['mountPath'],
    }),
    volumeDevices: field(listOf(VolumeDevice), 21, {
      patchStrategy: 'merge',
      patchMergeKey: 'devicePath',
      listType: 'map',
      listMapKeys: ['devicePath'],
    }),
    livenessProbe: field(Probe, 10, { pointer: true }),
    readinessProbe: field(Probe, 11, { pointer: true }),
    startupProbe: field(Probe, 22, { pointer: true }),
    lifecycle: field(Lifecycle, 12, { pointer: true }),
    terminationMessagePath: field(t.string, 13),
    terminationMessagePolicy: field(t.string, 20, { enum: TerminationMessagePolicy }),
    imagePullPolicy: field(t.string, 14, { enum: PullPolicy }),
    securityContext: field(SecurityContext, 15, { pointer: true }),
    stdin: field(t.bool, 16),
    stdinOnce: field(t.bool, 17),
    tty: field(t.bool, 18),
  };
}

export const Container = struct('io.k8s.api.core.v1.Container', containerFields());

/** Container's fields for an ephemeral container; inline in EphemeralContainer. */
export const EphemeralContainerCommon = struct('io.k8s.api.core.v1.EphemeralContainerCommon', containerFields());

/** A debugging container added to a running pod (ephemeralcontainers subresource). */
export const EphemeralContainer = struct('io.k8s.api.core.v1.EphemeralContainer', {
  // Go: `EphemeralContainerCommon json:",inline" protobuf:"bytes,1,req"` (the message field is `ephemeralContainerCommon`).
  ...inline(EphemeralContainerCommon, 1, 'ephemeralContainerCommon'),
  targetContainerName: field(t.string, 2),
});
