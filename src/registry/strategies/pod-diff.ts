// The diff Kubernetes appends to a refused pod update: go-cmp's cmp.Diff(old, munged) of the
// internal core.PodSpec (v1.26 field layout), printed by go-cmp's reporter (v0.5.x): changed
// fields as -/+ lines, two records of context around each change, the rest elided as
// "... // N identical fields", values shortened by the reporter's verbosity limits. Kubernetes'
// types are modelled for what a pod spec usually holds; anything else is rendered from its JSON.
import { parseQuantity } from '../../api/meta/quantity.js';
import type { Obj } from '../../machinery/validation/common.js';

// ---- the Go type model ----

type T =
  | { k: 'str' }
  | { k: 'int' }
  | { k: 'bool' }
  | { k: 'qty' }
  | { k: 'ptr'; e: T }
  | { k: 'slice'; name: string; e: T }
  | { k: 'map'; name: string; stringerKeys: boolean; e: T }
  | { k: 'struct'; name: string; fields: F[] }
  | { k: 'any'; name?: string };

interface F {
  go: string;
  json?: string;
  t: T;
  /** Embedded struct: its fields live in the parent's JSON object. */
  embed?: boolean;
  /** Where the value comes from when it is not parent[json] (internal fields moved from elsewhere). */
  get?: (parent: Obj) => unknown;
}

