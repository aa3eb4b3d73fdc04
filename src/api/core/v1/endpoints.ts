// core/v1 Endpoints (deprecated since v1.33 in favour of discovery.k8s.io EndpointSlice, still
// served). Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../../schema/dsl.js';
import { Protocol } from './container.js';
import { ObjectReference } from './references.js';

export const EndpointAddress = struct(
  'io.k8s.api.core.v1.EndpointAddress',
  {
    ip: field(t.string, 1, { omitempty: false, required: true }),
    hostname: field(t.string, 3),
    nodeName: field(t.string, 4, { pointer: true }),
    targetRef: field(ObjectReference, 2, { pointer: true }),
  },
  { structType: 'atomic' },
);

export const EndpointPort = struct(
  'io.k8s.api.core.v1.EndpointPort',
  {
    name: field(t.string, 1),
    port: field(t.int32, 2, { omitempty: false, required: true }),
    protocol: field(t.string, 3, { enum: Protocol }),
    appProtocol: field(t.string, 4, { pointer: true }),
  },
  { structType: 'atomic' },
);

/** A set of addresses sharing a set of ports (the endpoints are their cartesian product). */
export const EndpointSubset = struct('io.k8s.api.core.v1.EndpointSubset', {
  addresses: field(listOf(EndpointAddress), 1, { listType: 'atomic' }),
  notReadyAddresses: field(listOf(EndpointAddress), 2, { listType: 'atomic' }),
  ports: field(listOf(EndpointPort), 3, { listType: 'atomic' }),
});

export const Endpoints = struct('io.k8s.api.core.v1.Endpoints', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  subsets: field(listOf(EndpointSubset), 2, { listType: 'atomic' }),
});

export const EndpointsList = struct('io.k8s.api.core.v1.EndpointsList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Endpoints), 2, { omitempty: false, required: true }),
});
