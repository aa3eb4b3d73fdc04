// The EndpointSlice controller's pieces (the endpointslice library's utils): a pod as an endpoint,
// the Service's ports for a pod, a new slice for a Service, its labels, and the key that tells two
// endpoints apart (hashEndpoint) and the one grouping slices by ports (PortMapKey).
import { isBeingDeleted, labelsOf, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import { slicePrefix } from '../common/endpointslices.js';
import type { Endpoint, EndpointSlice, EndpointSlicePort, Node, Pod, Service } from '../../api/types.js';
import { isPodReady } from '../common/pods.js';
import {
  HEADLESS_LABEL, MANAGED_BY_LABEL, SERVICE_NAME_LABEL, addressTypeOf, findPort, isServiceIPSet, podIPs, shouldSetHostname, type AddressType,
} from '../common/services.js';

export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** podToEndpoint: ready only when serving and not terminating (or when the Service publishes not-ready addresses). */
export function podToEndpoint(pod: Pod, node: Node | undefined, svc: Service, addressType: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = isBeingDeleted(pod);
  const ready = svc.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const ep: Endpoint = {
    addresses: podIPs(pod).filter((ip) => addressTypeOf(ip) === addressType),
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: namespaceOf(pod), name: nameOf(pod), uid: uidOf(pod) },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node ? labelsOf(node)[ZONE_LABEL] : undefined;
  if (zone) ep.zone = zone;
  if (shouldSetHostname(pod, svc)) ep.hostname = pod.spec!.hostname!;
  return ep;
}

/** getEndpointPorts: each Service port resolved on this pod (a named port the pod lacks is left out). */
export function endpointPorts(svc: Service, pod: Pod): EndpointSlicePort[] {
  const ports = svc.spec?.ports ?? [];
  const out: EndpointSlicePort[] = [];
  for (const sp of ports) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const p: EndpointSlicePort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol !== undefined && sp.appProtocol !== null) p.appProtocol = sp.appProtocol;
    out.push(p);
  }
  return out;
}



/** EndpointsEqualBeyondHash: conditions, zone, node, hints and target (uid included) equal. */
export function endpointsEqualBeyondHash(a: Endpoint, b: Endpoint): boolean {
  const c1 = a.conditions ?? {};
  const c2 = b.conditions ?? {};
  if ((c1.ready ?? null) !== (c2.ready ?? null) || (c1.serving ?? null) !== (c2.serving ?? null) || (c1.terminating ?? null) !== (c2.terminating ?? null)) return false;
  if ((a.zone ?? '') !== (b.zone ?? '') || (a.nodeName ?? '') !== (b.nodeName ?? '')) return false;
  if (JSON.stringify(a.hints ?? null) !== JSON.stringify(b.hints ?? null)) return false;
  const t1 = a.targetRef ?? {};
  const t2 = b.targetRef ?? {};
  return t1.kind === t2.kind && t1.namespace === t2.namespace && t1.name === t2.name && t1.uid === t2.uid;
}

/** setEndpointSliceLabels: the Service's labels (but the reserved ones) plus the service name, managed-by and headless labels; and whether the Service's part changed. */
export function sliceLabels(slice: EndpointSlice | undefined, svc: Service, controllerName: string): { labels: Record<string, string>; changed: boolean } {
  const reserved = (k: string) => k === SERVICE_NAME_LABEL || k === MANAGED_BY_LABEL || k === HEADLESS_LABEL;
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(slice ? labelsOf(slice) : {})) if (!reserved(k)) own[k] = v;
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(labelsOf(svc))) if (!reserved(k)) labels[k] = v;
  const changed = JSON.stringify(Object.entries(own).sort()) !== JSON.stringify(Object.entries(labels).sort());
  if (!isServiceIPSet(svc)) labels[HEADLESS_LABEL] = '';
  labels[SERVICE_NAME_LABEL] = nameOf(svc);
  labels[MANAGED_BY_LABEL] = controllerName;
  return { labels, changed };
}

/** newEndpointSlice: generateName `<service>-`, owned by the Service (controller reference). */
export function newEndpointSlice(svc: Service, ports: EndpointSlicePort[], addressType: AddressType, controllerName: string): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(nameOf(svc)),
      namespace: namespaceOf(svc),
      labels: sliceLabels(undefined, svc, controllerName).labels,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: nameOf(svc), uid: uidOf(svc), controller: true, blockOwnerDeletion: true }],
    },
    addressType,
    endpoints: [],
    ports,
  };
}


/** ownedBy: the slice has an owner reference to this Service (by uid). */
export function ownedBy(slice: EndpointSlice, svc: Service): boolean {
  return (slice.metadata?.ownerReferences ?? []).some((o) => o.uid === uidOf(svc) && o.kind === 'Service' && o.apiVersion === 'v1');
}
