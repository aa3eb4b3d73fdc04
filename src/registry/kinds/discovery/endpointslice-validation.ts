// ValidateEndpointSlice (pkg/apis/discovery/validation): the address type, each endpoint's
// addresses as that type, its node name, deprecated topology, hostname and hints, and the ports.
import type { Endpoint, EndpointHints, EndpointSlicePort as EndpointPort, EndpointSlice } from '../../../api/types.js';
import { child, index, key, optStr, str, strs, validateLabels } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain, parseIP } from '../../../machinery/validation/names.js';
import { structs } from '../../../machinery/validation/structs.js';
import { validateEndpointIP } from '../core/endpoints.js';

export const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ADDRESSES = 100;
// 100 until Kubernetes 1.21 raised it (a Service may have more ports than that).
const MAX_PORTS = 20_000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;
const MAX_NODE_HINTS = 8;
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** IsValidIPv4Address / IsValidIPv6Address. */
function validateIPOfFamily(address: string, v6: boolean, path: string): FieldError[] {
  const ip = parseIP(address);
  const ok = ip !== undefined && (v6 ? ip.length === 16 && !isV4Mapped(ip) : ip.length === 4 || isV4Mapped(ip));
  return ok ? [] : [fieldError.invalid(path, address, `must be a valid ${v6 ? 'IPv6' : 'IPv4'} address`)];
}

function isV4Mapped(b: number[]): boolean {
  return b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** IsFullyQualifiedDomainName. */
export function validateFQDN(name: string, path: string): FieldError[] {
  if (name === '') return [fieldError.required(path)];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const subdomain = isDNS1123Subdomain(trimmed);
  if (subdomain.length > 0) return [fieldError.invalid(path, trimmed, subdomain.join(','))];
  const labels = trimmed.split('.');
  if (labels.length < 2) return [fieldError.invalid(path, trimmed, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length > 0) return [fieldError.invalid(path, label, errs.join(','))];
  }
  return [];
}

function validateAddress(address: string, addressType: string, path: string): FieldError[] {
  switch (addressType) {
    case 'IPv4':
    case 'IPv6':
      return [...validateIPOfFamily(address, addressType === 'IPv6', path), ...validateEndpointIP(address, path)];
    case 'FQDN':
      return validateFQDN(address, path);
    default:
      return []; // unknown types are reported on addressType
  }
}

function validateHints(hints: EndpointHints, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const named = (items: Array<{ name?: string | null }>, listPath: string, max: number, check: (name: string) => string[]) => {
    if (items.length > max) {
      errs.push(fieldError.tooMany(listPath, items.length, max));
      return;
    }
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const name = str(item.name);
      const p = child(index(listPath, i), 'name');
      if (seen.has(name)) errs.push(fieldError.duplicate(p, name));
      else seen.add(name);
      for (const msg of check(name)) errs.push(fieldError.invalid(p, name, msg));
    });
  };
  named(structs(hints.forZones), child(path, 'forZones'), MAX_ZONE_HINTS, isValidLabelValue);
  named(structs(hints.forNodes), child(path, 'forNodes'), MAX_NODE_HINTS, (n) => nameIsDNSSubdomain(n, false));
  return errs;
}

function validateEndpoint(endpoint: Endpoint, addressType: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const addressPath = child(path, 'addresses');
  const addresses = strs(endpoint.addresses);
  if (addresses.length === 0) errs.push(fieldError.required(addressPath, 'must contain at least 1 address'));
  else if (addresses.length > MAX_ADDRESSES) errs.push(fieldError.tooMany(addressPath, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => errs.push(...validateAddress(a, addressType, index(addressPath, i))));
  const nodeName = optStr(endpoint.nodeName);
  if (nodeName !== undefined) for (const msg of nameIsDNSSubdomain(nodeName, false)) errs.push(fieldError.invalid(child(path, 'nodeName'), nodeName, msg));
  const topologyPath = child(path, 'deprecatedTopology');
  const topology = endpoint.deprecatedTopology ?? {};
  const topologyKeys = Object.keys(topology);
  if (topologyKeys.length > MAX_TOPOLOGY_LABELS) errs.push(fieldError.tooMany(topologyPath, topologyKeys.length, MAX_TOPOLOGY_LABELS));
  errs.push(...validateLabels(topology, topologyPath));
  if (topologyKeys.includes(ZONE_LABEL)) errs.push(fieldError.internal(key(topologyPath, ZONE_LABEL), 'reserved key was not removed in conversion'));
  const hostname = optStr(endpoint.hostname);
  if (hostname !== undefined) for (const msg of isDNS1123Label(hostname)) errs.push(fieldError.invalid(child(path, 'hostname'), hostname, msg));
  if (endpoint.hints) errs.push(...validateHints(endpoint.hints, child(path, 'hints')));
  return errs;
}

function validatePorts(ports: EndpointPort[]): FieldError[] {
  if (ports.length > MAX_PORTS) return [fieldError.tooMany('ports', ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = index('ports', i);
    const name = str(port.name);
    if (name !== '') for (const msg of isDNS1123Label(name)) errs.push(fieldError.invalid(child(p, 'name'), name, msg));
    if (names.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
    else names.add(name);
    const protocol = optStr(port.protocol);
    if (protocol === undefined) errs.push(fieldError.required(child(p, 'protocol')));
    else if (!PORT_PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(child(p, 'protocol'), protocol, PORT_PROTOCOLS));
    const appProtocol = optStr(port.appProtocol);
    if (appProtocol !== undefined) for (const msg of isQualifiedName(appProtocol)) errs.push(fieldError.invalid(child(p, 'appProtocol'), appProtocol, msg));
  });
  return errs;
}

export function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs: FieldError[] = [];
  const addressType = str(slice.addressType);
  if (addressType === '') errs.push(fieldError.required('addressType'));
  else if (!ADDRESS_TYPES.includes(addressType)) errs.push(fieldError.notSupported('addressType', addressType, ADDRESS_TYPES));
  const endpoints = structs(slice.endpoints);
  if (endpoints.length > MAX_ENDPOINTS) errs.push(fieldError.tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
  else endpoints.forEach((e, i) => errs.push(...validateEndpoint(e, addressType, index('endpoints', i))));
  errs.push(...validatePorts(structs(slice.ports)));
  return errs;
}
