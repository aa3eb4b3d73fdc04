// Server-side defaults of the core/v1 kinds other than Pod, as kube-apiserver applies them
// (k8s.io/kubernetes pkg/apis/core/v1 SetDefaults_*, plus the few steps of create that are not
// "defaulting" in Kubernetes' code but that a client sees the same way; those are separate
// functions, named for where Kubernetes does them).
//
// What a created object has that none of this sets (the server generates it elsewhere):
// metadata.uid, creationTimestamp, resourceVersion, generation, managedFields, metadata.namespace
// (from the URL), Service spec.clusterIP/clusterIPs (IP allocator), ports[].nodePort and
// healthCheckNodePort (node-port allocator).
//
// Event, ConfigMap, ServiceAccount and Binding have no server-side defaults in Kubernetes (a
// minimal Event's `source: {}`, null timestamps and empty reportingComponent are just Go's JSON
// encoding of zero values).
import type { KubeObject } from '../../schema/kind.js';
import { roundUpToMilli } from '../../meta/quantity.js';
import { child, isObj, objects, unset } from '../../go-json.js';

// --- Namespace -------------------------------------------------------------------------------

/** The label every named namespace carries: kubernetes.io/metadata.name=<name>. */
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';

/** SetDefaults_Namespace + SetDefaults_NamespaceStatus. */
export function setDefaultsNamespace(obj: KubeObject): void {
  const meta = child(obj, 'metadata');
  if (typeof meta.name === 'string' && meta.name.length > 0) {
    child(meta, 'labels')[LABEL_METADATA_NAME] = meta.name;
  }
  const status = child(obj, 'status');
  if (unset(status.phase)) status.phase = 'Active';
}

/**
 * The namespace registry strategy on create (PrepareForCreate): status is reset to Active, and the
 * `kubernetes` finalizer is added to spec.finalizers when missing (not a default: it may be
 * removed later, by the namespace controller through namespaces/finalize).
 */
export function prepareNamespaceForCreate(obj: KubeObject): void {
  obj.status = { phase: 'Active' };
  const spec = child(obj, 'spec');
  const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
  if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes'];
}

// --- Node ------------------------------------------------------------------------------------

/** SetDefaults_ResourceList: every quantity rounded up to milli precision. */
function defaultResourceList(list: unknown): void {
  if (!isObj(list)) return;
  for (const [k, v] of Object.entries(list)) if (typeof v === 'string') list[k] = roundUpToMilli(v);
}

/** SetObjectDefaults_Node: SetDefaults_NodeStatus (allocatable defaults to capacity), then both lists rounded. */
export function setDefaultsNode(obj: KubeObject): void {
  const status = obj.status;
  if (!isObj(status)) return;
  if ((status.allocatable === undefined || status.allocatable === null) && isObj(status.capacity)) {
    status.allocatable = { ...status.capacity };
  }
  defaultResourceList(status.capacity);
  defaultResourceList(status.allocatable);
}

/**
 * The TaintNodesByCondition admission plugin on Node create: a new node is not ready until its
 * agent says so, so it gets the node.kubernetes.io/not-ready:NoSchedule taint (once).
 */
export function admitNodeCreate(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  const taints = objects(spec, 'taints');
  const key = 'node.kubernetes.io/not-ready';
  if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) {
    spec.taints = [...taints, { key, effect: 'NoSchedule' }];
  }
}

// --- Secret ----------------------------------------------------------------------------------

/** SetDefaults_Secret: type defaults to Opaque. */
export function setDefaultsSecret(obj: KubeObject): void {
  if (unset(obj.type)) obj.type = 'Opaque';
}

/**
 * The v1 → internal conversion of Secret: stringData is merged into data (base64 of the UTF-8
 * value; it wins over a data key of the same name) and dropped. Runs on every write.
 */
export function mergeSecretStringData(obj: KubeObject): void {
  const stringData = obj.stringData;
  delete obj.stringData;
  if (!isObj(stringData)) return;
  const entries = Object.entries(stringData).filter((e): e is [string, string] => typeof e[1] === 'string');
  if (entries.length === 0) return;
  const data = child(obj, 'data');
  for (const [k, v] of entries) data[k] = Buffer.from(v, 'utf8').toString('base64');
}

// --- Endpoints -------------------------------------------------------------------------------

/** SetDefaults_Endpoints: port protocol defaults to TCP. */
export function setDefaultsEndpoints(obj: KubeObject): void {
  for (const subset of objects(obj, 'subsets')) {
    for (const port of objects(subset, 'ports')) if (unset(port.protocol)) port.protocol = 'TCP';
  }
}

// --- Service ---------------------------------------------------------------------------------

/** Default ClientIP session stickiness, in seconds (3 hours). */
export const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS = 10800;

/** SetDefaults_Service (with the LoadBalancerIPMode feature, GA since v1.32). */
export function setDefaultsService(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (unset(spec.sessionAffinity)) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = spec.sessionAffinityConfig;
    const clientIP = isObj(cfg) ? cfg.clientIP : undefined;
    const timeout = isObj(clientIP) ? clientIP.timeoutSeconds : undefined;
    if (timeout === undefined || timeout === null) {
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS } };
    }
  }
  if (unset(spec.type)) spec.type = 'ClusterIP';
  for (const port of objects(spec, 'ports')) {
    if (unset(port.protocol)) port.protocol = 'TCP';
    // intstr zero value (0 or "") or absent: the target port is the service port.
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '') {
      port.targetPort = port.port;
    }
  }
  const externallyAccessible =
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
  if (externallyAccessible && unset(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster';
  if (
    (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) &&
    (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
  ) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null) {
      spec.allocateLoadBalancerNodePorts = true;
    }
    const status = obj.status;
    const lb = isObj(status) ? status.loadBalancer : undefined;
    for (const ing of isObj(lb) ? objects(lb, 'ingress') : []) {
      if (!unset(ing.ip) && (ing.ipMode === undefined || ing.ipMode === null)) ing.ipMode = 'VIP';
    }
  }
}

/**
 * The IP-family half of the Service IP allocator on create (Kubernetes' REST storage, not its
 * defaulting): infers ipFamilyPolicy (RequireDualStack when two families or two cluster IPs are
 * given, SingleStack otherwise) and fills ipFamilies from the given clusterIPs or the cluster's
 * families (`clusterFamilies`, primary first). ExternalName services get neither. Assigning the
 * addresses themselves (clusterIP/clusterIPs) is the allocator's other half.
 */
export function initServiceIPFamilies(obj: KubeObject, clusterFamilies: readonly ('IPv4' | 'IPv6')[] = ['IPv4']): void {
  const spec = child(obj, 'spec');
  if (spec.type === 'ExternalName') return;
  const families = Array.isArray(spec.ipFamilies) ? spec.ipFamilies.filter((f): f is string => typeof f === 'string') : [];
  const ips = Array.isArray(spec.clusterIPs)
    ? spec.clusterIPs.filter((ip): ip is string => typeof ip === 'string' && ip !== '' && ip !== 'None')
    : [];
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    spec.ipFamilyPolicy = families.length === 2 || ips.length === 2 ? 'RequireDualStack' : 'SingleStack';
  }
  if (families.length === 0) {
    for (const ip of ips) families.push(ip.includes(':') ? 'IPv6' : 'IPv4');
    if (families.length === 0 && clusterFamilies[0]) families.push(clusterFamilies[0]);
  }
  if (spec.ipFamilyPolicy !== 'SingleStack' && families.length === 1) {
    const other = clusterFamilies.find((f) => f !== families[0]);
    if (other) families.push(other);
  }
  spec.ipFamilies = families;
}
