// Building an Endpoints object's subsets as Kubernetes does: one address per selected pod (with
// its ports resolved per pod), repacked so that addresses sharing the same ports share a subset
// (pkg/api/v1/endpoints RepackSubsets), and truncated at 1,000 addresses.
import { nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { EndpointAddress, EndpointPort, EndpointSubset, Pod, Service } from '../../api/types.js';
import { addressTypeOf, podIPs } from '../common/services.js';

/** The most addresses an Endpoints object carries (maxCapacity). */
export const MAX_ENDPOINTS_CAPACITY = 1000;
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';

/** podToEndpointAddressForService: the pod's IP of the Service's (first) family, with nodeName and targetRef. */
export function podToEndpointAddress(svc: Service, pod: Pod): EndpointAddress | undefined {
  const ips = podIPs(pod);
  if (ips.length === 0) return undefined;
  let family = svc.spec?.ipFamilies?.[0];
  if (family === undefined) {
    const clusterIP = svc.spec?.clusterIP ?? '';
    family = clusterIP !== '' && clusterIP !== 'None' ? addressTypeOf(clusterIP) : addressTypeOf(ips[0]!);
  }
  const ip = ips.find((i) => addressTypeOf(i) === family);
  if (ip === undefined) return undefined;
  return {
    ip,
    nodeName: pod.spec?.nodeName ?? '',
    targetRef: { kind: 'Pod', namespace: namespaceOf(pod), name: nameOf(pod), uid: uidOf(pod) },
  };
}

const addressKey = (a: EndpointAddress): string => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
const portKey = (p: EndpointPort): string => `${p.name ?? ''}\u0000${p.port}\u0000${p.protocol ?? ''}\u0000${p.appProtocol ?? ''}`;
/** The ports of an address-less "port" that keeps port-less addresses (headless Services) in the repack. */
const NO_PORT: EndpointPort = { port: -1 };

/**
 * RepackSubsets: maps every port to the addresses offering it (an address ready for a port if any
 * subset says so), then groups ports by identical address sets. Addresses, ports and subsets come
 * out sorted, so equal inputs give equal outputs.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addrs = new Map<string, EndpointAddress>();
  const portAddrs = new Map<string, { port: EndpointPort; ready: Map<string, boolean> }>();
  const note = (addr: EndpointAddress, port: EndpointPort, ready: boolean) => {
    const ak = addressKey(addr);
    if (!addrs.has(ak)) addrs.set(ak, addr);
    const pk = portKey(port);
    let entry = portAddrs.get(pk);
    if (!entry) portAddrs.set(pk, (entry = { port, ready: new Map() }));
    if (entry.ready.get(ak) !== true) entry.ready.set(ak, ready);
  };
  for (const s of subsets) {
    const ports = s.ports && s.ports.length > 0 ? s.ports : [NO_PORT];
    for (const port of ports) {
      for (const a of s.addresses ?? []) note(a, port, true);
      for (const a of s.notReadyAddresses ?? []) note(a, port, false);
    }
  }
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of portAddrs.values()) {
    const key = [...ready.entries()].map(([k, r]) => `${k}\u0000${r}`).sort().join('\u0001');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ready, ports: [] }));
    if ((port.port ?? 0) > 0) g.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const g of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [k, r] of g.ready) (r ? ready : notReady).push(addrs.get(k)!);
    const subset: EndpointSubset = {};
    if (ready.length > 0) subset.addresses = ready.sort(compareAddresses);
    if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(compareAddresses);
    if (g.ports.length > 0) subset.ports = g.ports.sort((a, b) => (portKey(a) < portKey(b) ? -1 : portKey(a) > portKey(b) ? 1 : 0));
    out.push(subset);
  }
  const subsetKey = (s: EndpointSubset) => JSON.stringify(s);
  return out.sort((a, b) => (subsetKey(a) < subsetKey(b) ? -1 : subsetKey(a) > subsetKey(b) ? 1 : 0));
}

/** LessEndpointAddress: by IP, then by the target's uid (none first). */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  const ia = a.ip ?? '';
  const ib = b.ip ?? '';
  if (ia !== ib) return ia < ib ? -1 : 1;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

const countAddresses = (subsets: readonly EndpointSubset[]) => {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += s.addresses?.length ?? 0;
    notReady += s.notReadyAddresses?.length ?? 0;
  }
  return { ready, notReady };
};

/**
 * truncateEndpoints: over 1,000 addresses, keeps not-ready addresses only as room allows (or, when
 * ready ones alone are too many, drops every not-ready one and cuts the ready ones), each subset
 * keeping its share of what remains. Returns whether anything was cut.
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  const { ready, notReady } = countAddresses(subsets);
  if (ready + notReady <= MAX_ENDPOINTS_CAPACITY) return false;
  const truncateReady = ready > MAX_ENDPOINTS_CAPACITY;
  const max = truncateReady ? MAX_ENDPOINTS_CAPACITY : MAX_ENDPOINTS_CAPACITY - ready;
  const total = truncateReady ? ready : notReady;
  let room = max;
  for (const s of subsets) {
    const inSubset = truncateReady ? (s.addresses?.length ?? 0) : (s.notReadyAddresses?.length ?? 0);
    const take = Math.min(Math.ceil((inSubset / total) * max), room);
    if (truncateReady) {
      s.addresses = (s.addresses ?? []).slice(0, take);
      s.notReadyAddresses = [];
      room -= s.addresses.length;
    } else {
      s.notReadyAddresses = (s.notReadyAddresses ?? []).slice(0, take);
      room -= s.notReadyAddresses.length;
    }
  }
  return true;
}

/** capacityAnnotationSetCorrectly: within capacity and without the over-capacity annotation. */
export function capacityAnnotationSetCorrectly(annotations: Record<string, string>, subsets: readonly EndpointSubset[]): boolean {
  const { ready, notReady } = countAddresses(subsets);
  if (ready + notReady > MAX_ENDPOINTS_CAPACITY) return false;
  return !(OVER_CAPACITY_ANNOTATION in annotations);
}
