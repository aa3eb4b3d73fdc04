// apidiscovery.k8s.io/v2: aggregated discovery, the body of GET /api and /apis when the client
// asks for `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList` (kubectl does).
// Field numbers are those of k8s.io/api apidiscovery/v2 generated.proto.
import { GroupVersionKind, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

// GroupVersionKind is a meta/v1 type (io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionKind);
// it is declared in ../meta/v1.ts and re-exported here for convenience.
export { GroupVersionKind };

/** A subresource of a resource (`status`, `scale`, ...). */
export const APISubresourceDiscovery = struct('io.k8s.api.apidiscovery.v2.APISubresourceDiscovery', {
  subresource: field(t.string, 1, { omitempty: false, required: true }),
  responseKind: field(GroupVersionKind, 2, { pointer: true }),
  acceptedTypes: field(listOf(GroupVersionKind), 3, { listType: 'map', listMapKeys: ['group', 'version', 'kind'] }),
  verbs: field(listOf(t.string), 4, { omitempty: false, required: true, listType: 'set' }),
});

/** A resource of a group version. `scope` is `Cluster` or `Namespaced`. */
export const APIResourceDiscovery = struct('io.k8s.api.apidiscovery.v2.APIResourceDiscovery', {
  resource: field(t.string, 1, { omitempty: false, required: true }),
  responseKind: field(GroupVersionKind, 2, { pointer: true }),
  scope: field(t.string, 3, { omitempty: false, required: true }),
  singularResource: field(t.string, 4, { omitempty: false, required: true }),
  verbs: field(listOf(t.string), 5, { omitempty: false, required: true, listType: 'set' }),
  shortNames: field(listOf(t.string), 6, { listType: 'set' }),
  categories: field(listOf(t.string), 7, { listType: 'set' }),
  subresources: field(listOf(APISubresourceDiscovery), 8, { listType: 'map', listMapKeys: ['subresource'] }),
});

/** One version of a group. `freshness` is `Current` or `Stale`. */
export const APIVersionDiscovery = struct('io.k8s.api.apidiscovery.v2.APIVersionDiscovery', {
  version: field(t.string, 1, { omitempty: false, required: true }),
  resources: field(listOf(APIResourceDiscovery), 2, { listType: 'map', listMapKeys: ['resource'] }),
  freshness: field(t.string, 3),
});

/** One group; metadata.name is the group name ("" for the core group). Versions in preference order. */
export const APIGroupDiscovery = struct('io.k8s.api.apidiscovery.v2.APIGroupDiscovery', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  versions: field(listOf(APIVersionDiscovery), 2, { listType: 'map', listMapKeys: ['version'] }),
});

export const APIGroupDiscoveryList = struct('io.k8s.api.apidiscovery.v2.APIGroupDiscoveryList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(APIGroupDiscovery), 2, { omitempty: false, required: true }),
});
