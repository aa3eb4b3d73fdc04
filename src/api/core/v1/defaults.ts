// Server-side defaults of core/v1 Pod, PodTemplate and PodTemplateSpec: what Kubernetes'
// SetObjectDefaults_Pod / SetObjectDefaults_PodTemplate do (the SetDefaults_* functions of
// pkg/apis/core/v1/defaults.go plus the declarative `+default` markers of the types), as of
// Kubernetes v1.34 with its default feature gates. They work in place on plain JSON objects;
// field order does not matter (a later normalize step orders fields and canonicalizes quantities).
//
// Not defaulting, so not here: admission (service account, default tolerations, priority,
// preemptionPolicy, ...), status the API server sets on create, and the v1 <-> internal
// conversion alias `serviceAccount` <-> `serviceAccountName` (see `convertPodSpecAliases`).
import { parseQuantity, roundUpToMilli, type Quantity } from '../../meta/quantity.js';
import { isObj, type Obj } from '../../go-json.js';

/** The objects of a list value (non-objects skipped). */
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
/** o[key] when it is an object, else undefined (never created: unlike go-json's `child`). */
const existingChild = (o: Obj, key: string): Obj | undefined => (isObj(o[key]) ? (o[key] as Obj) : undefined);
/** Go's "is the zero value" for the scalar kinds defaults test against (unset, "", 0, false, null). */
const unset = (v: unknown): boolean => v === undefined || v === null || v === '' || v === 0 || v === false;

// ---- image references (k8s.io/kubernetes/pkg/util/parsers.ParseImageName) ----

const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const referenceRe = new RegExp(
  `^((?:${domain}/)?${pathComponent}(?:/${pathComponent})*)(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`,
);

/**
 * The tag ParseImageName reports for an image reference: the explicit tag, "latest" when there
 * is neither tag nor digest, "" when there is only a digest or the reference does not parse.
 */
