// EndpointSlice: defaults, ValidateEndpointSlice(Update) as Kubernetes words it, generation, the
// printer (kubectl's list-with-more cells) and the protobuf facts (discovery/v1 generated.proto).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import { EndpointSliceList } from '../../../api/discovery/v1.js';
import { create, lines, update } from '../kinds.testutil.js';
import { printerOf } from '../index.js';
import { declaredFieldNumbers, protobufRoundTrip } from '../protobuf.testutil.js';

const slice = (more: Record<string, unknown> = {}) => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'web-abc', labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true }, nodeName: 'n1', zone: 'z1' }],
  ports: [{ name: 'http', port: 80 }],
  ...more,
});
const errorsOf = (obj: Record<string, unknown>) => lines(create(obj).errors);

test('EndpointSlice defaults each port to name "" and protocol TCP; generation starts at 1', () => {
  const { obj, errors } = create(slice({ ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }));
  assert.deepEqual(lines(errors), []);
  assert.deepEqual(obj.ports, [{ port: 80, name: '', protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  assert.equal((obj.metadata as Record<string, unknown>).generation, 1);
});

test('EndpointSlice validation: address type, addresses per type, node names, hints, ports', () => {
  assert.deepEqual(errorsOf(slice()), []);
  assert.deepEqual(errorsOf(slice({ addressType: '' })), ['addressType: Required value']);
  assert.deepEqual(errorsOf(slice({ addressType: 'IP' })), ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']);
  assert.deepEqual(errorsOf(slice({ endpoints: [{ addresses: [] }, { addresses: ['fd00::1', '127.0.0.1'] }] })), [
    'endpoints[0].addresses: Required value: must contain at least 1 address',
    'endpoints[1].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
    'endpoints[1].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
  ]);
  assert.deepEqual(errorsOf(slice({ addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1', 'fd00::1'] }] })), ['endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address']);
  assert.deepEqual(errorsOf(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['example.com', 'single', 'Bad_Host.com'] }] })), [
    'endpoints[0].addresses[1]: Invalid value: "single": should be a domain with at least two segments separated by dots',
    `endpoints[0].addresses[2]: Invalid value: "Bad_Host.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
  assert.deepEqual(errorsOf(slice({ endpoints: [{ addresses: ['10.0.0.1'], nodeName: 'Bad_Node', hostname: 'a.b', hints: { forZones: [{ name: 'z1' }, { name: 'z1' }] } }] })), [
    `endpoints[0].nodeName: Invalid value: "Bad_Node": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'endpoints[0].hostname: Invalid value: "a.b": must not contain dots',
    'endpoints[0].hints.forZones[1].name: Duplicate value: "z1"',
  ]);
  const nineZones = Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` }));
  assert.deepEqual(errorsOf(slice({ endpoints: [{ addresses: ['10.0.0.1'], hints: { forZones: nineZones } }] })), ['endpoints[0].hints.forZones: Too many: 9: must have at most 8 items']);
  assert.deepEqual(errorsOf(slice({ endpoints: Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] })) })), ['endpoints: Too many: 1001: must have at most 1000 items']);
  assert.deepEqual(errorsOf(slice({ ports: Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, port: 80 })) })), [], 'at most 20000 ports since 1.21');
  assert.deepEqual(errorsOf(slice({ ports: Array.from({ length: 20001 }, () => ({ port: 80 })) })), ['ports: Too many: 20001: must have at most 20000 items']);
  assert.deepEqual(errorsOf(slice({ ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81, protocol: 'ICMP', appProtocol: 'not valid' }, { name: 'Bad', port: 82 }] })), [
    'ports[1].name: Duplicate value: "http"',
    'ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    `ports[1].appProtocol: Invalid value: "not valid": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    `ports[2].name: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]);
});

test('EndpointSlice hints for nodes are dropped (PreferSameTrafficDistribution is off in 1.33) unless the old object had some', () => {
  const withNodes = slice({ endpoints: [{ addresses: ['10.0.0.1'], hints: { forZones: [{ name: 'z1' }], forNodes: [{ name: 'n1' }] } }] });
  const created = create(withNodes).obj;
  assert.deepEqual((created.endpoints as Array<Record<string, unknown>>)[0]!.hints, { forZones: [{ name: 'z1' }] });
  const old = { ...withNodes, metadata: { name: 'web-abc', namespace: 'vectors', uid: 'u', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' } };
  assert.deepEqual((update(old, old).obj.endpoints as Array<Record<string, unknown>>)[0]!.hints, { forZones: [{ name: 'z1' }], forNodes: [{ name: 'n1' }] });
  assert.deepEqual((update(withNodes, { ...created, metadata: old.metadata }).obj.endpoints as Array<Record<string, unknown>>)[0]!.hints, { forZones: [{ name: 'z1' }] });
});

test('EndpointSlice update: addressType immutable; generation +1 when anything but metadata (or the labels) changes', () => {
  const old = { ...create(slice()).obj, metadata: { name: 'web-abc', namespace: 'vectors', uid: 'u', resourceVersion: '1', generation: 3, creationTimestamp: '2026-01-01T00:00:00Z', labels: { a: 'b' } } };
  const gen = (o: Record<string, unknown>) => (update(o, old).obj.metadata as Record<string, unknown>).generation;
  assert.equal(gen({ ...old, metadata: { ...old.metadata, annotations: { x: 'y' } } }), 3);
  assert.equal(gen({ ...old, metadata: { ...old.metadata, labels: { a: 'c' } } }), 4);
  assert.equal(gen({ ...old, endpoints: [{ addresses: ['10.0.0.2'] }] }), 4);
  assert.deepEqual(lines(update({ ...old, addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1'] }] }, old).errors), ['addressType: Invalid value: "IPv6": field is immutable']);
});

test('EndpointSlice prints NAME ADDRESSTYPE PORTS ENDPOINTS AGE as kubectl does', () => {
  const printer = printerOf(findResource('discovery.k8s.io', 'v1', 'endpointslices')!);
  assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
  const at = (o: Record<string, unknown>) => printer.cells({ ...o, metadata: { name: 'web-abc', creationTimestamp: '2026-01-01T00:00:00Z' } }, Date.parse('2026-01-01T00:00:30Z'));
  assert.deepEqual(at(slice()), ['web-abc', 'IPv4', '80', '10.0.0.1', '30s']);
  assert.deepEqual(at(slice({ endpoints: [], ports: [] })), ['web-abc', 'IPv4', '<unset>', '<unset>', '30s']);
  const many = slice({
    endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }, { addresses: ['10.0.0.4', '10.0.0.5'] }],
    ports: [{ port: 1 }, { name: 'named' }, {}, { port: 4 }],
  });
  assert.deepEqual(at(many), ['web-abc', 'IPv4', '1,named,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...', '30s']);
});

test('EndpointSlice protobuf: generated.proto field numbers, lossless round trip', () => {
  assert.deepEqual(declaredFieldNumbers(EndpointSliceList, 'io.k8s.api.discovery.v1.'), [
    'Endpoint addresses 1', 'Endpoint conditions 2', 'Endpoint deprecatedTopology 5', 'Endpoint hints 8', 'Endpoint hostname 3', 'Endpoint nodeName 6', 'Endpoint targetRef 4', 'Endpoint zone 7',
    'EndpointConditions ready 1', 'EndpointConditions serving 2', 'EndpointConditions terminating 3',
    'EndpointHints forNodes 2', 'EndpointHints forZones 1',
    'EndpointPort appProtocol 4', 'EndpointPort name 1', 'EndpointPort port 3', 'EndpointPort protocol 2',
    'EndpointSlice addressType 4', 'EndpointSlice endpoints 2', 'EndpointSlice metadata 1', 'EndpointSlice ports 3',
    'EndpointSliceList items 2', 'EndpointSliceList metadata 1', 'ForNode name 1', 'ForZone name 1',
  ]);
  const obj = {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'web-abc', namespace: 'ns', uid: 'u1', resourceVersion: '7', generation: 2, creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [{
      addresses: ['10.0.0.1'], conditions: { ready: true, serving: true, terminating: false }, hostname: 'h', targetRef: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'pu' },
      deprecatedTopology: { rack: 'r1' }, nodeName: 'n1', zone: 'z1', hints: { forZones: [{ name: 'z1' }], forNodes: [{ name: 'n1' }] },
    }],
    ports: [{ name: 'http', protocol: 'TCP', port: 80, appProtocol: 'http' }],
  };
  assert.deepEqual(protobufRoundTrip(findResource('discovery.k8s.io', 'v1', 'endpointslices')!, obj), obj);
});
