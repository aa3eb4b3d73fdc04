// The mirroring controller's desired slices (pkg/controller/endpointslicemirroring's reconciler
// and utils): the addresses of an Endpoints object, per address type and set of ports, at most
// --mirroring-max-endpoints-per-subset per subset, as EndpointSlices owned by the Endpoints.
import { annotationsOf, labelsOf, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Endpoint, EndpointAddress, EndpointSlice, EndpointSlicePort, Endpoints } from '../../api/types.js';
import { parseIP } from '../../machinery/validation/names.js';
import { endpointKey, portMapKey, slicePrefix } from '../common/endpointslices.js';
import { LAST_CHANGE_TRIGGER_TIME, MANAGED_BY_LABEL, SERVICE_NAME_LABEL, addressTypeOf, type AddressType } from '../common/services.js';

export const MIRRORING_CONTROLLER_NAME = 'endpointslicemirroring-controller.k8s.io';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export interface DesiredGroup {
  addressType: AddressType;
  ports: EndpointSlicePort[];
  endpoints: Map<string, Endpoint>;
}

export interface Desired {
  groups: Map<string, DesiredGroup>;
  /** Addresses that are not IPs. */
  invalid: number;
  /** Addresses past the per-subset maximum. */
  overMax: number;
}

/** addressToEndpoint: the address as an endpoint with its ready condition, undefined for an address that is no IP. */
function addressToEndpoint(a: EndpointAddress, ready: boolean): { ep: Endpoint; type: AddressType } | undefined {
  const ip = a.ip ?? '';
  if (parseIP(ip, true) === undefined) return undefined;
  const ep: Endpoint = { addresses: [ip], conditions: { ready } };
  if (a.targetRef) ep.targetRef = a.targetRef;
  if (a.nodeName) ep.nodeName = a.nodeName;
  if (a.hostname) ep.hostname = a.hostname;
  return { ep, type: addressTypeOf(ip) };
}

export function desiredGroups(endpoints: Endpoints, maxPerSubset: number): Desired {
  const groups = new Map<string, DesiredGroup>();
  let invalid = 0;
  let overMax = 0;
  for (const subset of endpoints.subsets ?? []) {
    const ports: EndpointSlicePort[] = (subset.ports ?? []).map((p) => {
      const out: EndpointSlicePort = { name: p.name ?? '', port: p.port ?? 0, protocol: p.protocol ?? 'TCP' };
      if (p.appProtocol !== undefined && p.appProtocol !== null) out.appProtocol = p.appProtocol;
      return out;
    });
    const total = (subset.addresses ?? []).length + (subset.notReadyAddresses ?? []).length;
    let added = 0;
    let skippedInvalid = 0;
    const add = (a: EndpointAddress, ready: boolean) => {
      if (added >= maxPerSubset) return;
      const conv = addressToEndpoint(a, ready);
      if (!conv) {
        skippedInvalid++;
        return;
      }
      const key = `${conv.type}-${portMapKey(ports)}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { addressType: conv.type, ports, endpoints: new Map() }));
      const k = endpointKey(conv.ep);
      if (!g.endpoints.has(k)) g.endpoints.set(k, conv.ep);
      added++;
    };
    for (const a of subset.addresses ?? []) add(a, true);
    for (const a of subset.notReadyAddresses ?? []) add(a, false);
    invalid += skippedInvalid;
    overMax += total - added - skippedInvalid;
  }
  return { groups, invalid, overMax };
}

/** newEndpointSlice: the Endpoints' labels and annotations (but the trigger time and kubectl's last-applied), owned by it. */
export function mirroredSlice(endpoints: Endpoints, group: DesiredGroup, endpointList: Endpoint[]): EndpointSlice {
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotationsOf(endpoints))) if (k !== LAST_CHANGE_TRIGGER_TIME && k !== LAST_APPLIED) annotations[k] = v;
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(nameOf(endpoints)),
      namespace: namespaceOf(endpoints),
      labels: { ...labelsOf(endpoints), [SERVICE_NAME_LABEL]: nameOf(endpoints), [MANAGED_BY_LABEL]: MIRRORING_CONTROLLER_NAME },
      annotations,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Endpoints', name: nameOf(endpoints), uid: uidOf(endpoints), controller: true, blockOwnerDeletion: true }],
    },
    addressType: group.addressType,
    endpoints: endpointList,
    ports: group.ports,
  };
}
