// What the endpoints, EndpointSlice and mirroring controllers share about Services and the pods
// they select (Kubernetes' endpointutil and the endpointslice library's utils): which Services a
// pod belongs to, whether a pod is an endpoint at all, named target ports, address families, and
// the trigger-time tracker behind `endpoints.kubernetes.io/last-change-trigger-time`.
import { creationTimestampOf, isBeingDeleted, labelsOf, nameOf, namespaceOf, resourceVersionOf } from '../../api/meta/object.js';
import type { Pod, Service, ServicePort } from '../../api/types.js';
import type { KubeObject, Lister, ResourceRef } from '../../client/types.js';
import { isIPv6String } from '../../machinery/validation/names.js';
import { isPodReady, podPhase, podReadyCondition } from './pods.js';
import { timeMs } from './time.js';

export const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services' };
export const ENDPOINTS: ResourceRef = { group: '', version: 'v1', resource: 'endpoints' };
export const ENDPOINTSLICES: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
export const PODS_REF: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
export const NODES_REF: ResourceRef = { group: '', version: 'v1', resource: 'nodes' };

export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
/** resourcelock.LeaderElectionRecordAnnotationKey: Endpoints used as a leader-election lock. */
export const LEADER_ELECTION_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

export type AddressType = 'IPv4' | 'IPv6';

/** The Service's selector, undefined when it has none (its endpoints are user-managed). */
export function serviceSelector(svc: Service): Record<string, string> | undefined {
  const sel = svc.spec?.selector;
  return sel === undefined || sel === null ? undefined : (sel as Record<string, string>);
}

/** labels.Set(selector).AsSelector().Matches: every pair present (an empty selector matches everything). */
export function selectorMatches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  for (const k in selector) if (labels[k] !== selector[k]) return false;
  return true;
}

/** The keys of the Services with a selector that select `pod` (GetPodServiceMemberships). */
export function podServiceKeys(services: Lister, pod: KubeObject): string[] {
  const ns = namespaceOf(pod);
  const labels = labelsOf(pod);
  const keys: string[] = [];
  for (const svc of services.list(ns) as Service[]) {
    const sel = serviceSelector(svc);
    // No selector selects nothing (user-managed endpoints); an empty one selects every pod, as in Kubernetes.
    if (sel === undefined) continue;
    if (selectorMatches(sel, labels)) keys.push(`${ns}/${nameOf(svc)}`);
  }
  return keys;
}

/** The pods a Service selects, from the pods informer's namespace index. */
export function selectedPods(pods: Lister, svc: Service): Pod[] {
  const sel = serviceSelector(svc) ?? {};
  return pods.list(namespaceOf(svc), (labels) => selectorMatches(sel, labels)) as Pod[];
}

/** Whether a pod's change can change the endpoints of the Services selecting it (podEndpointsChanged). */
export function podEndpointsChanged(oldPod: Pod, curPod: Pod): boolean {
  if (isBeingDeleted(oldPod) !== isBeingDeleted(curPod)) return true;
  if (isPodReady(oldPod) !== isPodReady(curPod)) return true;
  if (podPhase(oldPod) !== podPhase(curPod)) return true;
  const a = oldPod.spec ?? {};
  const b = curPod.spec ?? {};
  if (a.hostname !== b.hostname || a.subdomain !== b.subdomain || a.nodeName !== b.nodeName) return true;
  if (JSON.stringify(oldPod.status?.podIPs ?? []) !== JSON.stringify(curPod.status?.podIPs ?? [])) return true;
  if (oldPod.status?.podIP !== curPod.status?.podIP) return true;
  return JSON.stringify(a.containers?.map((c) => c.ports)) !== JSON.stringify(b.containers?.map((c) => c.ports));
}

/**
 * The Service keys to sync for a pod update (GetServicesToUpdateOnPodChange): none when nothing that
 * matters changed; when only labels changed, the Services the pod joined or left; otherwise all of them.
 */
