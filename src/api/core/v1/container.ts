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
  name: field(t.string, 1, { description: 'A name (IANA_SVC_NAME) for the port, unique in the pod, that Services can refer to.' }),
  hostPort: field(t.int32, 2),
  containerPort: field(t.int32, 3, { ...req, description: 'Port number on the pod\'s IP address (1-65535).' }),
  protocol: field(t.string, 4, { default: 'TCP', enum: Protocol, description: 'UDP, TCP or SCTP. Defaults to TCP.' }),
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
  limits: field(mapOf(t.quantity), 1, { description: 'The most of each resource the container may use.' }),
  requests: field(mapOf(t.quantity), 2, { description: 'The amount of each resource the container needs; the scheduler places the pod by it. Defaults to the limits when only those are set.' }),
  claims: field(listOf(ResourceClaim), 3, { listType: 'map', listMapKeys: ['name'] }),
}, { description: 'Compute resources a container asks for and is capped at.' });

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
    name: field(t.string, 1, { ...req, description: 'Name of the container, unique within the pod (a DNS label). Cannot be updated.' }),
    image: field(t.string, 2, { description: 'The container image to run, e.g. nginx:1.27 or registry.example/app@sha256:...' }),
    command: field(listOf(t.string), 3, { listType: 'atomic', description: 'The entrypoint, replacing the image\'s ENTRYPOINT. $(VAR) references to the container\'s env are expanded.' }),
    args: field(listOf(t.string), 4, { listType: 'atomic', description: 'Arguments to the entrypoint, replacing the image\'s CMD. $(VAR) references are expanded.' }),
    workingDir: field(t.string, 5, { description: 'The directory the command runs in. Defaults to the image\'s.' }),
    ports: field(listOf(ContainerPort), 6, {
      description: 'Ports the container listens on (informational; any port the process opens is reachable).',
      patchStrategy: 'merge',
      patchMergeKey: 'containerPort',
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
    }),
    envFrom: field(listOf(EnvFromSource), 19, { listType: 'atomic', description: 'Sources (ConfigMaps, Secrets) whose keys all become environment variables.' }),
    env: field(listOf(EnvVar), 7, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'], description: 'Environment variables set in the container.' }),
    // A non-pointer struct: Go writes `"resources": {}` when empty.
    resources: field(ResourceRequirements, 8, { description: 'CPU, memory and other resources the container requests and is limited to.' }),
    resizePolicy: field(listOf(ContainerResizePolicy), 23, { listType: 'atomic' }),
    restartPolicy: field(t.string, 24, { pointer: true }),
    restartPolicyRules: field(listOf(ContainerRestartRule), 25, { listType: 'atomic' }),
    volumeMounts: field(listOf(VolumeMount), 9, {
      description: 'Volumes of the pod to mount into the container\'s filesystem.',
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
    livenessProbe: field(Probe, 10, { pointer: true, description: 'A periodic check; the container is restarted when it fails.' }),
    readinessProbe: field(Probe, 11, { pointer: true, description: 'A periodic check; the pod gets no Service traffic while it fails.' }),
    startupProbe: field(Probe, 22, { pointer: true, description: 'A check that must succeed before the other probes begin.' }),
    lifecycle: field(Lifecycle, 12, { pointer: true }),
    terminationMessagePath: field(t.string, 13),
    terminationMessagePolicy: field(t.string, 20, { enum: TerminationMessagePolicy }),
    imagePullPolicy: field(t.string, 14, { enum: PullPolicy, description: 'When the image is pulled: Always, IfNotPresent or Never. Defaults to Always for :latest or no tag, else IfNotPresent.' }),
    securityContext: field(SecurityContext, 15, { pointer: true, description: 'Security options for this container (user, capabilities, privilege).' }),
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
