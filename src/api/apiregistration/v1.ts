// apiregistration.k8s.io/v1 (k8s.io/kube-aggregator/pkg/apis/apiregistration/v1): APIService,
// one group/version and who serves it. Field numbers are those of its generated.proto (6 is the
// retired `priority`).
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.';

export const ServiceReference = struct(G + 'ServiceReference', {
  namespace: field(t.string, 1),
  name: field(t.string, 2),
  port: field(t.int32, 3, { pointer: true }),
});

export const APIServiceSpec = struct(G + 'APIServiceSpec', {
  /** Absent (null): the group/version is served by this server itself. */
  service: field(ServiceReference, 1, { pointer: true, omitempty: false }),
  group: field(t.string, 2),
  version: field(t.string, 3),
  insecureSkipTLSVerify: field(t.bool, 4),
  caBundle: field(t.bytes, 5),
  groupPriorityMinimum: field(t.int32, 7, { omitempty: false, required: true }),
  versionPriority: field(t.int32, 8, { omitempty: false, required: true }),
});

export const APIServiceCondition = struct(G + 'APIServiceCondition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 2, { omitempty: false, required: true }),
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const APIServiceStatus = struct(G + 'APIServiceStatus', {
  conditions: field(listOf(APIServiceCondition), 1, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
});

export const APIService = struct(G + 'APIService', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(APIServiceSpec, 2),
  status: field(APIServiceStatus, 3),
});

export const APIServiceList = struct(G + 'APIServiceList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(APIService), 2, { omitempty: false, required: true }),
});
