// The diff Kubernetes appends to a refused pod update: go-cmp's cmp.Diff(old, munged) of the
// internal core.PodSpec (v1.26 field layout), printed by go-cmp's reporter (v0.5.x): changed
// fields as -/+ lines, two records of context around each change, the rest elided as
// "... // N identical fields", values shortened by the reporter's verbosity limits. Kubernetes'
// types are modelled for what a pod spec usually holds; anything else is rendered from its JSON.
import { obj, type Obj } from '../../../machinery/validation/common.js';
import { anyNamed, B, f, I, isNil, ptr, Q, S, slice, struct, type GoField, type GoType } from './go-types.js';
import { cmpDiff } from './report-diff.js';

// ---- Kubernetes' internal types (pkg/apis/core, v1.26) ----

const strs: GoType = slice('[]string', S);
const stringMapT: GoType = { k: 'map', name: 'map[string]string', stringerKeys: false, e: S };
const resourceList: GoType = { k: 'map', name: 'core.ResourceList', stringerKeys: true, e: Q };
const intstr: GoType = struct('intstr.IntOrString', [
  { go: 'Type', t: I, get: (p) => (typeof p.__v === 'string' ? 1 : 0) },
  { go: 'IntVal', t: I, get: (p) => (typeof p.__v === 'number' ? p.__v : 0) },
  { go: 'StrVal', t: S, get: (p) => (typeof p.__v === 'string' ? p.__v : '') },
]);
/** IntOrString is JSON scalar: wrap it so the struct model can read it. */
const intstrField = (go: string, json: string): GoField => ({ go, t: intstr, get: (p) => (p[json] === undefined ? undefined : { __v: p[json] }) });

