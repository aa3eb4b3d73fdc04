// discovery.k8s.io/v1 (k8s.io/api/discovery/v1): EndpointSlice. Field numbers are those of
// discovery/v1 generated.proto.
import { ObjectReference } from '../core/v1/references.js';
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.discovery.v1.';

export const EndpointConditions = struct(G + 'EndpointConditions', {
  ready: field(t.bool, 1, { pointer: true }),
  serving: field(t.bool, 2, { pointer: true }),
  terminating: field(t.bool, 3, { pointer: true }),
});

export const ForZone = struct(G + 'ForZone', {
  name: field(t.string, 1, { omitempty: false, required: true }),
});

export const ForNode = struct(G + 'ForNode', {
  name: field(t.string, 1, { omitempty: false, required: true }),
});

export const EndpointHints = struct(G + 'EndpointHints', {
  forZones: field(listOf(ForZone), 1, { listType: 'atomic' }),
  forNodes: field(listOf(ForNode), 2, { listType: 'atomic' }),
});

export const Endpoint = struct(G + 'Endpoint', {
  addresses: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'set' }),
  conditions: field(EndpointConditions, 2),
  hostname: field(t.string, 3, { pointer: true }),
  targetRef: field(ObjectReference, 4, { pointer: true }),
  deprecatedTopology: field(mapOf(t.string), 5),
  nodeName: field(t.string, 6, { pointer: true }),
  zone: field(t.string, 7, { pointer: true }),
  hints: field(EndpointHints, 8, { pointer: true }),
});

export const EndpointPort = struct(
  G + 'EndpointPort',
  {
    name: field(t.string, 1, { pointer: true }),
    protocol: field(t.string, 2, { pointer: true }),
    port: field(t.int32, 3, { pointer: true }),
    appProtocol: field(t.string, 4, { pointer: true }),
  },
  { structType: 'atomic' },
);

export const EndpointSlice = struct(G + 'EndpointSlice', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  addressType: field(t.string, 4, { omitempty: false, required: true, enum: ['FQDN', 'IPv4', 'IPv6'] }),
  endpoints: field(listOf(Endpoint), 2, { omitempty: false, required: true, listType: 'atomic' }),
  ports: field(listOf(EndpointPort), 3, { omitempty: false, listType: 'atomic' }),
});

export const EndpointSliceList = struct(G + 'EndpointSliceList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(EndpointSlice), 2, { omitempty: false, required: true }),
});
