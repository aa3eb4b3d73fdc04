// core/v1 Endpoints: ValidateEndpoints (subsets: addresses, ports) on create and update.
import type { EndpointAddress, EndpointPort, Endpoints } from '../../../api/types.js';
import { child, index, num, optStr, str } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1123Label, isQualifiedName, isValidIP, isValidPortNum, nameIsDNSSubdomain, parseIP } from '../../../machinery/validation/names.js';
import { structs } from '../../../machinery/validation/structs.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

/**
 * A loopback range whose addresses Endpoints and EndpointSlices accept (none by default, as in
 * Kubernetes): the pods of the nodes' process runtime, which live on loopback addresses of the one
 * host (`kubelite apiserver --process-pod-cidr`, passed by `kubelite up --runtime process`).
 */
let processPodRange: { base: number; size: number } | undefined;

export function acceptProcessPodRange(range: { base: number; size: number } | undefined): void {
  processPodRange = range;
}

let loopbackApiServers = false;

/**
 * Several API servers on one host advertise loopback addresses (127.0.0.x, kubelite up
 * --apiservers N): every client and pod of such a cluster is on that host, so Endpoints may name
 * loopback IPv4 addresses, which the `kubernetes` Service's endpoints then list.
 */
export function acceptLoopbackApiServers(accept: boolean): void {
  loopbackApiServers = accept;
}

function inProcessPodRange(ip: string): boolean {
  const r = processPodRange;
  const b = parseIP(ip);
  if (!r || !b || b.length !== 4) return false;
  const n = ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!;
  return n >= r.base && n < r.base + r.size;
}

/** validateNonSpecialIP for an endpoint's address: the process runtime's pod addresses (and loopback API servers') are accepted. */
export function validateEndpointIP(ip: string, path: string): FieldError[] {
  return inProcessPodRange(ip) || (loopbackApiServers && /^127\.\d+\.\d+\.\d+$/.test(ip)) ? [] : validateNonSpecialIP(ip, path);
}

/** ValidateNonSpecialIP: not unspecified, loopback or link-local (v1.26 messages). */
export function validateNonSpecialIP(ip: string, path: string): FieldError[] {
  const b = parseIP(ip);
  if (!b) return [fieldError.invalid(path, ip, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v4 = b.length === 4 ? b : b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff ? b.slice(12) : undefined;
  const zero = b.every((x) => x === 0);
  const loopback = v4 ? v4[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  const linkLocalUnicast = v4 ? v4[0] === 169 && v4[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
  const linkLocalMulticast = v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
  if (zero) errs.push(fieldError.invalid(path, ip, `may not be unspecified (${ip})`));
  if (loopback) errs.push(fieldError.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocalUnicast) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (linkLocalMulticast) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];

function validateEndpointAddress(address: EndpointAddress, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ip = str(address.ip);
  errs.push(...isValidIP(ip).map((msg) => fieldError.invalid(child(path, 'ip'), ip, msg)));
  const hostname = str(address.hostname);
  if (hostname !== '') errs.push(...isDNS1123Label(hostname).map((msg) => fieldError.invalid(child(path, 'hostname'), hostname, msg)));
  const nodeName = optStr(address.nodeName);
  if (nodeName !== undefined) errs.push(...nameIsDNSSubdomain(nodeName, false).map((msg) => fieldError.invalid(child(path, 'nodeName'), nodeName, msg)));
  errs.push(...validateEndpointIP(ip, child(path, 'ip')));
  return errs;
}

function validateEndpointPort(port: EndpointPort, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port.name);
  if (requireName && name === '') errs.push(fieldError.required(child(path, 'name')));
  else if (name !== '') errs.push(...isDNS1123Label(name).map((msg) => fieldError.invalid(child(path, 'name'), name, msg)));
  errs.push(...isValidPortNum(num(port.port)).map((msg) => fieldError.invalid(child(path, 'port'), num(port.port), msg)));
  const proto = str(port.protocol);
  if (proto === '') errs.push(fieldError.required(child(path, 'protocol')));
  else if (!supportedPortProtocols.includes(proto)) errs.push(fieldError.notSupported(child(path, 'protocol'), proto, supportedPortProtocols));
  const appProtocol = optStr(port.appProtocol);
  if (appProtocol !== undefined) errs.push(...isQualifiedName(appProtocol).map((msg) => fieldError.invalid(child(path, 'appProtocol'), appProtocol, msg)));
  return errs;
}

export function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  structs(ep.subsets).forEach((ss, i) => {
    const p = index('subsets', i);
    const addresses = structs(ss.addresses);
    const notReady = structs(ss.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) errs.push(fieldError.required(p, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(child(p, 'addresses'), j))));
    notReady.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(child(p, 'notReadyAddresses'), j))));
    const ports = structs(ss.ports);
    ports.forEach((port, j) => errs.push(...validateEndpointPort(port, ports.length > 1, index(child(p, 'ports'), j))));
  });
  return errs;
}

export const endpointsStrategy: ResourceStrategy<Endpoints> = {
  hasStatus: false,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  validate: (ep) => validateEndpoints(ep),
  validateUpdate: (ep) => validateEndpoints(ep),
};

/** At most three endpoints as ip:port, then "+ N more...". */
function formatEndpoints(subsets: unknown): string {
  const all: string[] = [];
  for (const s of fmt.arr(subsets)) {
    const ports = fmt.arr(s.ports);
    for (const a of fmt.arr(s.addresses)) {
      if (ports.length === 0) all.push(fmt.str(a.ip));
      for (const p of ports) all.push(`${fmt.str(a.ip)}:${String(p.port)}`);
    }
  }
  if (all.length === 0) return '<none>';
  if (all.length <= 3) return all.join(',');
  return `${all.slice(0, 3).join(',')} + ${all.length - 3} more...`;
}

const endpointsPrinter: TablePrinter = {
  columns: [nameColumn, column('Endpoints', 'string', 'Addresses and ports of the endpoints.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), formatEndpoints(o.subsets), fmt.ageCell(o, now)],
};

export const endpointsModule: KindModule = { group: '', kind: 'Endpoints', strategy: endpointsStrategy, printer: endpointsPrinter };