const S: T = { k: 'str' };
const I: T = { k: 'int' };
const B: T = { k: 'bool' };
const Q: T = { k: 'qty' };
const ANY: T = { k: 'any' };
/** A value modelled from its JSON, printed under Kubernetes' type name. */
const anyNamed = (name: string): T => ({ k: 'any', name });
const ptr = (e: T): T => ({ k: 'ptr', e });
const slice = (name: string, e: T): T => ({ k: 'slice', name, e });
const struct = (name: string, fields: F[]): T => ({ k: 'struct', name, fields });
const f = (go: string, json: string, t: T): F => ({ go, json, t });
const strs: T = slice('[]string', S);
const stringMapT: T = { k: 'map', name: 'map[string]string', stringerKeys: false, e: S };
const resourceList: T = { k: 'map', name: 'core.ResourceList', stringerKeys: true, e: Q };
const intstr: T = struct('intstr.IntOrString', [
  { go: 'Type', t: I, get: (p) => (typeof p.__v === 'string' ? 1 : 0) },
  { go: 'IntVal', t: I, get: (p) => (typeof p.__v === 'number' ? p.__v : 0) },
  { go: 'StrVal', t: S, get: (p) => (typeof p.__v === 'string' ? p.__v : '') },
]);
/** IntOrString is JSON scalar: wrap it so the struct model can read it. */
const intstrField = (go: string, json: string): F => ({ go, t: intstr, get: (p) => (p[json] === undefined ? undefined : { __v: p[json] }) });

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
const containerFields: F[] = [
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
const podSecurityContext = struct('core.PodSecurityContext', [
  { go: 'HostNetwork', t: B, get: (p) => p.__spec && (p.__spec as Obj).hostNetwork },
  { go: 'HostPID', t: B, get: (p) => p.__spec && (p.__spec as Obj).hostPID },
  { go: 'HostIPC', t: B, get: (p) => p.__spec && (p.__spec as Obj).hostIPC },
  { go: 'ShareProcessNamespace', t: ptr(B), get: (p) => p.__spec && (p.__spec as Obj).shareProcessNamespace },
  { go: 'HostUsers', t: ptr(B), get: (p) => p.__spec && (p.__spec as Obj).hostUsers },
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
const podSpecFields: F[] = [
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
const laterPodSpecFields: F[] = [f('Resources', 'resources', ptr(anyNamed('core.ResourceRequirements'))), f('HostnameOverride', 'hostnameOverride', ptr(S))];

// ---- values as Go sees them ----

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNil = (v: unknown) => v === undefined || v === null;

/** The JSON of a struct field (embedded structs share their parent's object). */
function fieldValue(parent: unknown, fd: F): unknown {
  const p = isObj(parent) ? parent : {};
  if (fd.get) return fd.get(p);
  if (fd.embed) return p;
  return p[fd.json!];
}

/** The concrete type of a generic value. */
function resolve(t: T, v: unknown): T {
  if (t.k !== 'any') return t;
  if (typeof v === 'string') return S;
  if (typeof v === 'number') return I;
  if (typeof v === 'boolean') return B;
  if (Array.isArray(v)) return slice('[]interface {}', ANY);
  if (isObj(v)) {
    const name = t.name ?? 'core.Object';
    return struct(name, Object.keys(v).filter((k) => !k.startsWith('__')).map((k) => f(k.charAt(0).toUpperCase() + k.slice(1), k, ANY)));
  }
  return S;
}

/** Go's nil for pointers, slices and maps (JSON: absent or null; empty lists and maps count as nil too). */
function isNilOf(t: T, v: unknown): boolean {
  if (isNil(v)) return true;
  if (t.k === 'slice') return Array.isArray(v) && v.length === 0;
  if (t.k === 'map') return isObj(v) && Object.keys(v).length === 0;
  return false;
}

function isZeroValue(t: T, v: unknown): boolean {
  const rt = resolve(t, v);
  switch (rt.k) {
    case 'str':
      return isNil(v) || v === '';
    case 'int':
      return isNil(v) || v === 0;
    case 'bool':
      return isNil(v) || v === false;
    case 'qty':
      return isNil(v);
    case 'ptr':
    case 'slice':
    case 'map':
      return isNilOf(rt, v);
    case 'struct':
      return rt.fields.every((fd) => isZeroValue(fd.t, fieldValue(v, fd)));
    default:
      return isNil(v);
  }
}

function leafEqual(t: T, x: unknown, y: unknown): boolean {
  if (t.k === 'qty') {
    if (isNil(x) || isNil(y)) return isNil(x) && isNil(y);
    const a = parseQuantity(String(x));
    const b = parseQuantity(String(y));
    return a && b ? a.equals(b) : x === y;
  }
  if (t.k === 'str') return (isNil(x) ? '' : x) === (isNil(y) ? '' : y);
  if (t.k === 'int') return (isNil(x) ? 0 : x) === (isNil(y) ? 0 : y);
  if (t.k === 'bool') return (x === true) === (y === true);
  return x === y;
}

// ---- the comparison tree (go-cmp's valueNode) ----

interface Node {
  t: T;
  x: unknown;
  y: unknown;
  hasX: boolean;
  hasY: boolean;
  recs: { key: string; node: Node }[];
  child?: Node;
  numSame: number;
  numDiff: number;
  numChildren: number;
  maxDepth: number;
}

function leaf(t: T, x: unknown, y: unknown, hasX: boolean, hasY: boolean, equal: boolean): Node {
  return { t, x, y, hasX, hasY, recs: [], numSame: equal ? 1 : 0, numDiff: equal ? 0 : 1, numChildren: 0, maxDepth: 0 };
}

function aggregate(n: Node, children: Node[]): Node {
  for (const c of children) {
    n.numSame += c.numSame;
    n.numDiff += c.numDiff;
    n.numChildren += c.numChildren + 1;
    n.maxDepth = Math.max(n.maxDepth, c.maxDepth + 1);
  }
  return n;
}

function deepEqual(t: T, x: unknown, y: unknown): boolean {
  return compare(t, x, y, true, true).numDiff === 0;
}

/** Equal-or-not edit script of two lists: LCS on equal elements, leftovers paired as modified. */
function editScript(t: T, xs: unknown[], ys: unknown[]): ('=' | 'M' | 'X' | 'Y')[] {
  if (xs.length === ys.length) return xs.map((x, i) => (deepEqual(t, x, ys[i]) ? '=' : 'M'));
  const n = xs.length;
  const m = ys.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = deepEqual(t, xs[i], ys[j]) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: ('=' | 'M' | 'X' | 'Y')[] = [];
  let i = 0;
  let j = 0;
  let gapX = 0;
  let gapY = 0;
  const flush = () => {
    const mod = Math.min(gapX, gapY);
    for (let k = 0; k < mod; k++) out.push('M');
    for (let k = mod; k < gapX; k++) out.push('X');
    for (let k = mod; k < gapY; k++) out.push('Y');
    gapX = 0;
    gapY = 0;
  };
  while (i < n && j < m) {
    if (deepEqual(t, xs[i], ys[j])) {
      flush();
      out.push('=');
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      gapX++;
      i++;
    } else {
      gapY++;
      j++;
    }
  }
  gapX += n - i;
  gapY += m - j;
  flush();
  return out;
}

function compare(t0: T, x: unknown, y: unknown, hasX: boolean, hasY: boolean): Node {
  const t = resolve(t0, hasX ? x : y);
  if (!hasX || !hasY) return leaf(t, x, y, hasX, hasY, false);
  switch (t.k) {
    case 'str':
    case 'int':
    case 'bool':
    case 'qty':
      return leaf(t, x, y, true, true, leafEqual(t, x, y));
    case 'ptr': {
      if (isNil(x) || isNil(y)) return leaf(t, x, y, true, true, isNil(x) && isNil(y));
      const c = compare(t.e, x, y, true, true);
      const n: Node = { t, x, y, hasX, hasY, recs: [], child: c, numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      return aggregate(n, [c]);
    }
    case 'slice': {
      if (isNilOf(t, x) || isNilOf(t, y)) return leaf(t, x, y, true, true, isNilOf(t, x) && isNilOf(t, y));
      const xs = x as unknown[];
      const ys = y as unknown[];
      const n: Node = { t, x, y, hasX, hasY, recs: [], numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      let i = 0;
      let j = 0;
      for (const e of editScript(t.e, xs, ys)) {
        if (e === 'X') n.recs.push({ key: '', node: compare(t.e, xs[i++], undefined, true, false) });
        else if (e === 'Y') n.recs.push({ key: '', node: compare(t.e, undefined, ys[j++], false, true) });
        else n.recs.push({ key: '', node: compare(t.e, xs[i++], ys[j++], true, true) });
      }
      return aggregate(n, n.recs.map((r) => r.node));
    }
    case 'map': {
      if (isNilOf(t, x) || isNilOf(t, y)) return leaf(t, x, y, true, true, isNilOf(t, x) && isNilOf(t, y));
      const xo = x as Obj;
      const yo = y as Obj;
      const n: Node = { t, x, y, hasX, hasY, recs: [], numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      for (const k of [...new Set([...Object.keys(xo), ...Object.keys(yo)])].sort()) {
        n.recs.push({ key: mapKey(t, k), node: compare(t.e, xo[k], yo[k], k in xo, k in yo) });
      }
      return aggregate(n, n.recs.map((r) => r.node));
    }
    case 'struct': {
      const n: Node = { t, x, y, hasX, hasY, recs: [], numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      for (const fd of t.fields) n.recs.push({ key: fd.go, node: compare(fd.t, fieldValue(x, fd), fieldValue(y, fd), true, true) });
      return aggregate(n, n.recs.map((r) => r.node));
    }
    default:
      return leaf(t, x, y, true, true, x === y);
  }
}

// ---- text nodes (go-cmp's report_text.go) ----

type Text = { kind: 'line'; s: string } | { kind: 'list'; recs: Rec[] } | { kind: 'wrap'; prefix: string; value: Text; suffix: string };
interface Rec {
  diff: '' | '-' | '+';
  key: string;
  value: Text;
  comment?: Stats;
  elideComma?: boolean;
}
interface Stats {
  name: string;
  ignored: number;
  identical: number;
  removed: number;
  inserted: number;
  modified: number;
}

const line = (s: string): Text => ({ kind: 'line', s });
const ELLIPSIS = '...';
const NIL = line('nil');
const maxColumnLength = 80;
const wrap = (prefix: string, value: Text, suffix: string): Text => ({ kind: 'wrap', prefix, value, suffix });
const isLine = (t: Text): t is { kind: 'line'; s: string } => t.kind === 'line';
const isEllipsis = (t: Text) => t.kind === 'line' && t.s === ELLIPSIS;

const stats = (name: string): Stats => ({ name, ignored: 0, identical: 0, removed: 0, inserted: 0, modified: 0 });
const statsZero = (s: Stats) => s.ignored + s.identical + s.removed + s.inserted + s.modified === 0;
const numDiffOf = (s: Stats) => s.removed + s.inserted + s.modified;

function statsString(s: Stats): string {
  const labels = ['ignored', 'identical', 'removed', 'inserted', 'modified'] as const;
  const counts = [s.ignored, s.identical, s.removed, s.inserted, s.modified];
  const ss: string[] = [];
  let sum = 0;
  counts.forEach((n, i) => {
    if (n > 0) ss.push(`${n} ${labels[i]}`);
    sum += n;
  });
  let name = s.name;
  if (sum > 1) {
    name += 's';
    if (name.endsWith('ys')) name = `${name.slice(0, -2)}ies`;
  }
  if (ss.length === 0) return '';
  if (ss.length <= 2) return `${ss.join(' and ')} ${name}`;
  return `${ss.slice(0, -1).join(', ')}, and ${ss[ss.length - 1]} ${name}`;
}

function appendEllipsis(list: Rec[], s?: Stats): void {
  const last = list[list.length - 1];
  if (!last || !isEllipsis(last.value)) {
    list.push({ diff: '', key: '', value: line(ELLIPSIS), elideComma: true, ...(s && !statsZero(s) ? { comment: s } : {}) });
    return;
  }
  if (s && !statsZero(s)) {
    const c = last.comment ?? stats(s.name);
    last.comment = { name: c.name, ignored: c.ignored + s.ignored, identical: c.identical + s.identical, removed: c.removed + s.removed, inserted: c.inserted + s.inserted, modified: c.modified + s.modified };
  }
}

/** formatCompactTo: returns the text so far and the node, collapsed to a line when it fits one. */
function compact(b: string, node: Text, d: '' | '-' | '+'): [string, Text] {
  if (node.kind === 'line') return [b + node.s, node];
  if (node.kind === 'wrap') {
    const n0 = b.length;
    let out = b + node.prefix;
    const [b2, v] = compact(out, node.value, d);
    out = b2 + node.suffix;
    const w: Text = { ...node, value: v };
    return v.kind === 'line' ? [out, line(out.slice(n0))] : [out, w];
  }
  const recs = node.recs.map((r) => ({ ...r }));
  let multiLine = false;
  let out = b;
  const n0 = b.length;
  recs.forEach((r, i) => {
    if (r.diff === '-' || r.diff === '+') multiLine = true;
    out += r.key;
    if (r.key !== '') out += ': ';
    const [b2, v] = compact(out, r.value, r.diff !== '' ? r.diff : d);
    out = b2;
    r.value = v;
    if (v.kind !== 'line') multiLine = true;
    if (r.comment) multiLine = true;
    if (i < recs.length - 1) out += ', ';
  });
  if ((d === '-' || d === '+') && out.length > maxColumnLength) multiLine = true;
  if (!multiLine) return [out, line(out.slice(n0))];
  return [out, { kind: 'list', recs }];
}

const indent = (n: number, d: '' | '-' | '+') => `${d === '' ? ' ' : d} ${'\t'.repeat(n)}`;

function alignLens(recs: Rec[], skip: (r: Rec) => boolean, len: (r: Rec) => number): number[] {
  const lens = new Array<number>(recs.length).fill(0);
  let start = 0;
  let max = 0;
  const flush = (end: number) => {
    for (let i = start; i < end; i++) lens[i] = max - len(recs[i]!);
    max = 0;
  };
  recs.forEach((r, i) => {
    if (skip(r)) {
      flush(i);
      start = i + 1;
    } else max = Math.max(max, len(r));
  });
  flush(recs.length);
  return lens;
}

function expand(b: string, node: Text, d: '' | '-' | '+', n: number): string {
  if (node.kind === 'line') return b + node.s;
  if (node.kind === 'wrap') return expand(b + node.prefix, node.value, d, n) + node.suffix;
  const recs = node.recs;
  const keyLens = alignLens(recs, (r) => r.key === '' || !isLine(r.value), (r) => [...r.key].length);
  const valueLens = alignLens(recs, (r) => !isLine(r.value) || isEllipsis(r.value) || !r.comment, (r) => [...(r.value as { s: string }).s].length);
  const simple = recs.length > 0 && recs.every((r) => r.diff === '' && r.key === '' && isLine(r.value) && !r.comment);
  if (simple) {
    let batch = '';
    const emit = () => {
      if (batch.length > 0) {
        b += `\n${indent(n + 1, d)}${batch.replace(/ +$/, '')}`;
        batch = '';
      }
    };
    for (const r of recs) {
      const s = (r.value as { s: string }).s;
      if (batch.length + s.length + 2 > maxColumnLength) emit();
      batch += `${s}, `;
    }
    emit();
    return `${b}\n${indent(n, d)}`;
  }
  recs.forEach((r, i) => {
    const dd = r.diff !== '' ? r.diff : d;
    b += `\n${indent(n + 1, dd)}`;
    if (r.key !== '') b += `${r.key}: `;
    b += ' '.repeat(keyLens[i]!);
    b = expand(b, r.value, dd, n + 1);
    if (!r.elideComma) b += ',';
    b += ' '.repeat(valueLens[i]!);
    if (r.comment) b += ` // ${statsString(r.comment)}`;
  });
  return `${b}\n${indent(n, d)}`;
}

function render(node: Text): string {
  const [, c] = compact('', node, '');
  return `${expand(indent(0, ''), c, '', 0)}\n`;
}

// ---- formatting (go-cmp's report_compare.go and report_reflect.go) ----

type Mode = '' | '=' | '-' | '+';
type TypeMode = 'auto' | 'emit' | 'elide';

interface Opts {
  mode: Mode;
  verbosity: number;
  limit: boolean;
  typeMode: TypeMode;
}

const withVerbosity = (o: Opts, v: number): Opts => ({ ...o, verbosity: v, limit: true });
const verb = (o: Opts) => Math.max(0, Math.min(16, o.verbosity));

/** Go's strconv.Quote-like quoting go-cmp uses (raw backquotes when it reads better). */
function formatGoString(s: string): string {
  const qs = JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u${h}`);
  if (qs.length === s.length + 2) return qs;
  if (!/[`\n]/.test(s) && [...s].every((c) => c === '\t' || /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(c))) return `\`${s}\``;
  return qs;
}

function formatString(o: Opts, prefix: string, s: string): Text {
  let maxLen = s.length;
  if (o.limit) maxLen = (1 << verb(o)) << 5;
  if (s.length > maxLen + ELLIPSIS.length) return line(`${prefix}${formatGoString(s.slice(0, maxLen))}${ELLIPSIS}`);
  return line(prefix + formatGoString(s));
}

function typeName(t: T): string {
  if (t.k === 'slice' || t.k === 'map' || t.k === 'struct') return t.name;
  if (t.k === 'ptr') return `*${typeName(t.e)}`;
  return t.k === 'str' ? 'string' : t.k === 'int' ? 'int64' : t.k === 'bool' ? 'bool' : 'resource.Quantity';
}

/** FormatType: the type name around composite values, unless elided (or the node is identical). */
function formatType(o: Opts, t: T, s: Text): Text {
  if (o.typeMode === 'elide') return s;
  if (o.typeMode === 'auto') {
    if (t.k !== 'struct' && t.k !== 'slice' && t.k !== 'map') return s;
    if (s.kind === 'line' && s.s === 'nil') return s;
    if (o.mode === '=') return s;
  }
  const name = typeName(t);
  if (s.kind === 'wrap' && s.prefix.startsWith('{') && s.suffix.endsWith('}')) return wrap(name, s, '');
  return wrap(`${name}(`, s, ')');
}

function mapKey(t: T, k: string): string {
  return t.k === 'map' && t.stringerKeys ? `s${formatGoString(k)}` : formatGoString(k);
}

/** A Quantity as go-cmp prints the struct (no String method on a value): {i: ..., s: ..., Format: ...}. */
function quantityParts(v: unknown): { value: string; scale: number; s: string; format: string } | undefined {
  const q = parseQuantity(String(v));
  if (!q) return undefined;
  const s = q.toString();
  const m = /^(-?\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|e-?\d+)?$/.exec(s);
  const dec: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  const bin: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
  if (!m) return { value: String(q.unscaled), scale: q.exponent, s, format: q.format };
  const mant = BigInt(m[1]!);
  const suffix = m[2] ?? '';
  if (suffix in bin) return { value: String(mant << BigInt(bin[suffix]!)), scale: 0, s, format: q.format };
  if (suffix.startsWith('e')) return { value: String(mant), scale: Number(suffix.slice(1)), s, format: q.format };
  return { value: String(mant), scale: dec[suffix] ?? 0, s, format: q.format };
}

function formatValue(o: Opts, t0: T, v: unknown): Text {
  const t = resolve(t0, v);
  let out: Text;
  let skipType = false;
  switch (t.k) {
    case 'bool':
      return line(String(v === true));
    case 'int':
      return line(String(typeof v === 'number' ? v : 0));
    case 'str':
      return formatString(o, '', typeof v === 'string' ? v : '');
    case 'qty': {
      const parts = quantityParts(v);
      const recs: Rec[] = [];
      let maxLen = 4;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      const fields: [string, () => Text, boolean][] = [
        ['i', () => formatValue({ ...inner, typeMode: 'auto' }, struct('resource.int64Amount', [f('value', 'value', I), f('scale', 'scale', I)]), { value: Number(parts?.value ?? 0), scale: parts?.scale ?? 0 }), parts !== undefined && parts.value !== '0'],
        ['s', () => formatString(inner, '', parts?.s ?? ''), parts !== undefined],
        ['Format', () => formatString(inner, '', parts?.format ?? ''), parts !== undefined],
      ];
      for (const [name, fn, present] of fields) {
        if (!present) continue;
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: name, value: fn() });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'struct': {
      const recs: Rec[] = [];
      let maxLen = t.fields.length;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      for (const fd of t.fields) {
        const fv = fieldValue(v, fd);
        if (isZeroValue(fd.t, fv)) continue;
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: fd.go, value: formatValue({ ...inner, typeMode: 'auto' }, fd.t, fv) });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'slice': {
      if (isNilOf(t, v)) return NIL;
      const xs = v as unknown[];
      let maxLen = xs.length;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      const recs: Rec[] = [];
      for (const e of xs) {
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: '', value: formatValue({ ...inner, typeMode: 'elide' }, t.e, e) });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'map': {
      if (isNilOf(t, v)) return NIL;
      const m = v as Obj;
      const keys = Object.keys(m).sort();
      let maxLen = keys.length;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      const recs: Rec[] = [];
      for (const k of keys) {
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: mapKey(t, k), value: formatValue({ ...inner, typeMode: 'elide' }, t.e, m[k]) });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'ptr': {
      if (isNil(v)) return NIL;
      skipType = true;
      out = wrap('&', formatValue(o, t.e, v), '');
      break;
    }
    default:
      return line(JSON.stringify(v) ?? 'nil');
  }
  return skipType ? out : formatType(o, t, out);
}

function formatDiff(o0: Opts, node: Node): Text {
  let o = o0;
  if (o.mode === '=') o = withVerbosity(o, 1);
  else if (verb(o) < 3) o = withVerbosity(o, 3);
  const t = node.t;
  if (node.maxDepth === 0) {
    if (o.mode === '' || o.mode === '=') {
      if (node.numDiff === 0) {
        const ox = formatValue(o, t, node.x);
        const oy = formatValue(o, t, node.y);
        return textLen(ox) < textLen(oy) ? ox : oy;
      }
      return line('<unprintable>');
    }
    if (o.mode === '-') return formatValue(o, t, node.x);
    return formatValue(o, t, node.y);
  }
  if (t.k === 'ptr' && node.child) return wrap('&', formatDiff(o, node.child), '');
  const kind = t.k === 'struct' ? 'struct' : t.k === 'map' ? 'map' : 'slice';
  return formatType(o, t, formatDiffList(o, node.recs, kind));
}

function textLen(t: Text): number {
  return compact('', t, '')[0].length;
}

function formatDiffList(o0: Opts, recs0: Node['recs'], kind: 'struct' | 'slice' | 'map'): Text {
  let o = { ...o0, typeMode: (kind === 'struct' ? 'auto' : 'elide') as TypeMode };
  const name = kind === 'struct' ? 'field' : kind === 'slice' ? 'element' : 'entry';
  let maxLen = -1;
  if (o.limit) {
    maxLen = o.mode === '=' ? ((1 << verb(o)) >> 1) << 2 : (1 << verb(o)) << 1;
    o = { ...o, verbosity: o.verbosity - 1 };
  }
  if (o.mode === '=' || o.mode === '-' || o.mode === '+') {
    const list: Rec[] = [];
    let deferred = false;
    for (const r of recs0) {
      if (list.length === maxLen) {
        deferred = true;
        break;
      }
      if (kind === 'struct') {
        const zx = isZeroValue(r.node.t, r.node.x);
        const zy = isZeroValue(r.node.t, r.node.y);
        const zero = o.mode === '=' ? zx || zy : o.mode === '-' ? zx : zy;
        if (zero) continue;
      }
      list.push({ diff: '', key: r.key, value: formatDiff(o, r.node) });
    }
    if (deferred) appendEllipsis(list);
    return wrap('{', { kind: 'list', recs: list }, '}');
  }
  // Differencing: groups of equal and unequal records, two records of context around changes.
  const groups: (Stats & { equal: boolean })[] = [];
  let prev = -1;
  for (const r of recs0) {
    const n = r.node;
    const equal = n.numDiff === 0;
    const c = equal ? 1 : 2;
    if (prev !== c) {
      groups.push({ ...stats(name), equal });
      prev = c;
    }
    const g = groups[groups.length - 1]!;
    if (equal) g.identical++;
    else if (!n.hasY) g.removed++;
    else if (!n.hasX) g.inserted++;
    else g.modified++;
  }
  const list: Rec[] = [];
  let recs = recs0;
  let numDiffs = 0;
  const maxGroup = stats(name);
  const identical = (r: Node['recs'][number]): Rec => ({ diff: '', key: r.key, value: formatDiff({ ...o, mode: '=' }, r.node) });
  groups.forEach((ds, i) => {
    if (maxLen >= 0 && numDiffs >= maxLen) {
      maxGroup.identical += ds.identical;
      maxGroup.removed += ds.removed;
      maxGroup.inserted += ds.inserted;
      maxGroup.modified += ds.modified;
      return;
    }
    if (ds.equal) {
      const numEqual = ds.identical;
      let lo = 0;
      let hi = 0;
      while (lo < 2 && lo + hi < numEqual && i !== 0) lo++;
      while (hi < 2 && lo + hi < numEqual && i !== groups.length - 1) hi++;
      if (numEqual - (lo + hi) === 1) hi++;
      for (const r of recs.slice(0, lo)) list.push(identical(r));
      if (numEqual > lo + hi) appendEllipsis(list, { ...stats(name), identical: numEqual - lo - hi });
      for (const r of recs.slice(numEqual - hi, numEqual)) list.push(identical(r));
      recs = recs.slice(numEqual);
      return;
    }
    const nd = numDiffOf(ds);
    for (const r of recs.slice(0, nd)) {
      const n = r.node;
      if (n.numChildren === n.maxDepth) {
        const ox = n.hasX ? formatDiff({ ...o, mode: '-' }, n) : undefined;
        const oy = n.hasY ? formatDiff({ ...o, mode: '+' }, n) : undefined;
        if (ox) list.push({ diff: '-', key: r.key, value: ox });
        if (oy) list.push({ diff: '+', key: r.key, value: oy });
      } else {
        list.push({ diff: '', key: r.key, value: formatDiff(o, n) });
      }
    }
    recs = recs.slice(nd);
    numDiffs += nd;
  });
  if (!statsZero(maxGroup)) appendEllipsis(list, maxGroup);
  return wrap('{', { kind: 'list', recs: list }, '}');
}

/** cmp.Diff(oldSpec, newSpec) of two core/v1 PodSpecs as Kubernetes' internal core.PodSpec. */
export function podSpecDiff(oldSpec: Obj, newSpec: Obj): string {
  const later = laterPodSpecFields.filter((fd) => !isNil(oldSpec[fd.json!]) || !isNil(newSpec[fd.json!]));
  const t = struct('core.PodSpec', [...podSpecFields, ...later]);
  const root = compare(t, oldSpec, newSpec, true, true);
  if (root.numDiff === 0) return '';
  return render(formatDiff({ mode: '', verbosity: 0, limit: false, typeMode: 'auto' }, root));
}

/** cmp.Diff(old, new) of two core/v1 EphemeralContainers as Kubernetes' internal core.EphemeralContainer. */
export function ephemeralContainerDiff(oldContainer: Obj, newContainer: Obj): string {
  const root = compare(ephemeralContainer, oldContainer, newContainer, true, true);
  if (root.numDiff === 0) return '';
  return render(formatDiff({ mode: '', verbosity: 0, limit: false, typeMode: 'auto' }, root));
}