const localObjectReference = struct('core.LocalObjectReference', [f('Name', 'name', S)]);
const keySelector = (name: string) => struct(name, [{ go: 'LocalObjectReference', t: localObjectReference, embed: true }, f('Key', 'key', S), f('Optional', 'optional', ptr(B))]);
const envVarSource = struct('core.EnvVarSource', [
  f('FieldRef', 'fieldRef', ptr(struct('core.ObjectFieldSelector', [f('APIVersion', 'apiVersion', S), f('FieldPath', 'fieldPath', S)]))),
  f('ResourceFieldRef', 'resourceFieldRef', ptr(struct('core.ResourceFieldSelector', [f('ContainerName', 'containerName', S), f('Resource', 'resource', S), f('Divisor', 'divisor', Q)]))),
  f('ConfigMapKeyRef', 'configMapKeyRef', ptr(keySelector('core.ConfigMapKeySelector'))),
  f('SecretKeyRef', 'secretKeyRef', ptr(keySelector('core.SecretKeySelector'))),
]);
const envSource = (name: string) => struct(name, [{ go: 'LocalObjectReference', t: localObjectReference, embed: true }, f('Optional', 'optional', ptr(B))]);
const execAction = struct('core.ExecAction', [f('Command', 'command', strs)]);
const httpGet = struct('core.HTTPGetAction', [
  f('Path', 'path', S),
  intstrField('Port', 'port'),
  f('Host', 'host', S),
  f('Scheme', 'scheme', S),
  f('HTTPHeaders', 'httpHeaders', slice('[]core.HTTPHeader', struct('core.HTTPHeader', [f('Name', 'name', S), f('Value', 'value', S)]))),
]);
const tcpSocket = struct('core.TCPSocketAction', [intstrField('Port', 'port'), f('Host', 'host', S)]);
const probe = struct('core.Probe', [
  {
    go: 'ProbeHandler',
    embed: true,
    t: struct('core.ProbeHandler', [
      f('Exec', 'exec', ptr(execAction)),
      f('HTTPGet', 'httpGet', ptr(httpGet)),
      f('TCPSocket', 'tcpSocket', ptr(tcpSocket)),
      f('GRPC', 'grpc', ptr(struct('core.GRPCAction', [f('Port', 'port', I), f('Service', 'service', ptr(S))]))),
    ]),
  },
  f('InitialDelaySeconds', 'initialDelaySeconds', I),
  f('TimeoutSeconds', 'timeoutSeconds', I),
  f('PeriodSeconds', 'periodSeconds', I),
  f('SuccessThreshold', 'successThreshold', I),
  f('FailureThreshold', 'failureThreshold', I),
  f('TerminationGracePeriodSeconds', 'terminationGracePeriodSeconds', ptr(I)),
]);
const lifecycleHandler = struct('core.LifecycleHandler', [
  f('Exec', 'exec', ptr(execAction)),
  f('HTTPGet', 'httpGet', ptr(httpGet)),
  f('TCPSocket', 'tcpSocket', ptr(tcpSocket)),
  f('Sleep', 'sleep', ptr(struct('core.SleepAction', [f('Seconds', 'seconds', I)]))),
]);
const seccompProfile = struct('core.SeccompProfile', [f('Type', 'type', S), f('LocalhostProfile', 'localhostProfile', ptr(S))]);
const seLinuxOptions = struct('core.SELinuxOptions', [f('User', 'user', S), f('Role', 'role', S), f('Type', 'type', S), f('Level', 'level', S)]);
const windowsOptions = struct('core.WindowsSecurityContextOptions', [
  f('GMSACredentialSpecName', 'gmsaCredentialSpecName', ptr(S)),
  f('GMSACredentialSpec', 'gmsaCredentialSpec', ptr(S)),
  f('RunAsUserName', 'runAsUserName', ptr(S)),
  f('HostProcess', 'hostProcess', ptr(B)),
]);
const securityContext = struct('core.SecurityContext', [
  f('Capabilities', 'capabilities', ptr(struct('core.Capabilities', [f('Add', 'add', slice('[]core.Capability', S)), f('Drop', 'drop', slice('[]core.Capability', S))]))),
  f('Privileged', 'privileged', ptr(B)),
  f('SELinuxOptions', 'seLinuxOptions', ptr(seLinuxOptions)),
  f('WindowsOptions', 'windowsOptions', ptr(windowsOptions)),
  f('RunAsUser', 'runAsUser', ptr(I)),
  f('RunAsGroup', 'runAsGroup', ptr(I)),
  f('RunAsNonRoot', 'runAsNonRoot', ptr(B)),
  f('ReadOnlyRootFilesystem', 'readOnlyRootFilesystem', ptr(B)),
  f('AllowPrivilegeEscalation', 'allowPrivilegeEscalation', ptr(B)),
  f('ProcMount', 'procMount', ptr(S)),
  f('SeccompProfile', 'seccompProfile', ptr(seccompProfile)),
  f('AppArmorProfile', 'appArmorProfile', ptr(anyNamed('core.AppArmorProfile'))),
]);
const containerFields: GoField[] = [
  f('Name', 'name', S),
  f('Image', 'image', S),
  f('Command', 'command', strs),
  f('Args', 'args', strs),
  f('WorkingDir', 'workingDir', S),
  f('Ports', 'ports', slice('[]core.ContainerPort', struct('core.ContainerPort', [f('Name', 'name', S), f('HostPort', 'hostPort', I), f('ContainerPort', 'containerPort', I), f('Protocol', 'protocol', S), f('HostIP', 'hostIP', S)]))),
  f('EnvFrom', 'envFrom', slice('[]core.EnvFromSource', struct('core.EnvFromSource', [f('Prefix', 'prefix', S), f('ConfigMapRef', 'configMapRef', ptr(envSource('core.ConfigMapEnvSource'))), f('SecretRef', 'secretRef', ptr(envSource('core.SecretEnvSource')))]))),
  f('Env', 'env', slice('[]core.EnvVar', struct('core.EnvVar', [f('Name', 'name', S), f('Value', 'value', S), f('ValueFrom', 'valueFrom', ptr(envVarSource))]))),
  f('Resources', 'resources', struct('core.ResourceRequirements', [f('Limits', 'limits', resourceList), f('Requests', 'requests', resourceList), f('Claims', 'claims', slice('[]core.ResourceClaim', struct('core.ResourceClaim', [f('Name', 'name', S)])))])),
  f('VolumeMounts', 'volumeMounts', slice('[]core.VolumeMount', struct('core.VolumeMount', [f('Name', 'name', S), f('ReadOnly', 'readOnly', B), f('MountPath', 'mountPath', S), f('SubPath', 'subPath', S), f('MountPropagation', 'mountPropagation', ptr(S)), f('SubPathExpr', 'subPathExpr', S)]))),
  f('VolumeDevices', 'volumeDevices', slice('[]core.VolumeDevice', struct('core.VolumeDevice', [f('Name', 'name', S), f('DevicePath', 'devicePath', S)]))),
  f('LivenessProbe', 'livenessProbe', ptr(probe)),
  f('ReadinessProbe', 'readinessProbe', ptr(probe)),
  f('StartupProbe', 'startupProbe', ptr(probe)),
  f('Lifecycle', 'lifecycle', ptr(struct('core.Lifecycle', [f('PostStart', 'postStart', ptr(lifecycleHandler)), f('PreStop', 'preStop', ptr(lifecycleHandler))]))),
  f('TerminationMessagePath', 'terminationMessagePath', S),
  f('TerminationMessagePolicy', 'terminationMessagePolicy', S),
  f('ImagePullPolicy', 'imagePullPolicy', S),
  f('SecurityContext', 'securityContext', ptr(securityContext)),
  f('Stdin', 'stdin', B),
  f('StdinOnce', 'stdinOnce', B),
  f('TTY', 'tty', B),
];
const container = struct('core.Container', containerFields);
const ephemeralContainer = struct('core.EphemeralContainer', [
  { go: 'EphemeralContainerCommon', t: struct('core.EphemeralContainerCommon', containerFields), embed: true },
  f('TargetContainerName', 'targetContainerName', S),
]);
const volumeSources = [
  'HostPath:hostPath:HostPathVolumeSource', 'EmptyDir:emptyDir:EmptyDirVolumeSource', 'GCEPersistentDisk:gcePersistentDisk:GCEPersistentDiskVolumeSource',
  'AWSElasticBlockStore:awsElasticBlockStore:AWSElasticBlockStoreVolumeSource', 'GitRepo:gitRepo:GitRepoVolumeSource', 'Secret:secret:SecretVolumeSource',
  'NFS:nfs:NFSVolumeSource', 'ISCSI:iscsi:ISCSIVolumeSource', 'Glusterfs:glusterfs:GlusterfsVolumeSource',
  'PersistentVolumeClaim:persistentVolumeClaim:PersistentVolumeClaimVolumeSource', 'RBD:rbd:RBDVolumeSource', 'Quobyte:quobyte:QuobyteVolumeSource',
  'FlexVolume:flexVolume:FlexVolumeSource', 'Cinder:cinder:CinderVolumeSource', 'CephFS:cephfs:CephFSVolumeSource', 'Flocker:flocker:FlockerVolumeSource',
  'DownwardAPI:downwardAPI:DownwardAPIVolumeSource', 'FC:fc:FCVolumeSource', 'AzureFile:azureFile:AzureFileVolumeSource', 'ConfigMap:configMap:ConfigMapVolumeSource',
  'VsphereVolume:vsphereVolume:VsphereVirtualDiskVolumeSource', 'AzureDisk:azureDisk:AzureDiskVolumeSource',
  'PhotonPersistentDisk:photonPersistentDisk:PhotonPersistentDiskVolumeSource', 'Projected:projected:ProjectedVolumeSource',
  'PortworxVolume:portworxVolume:PortworxVolumeSource', 'ScaleIO:scaleIO:ScaleIOVolumeSource', 'StorageOS:storageos:StorageOSVolumeSource',
  'CSI:csi:CSIVolumeSource', 'Ephemeral:ephemeral:EphemeralVolumeSource',
].map((s) => {
  const [go, json, type] = s.split(':') as [string, string, string];
  return f(go, json, ptr(anyNamed(`core.${type}`)));
});
const volume = struct('core.Volume', [f('Name', 'name', S), { go: 'VolumeSource', t: struct('core.VolumeSource', volumeSources), embed: true }]);
const toleration = struct('core.Toleration', [f('Key', 'key', S), f('Operator', 'operator', S), f('Value', 'value', S), f('Effect', 'effect', S), f('TolerationSeconds', 'tolerationSeconds', ptr(I))]);
/** A field the internal type moves from the pod spec (`__spec`) into the pod security context. */
const specField = (json: string) => (p: Obj): unknown => obj(p.__spec)[json];
const podSecurityContext = struct('core.PodSecurityContext', [
  { go: 'HostNetwork', t: B, get: specField('hostNetwork') },
  { go: 'HostPID', t: B, get: specField('hostPID') },
  { go: 'HostIPC', t: B, get: specField('hostIPC') },
  { go: 'ShareProcessNamespace', t: ptr(B), get: specField('shareProcessNamespace') },
  { go: 'HostUsers', t: ptr(B), get: specField('hostUsers') },
  f('SELinuxOptions', 'seLinuxOptions', ptr(seLinuxOptions)),
  f('WindowsOptions', 'windowsOptions', ptr(windowsOptions)),
  f('RunAsUser', 'runAsUser', ptr(I)),
  f('RunAsGroup', 'runAsGroup', ptr(I)),
  f('RunAsNonRoot', 'runAsNonRoot', ptr(B)),
  f('SupplementalGroups', 'supplementalGroups', slice('[]int64', I)),
  f('FSGroup', 'fsGroup', ptr(I)),
  f('FSGroupChangePolicy', 'fsGroupChangePolicy', ptr(S)),
  f('Sysctls', 'sysctls', slice('[]core.Sysctl', struct('core.Sysctl', [f('Name', 'name', S), f('Value', 'value', S)]))),
  f('SeccompProfile', 'seccompProfile', ptr(seccompProfile)),
]);
const podSpecFields: GoField[] = [
  f('Volumes', 'volumes', slice('[]core.Volume', volume)),
  f('InitContainers', 'initContainers', slice('[]core.Container', container)),
  f('Containers', 'containers', slice('[]core.Container', container)),
  f('EphemeralContainers', 'ephemeralContainers', slice('[]core.EphemeralContainer', ephemeralContainer)),
  f('RestartPolicy', 'restartPolicy', S),
  f('TerminationGracePeriodSeconds', 'terminationGracePeriodSeconds', ptr(I)),
  f('ActiveDeadlineSeconds', 'activeDeadlineSeconds', ptr(I)),
  f('DNSPolicy', 'dnsPolicy', S),
  f('NodeSelector', 'nodeSelector', stringMapT),
  f('ServiceAccountName', 'serviceAccountName', S),
  f('AutomountServiceAccountToken', 'automountServiceAccountToken', ptr(B)),
  f('NodeName', 'nodeName', S),
  {
    go: 'SecurityContext',
    t: ptr(podSecurityContext),
    // Internally the host namespaces live in the pod security context.
    get: (p) => {
      const sc = p.securityContext;
      const hasHost = ['hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostUsers'].some((k) => p[k] !== undefined && p[k] !== null && p[k] !== false);
      if ((sc === undefined || sc === null) && !hasHost) return undefined;
      return { ...(typeof sc === 'object' && sc !== null ? (sc as Obj) : {}), __spec: p };
    },
  },
  f('ImagePullSecrets', 'imagePullSecrets', slice('[]core.LocalObjectReference', localObjectReference)),
  f('Hostname', 'hostname', S),
  f('Subdomain', 'subdomain', S),
  f('SetHostnameAsFQDN', 'setHostnameAsFQDN', ptr(B)),
  f('Affinity', 'affinity', ptr(anyNamed('core.Affinity'))),
  f('SchedulerName', 'schedulerName', S),
  f('Tolerations', 'tolerations', slice('[]core.Toleration', toleration)),
  f('HostAliases', 'hostAliases', slice('[]core.HostAlias', struct('core.HostAlias', [f('IP', 'ip', S), f('Hostnames', 'hostnames', strs)]))),
  f('PriorityClassName', 'priorityClassName', S),
  f('Priority', 'priority', ptr(I)),
  f('PreemptionPolicy', 'preemptionPolicy', ptr(S)),
  f('DNSConfig', 'dnsConfig', ptr(struct('core.PodDNSConfig', [f('Nameservers', 'nameservers', strs), f('Searches', 'searches', strs), f('Options', 'options', slice('[]core.PodDNSConfigOption', struct('core.PodDNSConfigOption', [f('Name', 'name', S), f('Value', 'value', ptr(S))])))]))),
  f('ReadinessGates', 'readinessGates', slice('[]core.PodReadinessGate', struct('core.PodReadinessGate', [f('ConditionType', 'conditionType', S)]))),
  f('RuntimeClassName', 'runtimeClassName', ptr(S)),
  f('Overhead', 'overhead', resourceList),
  f('EnableServiceLinks', 'enableServiceLinks', ptr(B)),
  f('TopologySpreadConstraints', 'topologySpreadConstraints', slice('[]core.TopologySpreadConstraint', anyNamed('core.TopologySpreadConstraint'))),
  f('OS', 'os', ptr(struct('core.PodOS', [f('Name', 'name', S)]))),
  f('SchedulingGates', 'schedulingGates', slice('[]core.PodSchedulingGate', struct('core.PodSchedulingGate', [f('Name', 'name', S)]))),
  f('ResourceClaims', 'resourceClaims', slice('[]core.PodResourceClaim', anyNamed('core.PodResourceClaim'))),
];
/** Fields newer than v1.26's layout, modelled only when one side uses them. */
const laterPodSpecFields: GoField[] = [f('Resources', 'resources', ptr(anyNamed('core.ResourceRequirements'))), f('HostnameOverride', 'hostnameOverride', ptr(S))];

/** cmp.Diff(oldSpec, newSpec) of two core/v1 PodSpecs as Kubernetes' internal core.PodSpec. */
export function podSpecDiff(oldSpec: Obj, newSpec: Obj): string {
  const later = laterPodSpecFields.filter((fd) => !isNil(oldSpec[fd.json!]) || !isNil(newSpec[fd.json!]));
  return cmpDiff(struct('core.PodSpec', [...podSpecFields, ...later]), oldSpec, newSpec);
}

/** cmp.Diff(old, new) of two core/v1 EphemeralContainers as Kubernetes' internal core.EphemeralContainer. */
export function ephemeralContainerDiff(oldContainer: Obj, newContainer: Obj): string {
  return cmpDiff(ephemeralContainer, oldContainer, newContainer);
}