export function imageTag(image: string): string {
  const m = referenceRe.exec(image);
  if (!m) return '';
  const [, name = '', tag, digest] = m;
  if (name.length > 255) return '';
  // docker's normalization: a first component without '.', ':' or uppercase that is not
  // "localhost" is part of the path, and the path must then be lowercase (it is, by the regexp).
  const slash = name.indexOf('/');
  if (slash !== -1) {
    const first = name.slice(0, slash);
    const isDomain = /[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first;
    if (!isDomain && /[A-Z]/.test(first)) return '';
  } else if (/^[a-f0-9]{64}$/.test(name)) {
    return ''; // a bare 64-hex identifier is not a repository name
  }
  if (tag) return tag;
  return digest ? '' : 'latest';
}

/** imagePullPolicy for an image: Always for `:latest` (or no tag and no digest), else IfNotPresent. */
export function defaultPullPolicy(image: unknown): 'Always' | 'IfNotPresent' {
  return imageTag(typeof image === 'string' ? image : '') === 'latest' ? 'Always' : 'IfNotPresent';
}

// ---- resource lists ----

/** SetDefaults_ResourceList: every value rounded up to milli scale. */
export function defaultResourceList(list: unknown): void {
  if (!isObj(list)) return;
  for (const [k, v] of Object.entries(list)) if (typeof v === 'string') list[k] = roundUpToMilli(v);
}

function defaultResourceRequirements(r: unknown): void {
  if (!isObj(r)) return;
  defaultResourceList(r.limits);
  defaultResourceList(r.requests);
}

// ---- leaf defaulters ----

function defaultObjectFieldSelector(sel: Obj | undefined): void {
  if (sel && unset(sel.apiVersion)) sel.apiVersion = 'v1';
}

function defaultHTTPGetAction(a: Obj | undefined): void {
  if (!a) return;
  if (unset(a.path)) a.path = '/';
  if (unset(a.scheme)) a.scheme = 'HTTP';
}

function defaultProbe(p: Obj | undefined): void {
  if (!p) return;
  if (unset(p.timeoutSeconds)) p.timeoutSeconds = 1;
  if (unset(p.periodSeconds)) p.periodSeconds = 10;
  if (unset(p.successThreshold)) p.successThreshold = 1;
  if (unset(p.failureThreshold)) p.failureThreshold = 3;
  defaultHTTPGetAction(existingChild(p, 'httpGet'));
  const grpc = existingChild(p, 'grpc');
  if (grpc && (grpc.service === undefined || grpc.service === null)) grpc.service = ''; // +default=""
}

function defaultLifecycle(l: Obj | undefined): void {
  if (!l) return;
  for (const h of ['postStart', 'preStop']) {
    const handler = existingChild(l, h);
    if (handler) defaultHTTPGetAction(existingChild(handler, 'httpGet'));
  }
}

/** SetDefaults_Container and the defaults of everything a container holds (also ephemeral containers). */
function defaultContainer(c: Obj): void {
  if (unset(c.imagePullPolicy)) c.imagePullPolicy = defaultPullPolicy(c.image);
  if (unset(c.terminationMessagePath)) c.terminationMessagePath = '/dev/termination-log';
  if (unset(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  for (const port of objects(c.ports)) if (unset(port.protocol)) port.protocol = 'TCP'; // +default="TCP"
  for (const env of objects(c.env)) {
    const from = existingChild(env, 'valueFrom');
    if (!from) continue;
    defaultObjectFieldSelector(existingChild(from, 'fieldRef'));
    const fileKeyRef = existingChild(from, 'fileKeyRef');
    if (fileKeyRef && (fileKeyRef.optional === undefined || fileKeyRef.optional === null)) fileKeyRef.optional = false; // +default=false
  }
  defaultResourceRequirements(c.resources);
  defaultProbe(existingChild(c, 'livenessProbe'));
  defaultProbe(existingChild(c, 'readinessProbe'));
  defaultProbe(existingChild(c, 'startupProbe'));
  defaultLifecycle(existingChild(c, 'lifecycle'));
}

const volumeSourceKeys = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
] as const;

function defaultDownwardAPIItems(items: unknown): void {
  for (const item of objects(items)) defaultObjectFieldSelector(existingChild(item, 'fieldRef'));
}

/** SetDefaults_Volume and the defaults of each volume source. */
function defaultVolume(v: Obj): void {
  if (volumeSourceKeys.every((k) => v[k] === undefined || v[k] === null)) v.emptyDir = {};
  defaultVolumeSources(v);
}

/**
 * The defaults of the volume sources present in `v` (a pod's VolumeSource or a PersistentVolume's
 * PersistentVolumeSource: both name their sources alike, and the PV variants default the same fields).
 */
export function defaultVolumeSources(v: Obj): void {
  const hostPath = existingChild(v, 'hostPath');
  if (hostPath && (hostPath.type === undefined || hostPath.type === null)) hostPath.type = '';

  const secret = existingChild(v, 'secret');
  if (secret && (secret.defaultMode === undefined || secret.defaultMode === null)) secret.defaultMode = 0o644;

  const iscsi = existingChild(v, 'iscsi');
  if (iscsi && unset(iscsi.iscsiInterface)) iscsi.iscsiInterface = 'default';

  const rbd = existingChild(v, 'rbd');
  if (rbd) {
    if (unset(rbd.pool)) rbd.pool = 'rbd';
    if (unset(rbd.user)) rbd.user = 'admin';
    if (unset(rbd.keyring)) rbd.keyring = '/etc/ceph/keyring';
  }

  const configMap = existingChild(v, 'configMap');
  if (configMap && (configMap.defaultMode === undefined || configMap.defaultMode === null)) configMap.defaultMode = 0o644;

  const downwardAPI = existingChild(v, 'downwardAPI');
  if (downwardAPI) {
    if (downwardAPI.defaultMode === undefined || downwardAPI.defaultMode === null) downwardAPI.defaultMode = 0o644;
    defaultDownwardAPIItems(downwardAPI.items);
  }

  const azureDisk = existingChild(v, 'azureDisk');
  if (azureDisk) {
    if (azureDisk.cachingMode === undefined || azureDisk.cachingMode === null) azureDisk.cachingMode = 'ReadWrite';
    if (azureDisk.fsType === undefined || azureDisk.fsType === null) azureDisk.fsType = 'ext4';
    if (azureDisk.readOnly === undefined || azureDisk.readOnly === null) azureDisk.readOnly = false;
    if (azureDisk.kind === undefined || azureDisk.kind === null) azureDisk.kind = 'Shared';
  }

  const scaleIO = existingChild(v, 'scaleIO');
  if (scaleIO) {
    if (unset(scaleIO.storageMode)) scaleIO.storageMode = 'ThinProvisioned';
    if (unset(scaleIO.fsType)) scaleIO.fsType = 'xfs';
  }

  const projected = existingChild(v, 'projected');
  if (projected) {
    if (projected.defaultMode === undefined || projected.defaultMode === null) projected.defaultMode = 0o644;
    for (const source of objects(projected.sources)) {
      const dapi = existingChild(source, 'downwardAPI');
      if (dapi) defaultDownwardAPIItems(dapi.items);
      const token = existingChild(source, 'serviceAccountToken');
      if (token && (token.expirationSeconds === undefined || token.expirationSeconds === null)) token.expirationSeconds = 3600;
    }
  }

  const claimSpec = existingChild(existingChild(existingChild(v, 'ephemeral') ?? {}, 'volumeClaimTemplate') ?? {}, 'spec');
  if (claimSpec) defaultPersistentVolumeClaimSpec(claimSpec);

  const image = existingChild(v, 'image');
  if (image && unset(image.pullPolicy)) image.pullPolicy = defaultPullPolicy(image.reference);
}

/** SetDefaults_PersistentVolumeClaimSpec and its resource lists. */
export function defaultPersistentVolumeClaimSpec(spec: Obj): void {
  if (spec.volumeMode === undefined || spec.volumeMode === null) spec.volumeMode = 'Filesystem';
  defaultResourceRequirements(spec.resources);
}

// ---- pod spec ----

/**
 * The defaults of a PodSpec and everything in it: SetDefaults_PodSpec plus those of volumes,
 * containers (init, regular, ephemeral), overhead and pod-level resources. This is all a
 * PodTemplateSpec's spec gets; a Pod gets `defaultPod` on top.
 */
export function defaultPodSpec(spec: Obj): void {
  if (unset(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst';
  if (unset(spec.restartPolicy)) spec.restartPolicy = 'Always';
  if (spec.securityContext === undefined || spec.securityContext === null) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    spec.terminationGracePeriodSeconds = 30;
  }
  if (unset(spec.schedulerName)) spec.schedulerName = 'default-scheduler';

  for (const v of objects(spec.volumes)) defaultVolume(v);
  for (const c of objects(spec.initContainers)) defaultContainer(c);
  for (const c of objects(spec.containers)) defaultContainer(c);
  for (const c of objects(spec.ephemeralContainers)) defaultContainer(c);
  defaultResourceList(spec.overhead);
  defaultResourceRequirements(spec.resources);
}

// ---- pod ----

const isHugePages = (name: string) => name.startsWith('hugepages-');
/** resourcehelper.IsSupportedPodLevelResource (v1.34: cpu, memory, hugepages-*). */
const isSupportedPodLevelResource = (name: string) => name === 'cpu' || name === 'memory' || isHugePages(name);
/** corev1helper.IsOvercommitAllowed: native (unprefixed or kubernetes.io/) and not hugepages. */
const isOvercommitAllowed = (name: string) =>
  (!name.includes('/') || name.includes('kubernetes.io/')) && !isHugePages(name);

type QList = Map<string, Quantity>;

function readList(list: unknown): QList {
  const out: QList = new Map();
  if (isObj(list)) {
    for (const [k, v] of Object.entries(list)) {
      const q = typeof v === 'string' ? parseQuantity(v) : undefined;
      if (q) out.set(k, q);
    }
  }
  return out;
}

function addList(into: QList, add: QList): void {
  for (const [k, q] of add) {
    const cur = into.get(k);
    into.set(k, cur ? cur.add(q) : q);
  }
}

function maxList(into: QList, other: QList): void {
  for (const [k, q] of other) {
    const cur = into.get(k);
    if (!cur || q.cmp(cur) > 0) into.set(k, q);
  }
}

/**
 * resourcehelper.AggregateContainerRequests / AggregateContainerLimits: regular and sidecar
 * containers add up; each init container needs its own amount plus the sidecars started before it;
 * the pod needs the larger of the two.
 */
function aggregateContainers(spec: Obj, which: 'requests' | 'limits'): QList {
  const total: QList = new Map();
  for (const c of objects(spec.containers)) addList(total, readList(existingChild(c, 'resources')?.[which]));
  const sidecars: QList = new Map();
  const initMax: QList = new Map();
  for (const c of objects(spec.initContainers)) {
    const own = readList(existingChild(c, 'resources')?.[which]);
    if (c.restartPolicy === 'Always') {
      addList(total, own);
      addList(sidecars, own);
      maxList(initMax, sidecars);
    } else {
      const use: QList = new Map();
      addList(use, own);
      addList(use, sidecars);
      maxList(initMax, use);
    }
  }
  maxList(total, initMax);
  return total;
}

const fmt = (q: Quantity) => q.toString();

/** defaultHugePagePodLimits: pod-level hugepages limits from the containers' when pod resources are partly set. */
function defaultHugePagePodLimits(spec: Obj): void {
  const res = existingChild(spec, 'resources');
  if (!res) return;
  const limits = isObj(res.limits) ? res.limits : undefined;
  const requests = isObj(res.requests) ? res.requests : undefined;
  if (Object.keys(limits ?? {}).length === 0 && Object.keys(requests ?? {}).length === 0) return;
  const podLims: Obj = limits ?? {};
  for (const [k, q] of aggregateContainers(spec, 'limits')) {
    if (!isSupportedPodLevelResource(k) || !isHugePages(k)) continue;
    if (requests && k in requests) continue;
    if (!(k in podLims)) podLims[k] = fmt(q);
  }
  if (Object.keys(podLims).length > 0) res.limits = podLims;
}

/** defaultPodRequests: pod-level requests from the containers' (or from pod-level limits) when pod limits are set. */
function defaultPodRequests(spec: Obj): void {
  const res = existingChild(spec, 'resources');
  if (!res || !isObj(res.limits) || Object.keys(res.limits).length === 0) return;
  const podReqs: Obj = isObj(res.requests) ? res.requests : {};
  for (const [k, q] of aggregateContainers(spec, 'requests')) {
    if (!(k in podReqs) && isSupportedPodLevelResource(k) && isOvercommitAllowed(k)) podReqs[k] = fmt(q);
  }
  for (const [k, v] of Object.entries(res.limits)) {
    if (!(k in podReqs) && isSupportedPodLevelResource(k)) podReqs[k] = v;
  }
  if (Object.keys(podReqs).length > 0) res.requests = podReqs;
}

/** Requests default to limits, per resource, for regular and init containers (SetDefaults_Pod). */
function defaultRequestsFromLimits(c: Obj): void {
  const res = existingChild(c, 'resources');
  if (!res || !isObj(res.limits)) return;
  const requests: Obj = isObj(res.requests) ? res.requests : (res.requests = {});
  for (const [k, v] of Object.entries(res.limits)) if (!(k in requests)) requests[k] = v;
}

/** With host networking, container ports without a hostPort get their containerPort. */
function defaultHostNetworkPorts(containers: unknown): void {
  for (const c of objects(containers)) {
    for (const p of objects(c.ports)) if (unset(p.hostPort)) p.hostPort = p.containerPort;
  }
}

/** SetObjectDefaults_Pod: SetDefaults_Pod, then the PodSpec tree, then status resource lists. */
export function defaultPod(pod: Obj): void {
  if (!isObj(pod.spec)) pod.spec = {};
  const spec = pod.spec as Obj;

  // SetDefaults_Pod (pods only, not templates).
  for (const c of objects(spec.containers)) defaultRequestsFromLimits(c);
  for (const c of objects(spec.initContainers)) defaultRequestsFromLimits(c);
  // PodLevelResources (beta, on by default since v1.34): after the container-level defaults.
  defaultHugePagePodLimits(spec);
  defaultPodRequests(spec);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }

  defaultPodSpec(spec);

  const status = existingChild(pod, 'status');
  if (status) {
    for (const key of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses']) {
      for (const cs of objects(status[key])) {
        defaultResourceList(cs.allocatedResources);
        defaultResourceRequirements(cs.resources);
      }
    }
  }
}

/** SetObjectDefaults for a PodTemplateSpec embedded anywhere (workload templates): the PodSpec tree only. */
export function defaultPodTemplateSpec(tpl: Obj): void {
  if (!isObj(tpl.spec)) tpl.spec = {};
  defaultPodSpec(tpl.spec as Obj);
}

/** SetObjectDefaults_PodTemplate. */
export function defaultPodTemplate(obj: Obj): void {
  if (!isObj(obj.template)) obj.template = {};
  defaultPodTemplateSpec(obj.template as Obj);
}

/**
 * What a round trip through Kubernetes' internal version does to the `serviceAccount` alias: on
 * input an empty `serviceAccountName` takes `serviceAccount`; on output `serviceAccount` is
 * `serviceAccountName`. Apply after admission (which may set serviceAccountName), before storing.
 */
export function convertPodSpecAliases(spec: Obj): void {
  if (unset(spec.serviceAccountName) && !unset(spec.serviceAccount)) spec.serviceAccountName = spec.serviceAccount;
  if (unset(spec.serviceAccountName)) delete spec.serviceAccount;
  else spec.serviceAccount = spec.serviceAccountName;
}