export function servicesToUpdateOnPodChange(services: Lister, oldPod: Pod, curPod: Pod): string[] {
  if (resourceVersionOf(oldPod) === resourceVersionOf(curPod)) return [];
  const podChanged = podEndpointsChanged(oldPod, curPod);
  const labelsChanged = JSON.stringify(labelsOf(oldPod)) !== JSON.stringify(labelsOf(curPod));
  if (!podChanged && !labelsChanged) return [];
  const cur = podServiceKeys(services, curPod);
  if (!labelsChanged) return cur;
  const old = podServiceKeys(services, oldPod);
  if (podChanged) return [...new Set([...old, ...cur])];
  const o = new Set(old);
  const c = new Set(cur);
  return [...old.filter((k) => !c.has(k)), ...cur.filter((k) => !o.has(k))];
}

/** ShouldPodBeInEndpoints: not terminal, has an IP, and not terminating unless terminating pods are included. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = podPhase(pod);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  if (!includeTerminating && isBeingDeleted(pod)) return false;
  return true;
}

/** ShouldSetHostname: the pod names this Service as its subdomain and has a hostname. */
export function shouldSetHostname(pod: Pod, svc: Service): boolean {
  return !!pod.spec?.hostname && pod.spec?.subdomain === nameOf(svc) && namespaceOf(pod) === namespaceOf(svc);
}

/** FindPort: a numeric targetPort as is; a named one looked up in the pod's containers (and sidecars) by name and protocol. */
export function findPort(pod: Pod, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  const protocol = port.protocol ?? 'TCP';
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
  for (const c of containers) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort ?? undefined;
  }
  return undefined;
}

/** helper.IsServiceIPSet: a cluster IP that is not None. */
export function isServiceIPSet(svc: Service): boolean {
  const ip = svc.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
}

export function addressTypeOf(ip: string): AddressType {
  return isIPv6String(ip) ? 'IPv6' : 'IPv4';
}

/** getAddressTypesForService: the Service's IP families; else its cluster IP's; a headless Service without families gets both. */
export function serviceAddressTypes(svc: Service): Set<AddressType> {
  const out = new Set<AddressType>();
  for (const f of svc.spec?.ipFamilies ?? []) if (f === 'IPv4' || f === 'IPv6') out.add(f);
  if (out.size > 0) return out;
  if (isServiceIPSet(svc)) return new Set([addressTypeOf(svc.spec!.clusterIP!)]);
  return new Set<AddressType>(['IPv4', 'IPv6']);
}

/** The pod's IPs (status.podIPs, else status.podIP). */
export function podIPs(pod: Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip): ip is string => typeof ip === 'string' && ip !== '');
  if (ips.length > 0) return ips;
  return pod.status?.podIP ? [pod.status.podIP] : [];
}

/**
 * TriggerTimeTracker: per Service, the last trigger times seen (each pod's Ready transition, the
 * Service's creation); a sync's trigger time is the earliest of those that changed since the last
 * sync, 0 when none did.
 */
export class TriggerTimeTracker {
  private readonly states = new Map<string, { pods: Map<string, number>; service: number }>();

  compute(key: string, svc: Service, pods: readonly Pod[]): number {
    const state = this.states.get(key) ?? { pods: new Map<string, number>(), service: 0 };
    let min = 0;
    const earliest = (t: number) => {
      if (min === 0 || t < min) min = t;
    };
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = timeMs(podReadyCondition(pod)?.lastTransitionTime);
      if (t === 0) continue;
      podTimes.set(nameOf(pod), t);
      if (t > (state.pods.get(nameOf(pod)) ?? 0)) earliest(t);
    }
    const svcTime = timeMs(creationTimestampOf(svc));
    if (svcTime > state.service) earliest(svcTime);
    this.states.set(key, { pods: podTimes, service: svcTime });
    return min;
  }

  delete(key: string): void {
    this.states.delete(key);
  }
}

/** Go's time.RFC3339Nano of a UTC time in milliseconds (trailing zeros of the fraction dropped). */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}
