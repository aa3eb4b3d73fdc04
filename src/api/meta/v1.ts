// meta.k8s.io/v1 (k8s.io/apimachinery/pkg/apis/meta/v1): object and list metadata and the other
// machinery types shared by every kind. Field numbers are those of apimachinery's generated.proto.
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

export const OwnerReference = struct(
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
  {
    apiVersion: field(t.string, 5, { omitempty: false, required: true }),
    kind: field(t.string, 1, { omitempty: false, required: true }),
    name: field(t.string, 3, { omitempty: false, required: true }),
    uid: field(t.string, 4, { omitempty: false, required: true }),
    controller: field(t.bool, 6, { pointer: true }),
    blockOwnerDeletion: field(t.bool, 7, { pointer: true }),
  },
  { structType: 'atomic' },
);

export const ManagedFieldsEntry = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry', {
  manager: field(t.string, 1),
  operation: field(t.string, 2),
  apiVersion: field(t.string, 3),
  time: field(t.time, 4, { pointer: true }),
  fieldsType: field(t.string, 6),
  fieldsV1: field(t.fieldsV1, 7, { pointer: true }),
  subresource: field(t.string, 8),
});

export const ObjectMeta = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', {
  name: field(t.string, 1, { description: 'Unique name of the object within its namespace (or the cluster, for cluster-scoped kinds). Set on create; cannot be changed.' }),
  generateName: field(t.string, 2, { description: 'A prefix the server completes with random characters to make a unique name, used when name is empty.' }),
  namespace: field(t.string, 3, { description: 'The namespace the object lives in. Empty for cluster-scoped kinds; defaults to "default" when created through a namespaced path without one.' }),
  selfLink: field(t.string, 4, { description: 'Deprecated and never set by the server.' }),
  uid: field(t.string, 5, { description: 'Identifier the server assigns on create, unique across time. Read-only.' }),
  resourceVersion: field(t.string, 6, { description: 'Opaque version of the object, changed on every write. Sent back on update for optimistic concurrency; read-only otherwise.' }),
  generation: field(t.int64, 7, { description: 'A counter of changes to the desired state (spec), set by the server. Read-only.' }),
  // A non-pointer metav1.Time: Go's JSON encoder writes `null` when it is zero, despite omitempty.
  creationTimestamp: field(t.time, 8, { description: 'When the server created the object (UTC). Read-only.' }),
  deletionTimestamp: field(t.time, 9, { pointer: true, description: 'When the object will be removed, set once a graceful delete was asked for. Read-only.' }),
  deletionGracePeriodSeconds: field(t.int64, 10, { pointer: true, description: 'Seconds the object is given to shut down before removal, set together with deletionTimestamp. Read-only.' }),
  labels: field(mapOf(t.string), 11, { description: 'Key/value pairs to organize and select objects (label selectors match on them).' }),
  annotations: field(mapOf(t.string), 12, { description: 'Key/value pairs for tools and extensions to store data about the object; not used for selection.' }),
  ownerReferences: field(listOf(OwnerReference), 13, {
    description: 'Objects this one belongs to. When every owner is gone, the garbage collector deletes this object.',
    patchStrategy: 'merge',
    patchMergeKey: 'uid',
    listType: 'map',
    listMapKeys: ['uid'],
  }),
  finalizers: field(listOf(t.string), 14, { patchStrategy: 'merge', listType: 'set', description: 'Names of actions that must finish before the object is removed; the object is kept, marked for deletion, until this list is empty.' }),
  managedFields: field(listOf(ManagedFieldsEntry), 17, { listType: 'atomic', description: 'Which field manager owns which fields (server-side apply bookkeeping). Mostly for internal use.' }),
}, { description: 'Metadata every persisted object has: name, namespace, labels, annotations and bookkeeping the server maintains.' });

export const ListMeta = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', {
  selfLink: field(t.string, 1),
  resourceVersion: field(t.string, 2),
  continue: field(t.string, 3),
  remainingItemCount: field(t.int64, 4, { pointer: true }),
});

export const LabelSelectorRequirement = struct('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement', {
  key: field(t.string, 1, { omitempty: false, required: true, patchStrategy: 'merge', patchMergeKey: 'key' }),
  operator: field(t.string, 2, { omitempty: false, required: true }),
  values: field(listOf(t.string), 3, { listType: 'atomic' }),
});

export const LabelSelector = struct(
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
  {
    matchLabels: field(mapOf(t.string), 1),
    matchExpressions: field(listOf(LabelSelectorRequirement), 2, { listType: 'atomic' }),
  },
  { structType: 'atomic' },
);

// ---------------------------------------------------------------------------------------------
// Machinery types: Status, watch events, request options, discovery, Table, conditions.
// ---------------------------------------------------------------------------------------------

/** One problem behind a failed request (Status.details.causes[]). The Go field is `Type`, JSON `reason`. */
export const StatusCause = struct('io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause', {
  reason: field(t.string, 1),
  message: field(t.string, 2),
  field: field(t.string, 3),
});

/** Extra data about a Status: which object, and why. */
export const StatusDetails = struct('io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails', {
  name: field(t.string, 1),
  group: field(t.string, 2),
  kind: field(t.string, 3),
  uid: field(t.string, 6),
  causes: field(listOf(StatusCause), 4, { listType: 'atomic' }),
  retryAfterSeconds: field(t.int32, 5),
});

/** The body of every error response (and of some successful deletes). */
export const Status = struct('io.k8s.apimachinery.pkg.apis.meta.v1.Status', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  status: field(t.string, 2),
  message: field(t.string, 3),
  reason: field(t.string, 4),
  details: field(StatusDetails, 5, { pointer: true }),
  code: field(t.int32, 6),
});

/** One event of a watch stream. `object` is the changed object (or a Status for ERROR), embedded whole. */
export const WatchEvent = struct('io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  object: field(t.rawExtension, 2, { omitempty: false, required: true }),
});

/** Conditions a delete (or update) requires of the stored object. */
export const Preconditions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions', {
  uid: field(t.string, 1, { pointer: true }),
  resourceVersion: field(t.string, 2, { pointer: true }),
});

/** The body of a DELETE (also accepted as query parameters). */
export const DeleteOptions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions', {
  ...typeMetaFields,
  gracePeriodSeconds: field(t.int64, 1, { pointer: true }),
  preconditions: field(Preconditions, 2, { pointer: true }),
  orphanDependents: field(t.bool, 3, { pointer: true }),
  propagationPolicy: field(t.string, 4, { pointer: true }),
  dryRun: field(listOf(t.string), 5, { listType: 'atomic' }),
  ignoreStoreReadErrorWithClusterBreakingPotential: field(t.bool, 6, { pointer: true }),
});

// Query-parameter option types. The JSON names are the query parameter names.

export const ListOptions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ListOptions', {
  ...typeMetaFields,
  labelSelector: field(t.string, 1),
  fieldSelector: field(t.string, 2),
  watch: field(t.bool, 3),
  allowWatchBookmarks: field(t.bool, 9),
  resourceVersion: field(t.string, 4),
  resourceVersionMatch: field(t.string, 10),
  timeoutSeconds: field(t.int64, 5, { pointer: true }),
  limit: field(t.int64, 7),
  continue: field(t.string, 8),
  sendInitialEvents: field(t.bool, 11, { pointer: true }),
});

export const GetOptions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.GetOptions', {
  ...typeMetaFields,
  resourceVersion: field(t.string, 1),
});

export const CreateOptions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.CreateOptions', {
  ...typeMetaFields,
  dryRun: field(listOf(t.string), 1, { listType: 'atomic' }),
  fieldManager: field(t.string, 3),
  fieldValidation: field(t.string, 4),
});

export const UpdateOptions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.UpdateOptions', {
  ...typeMetaFields,
  dryRun: field(listOf(t.string), 1, { listType: 'atomic' }),
  fieldManager: field(t.string, 2),
  fieldValidation: field(t.string, 3),
});

export const PatchOptions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.PatchOptions', {
  ...typeMetaFields,
  dryRun: field(listOf(t.string), 1, { listType: 'atomic' }),
  force: field(t.bool, 2, { pointer: true }),
  fieldManager: field(t.string, 3),
  fieldValidation: field(t.string, 4),
});

/** Group, version and kind of a type (discovery's responseKind, acceptedTypes). */
export const GroupVersionKind = struct('io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionKind', {
  group: field(t.string, 1, { omitempty: false, required: true }),
  version: field(t.string, 2, { omitempty: false, required: true }),
  kind: field(t.string, 3, { omitempty: false, required: true }),
});

// Legacy (unaggregated) discovery: /api, /apis, /api/v1, /apis/<group>/<version>.

export const ServerAddressByClientCIDR = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR', {
  clientCIDR: field(t.string, 1, { omitempty: false, required: true }),
  serverAddress: field(t.string, 2, { omitempty: false, required: true }),
});

/** The body of GET /api. */
export const APIVersions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions', {
  ...typeMetaFields,
  versions: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'atomic' }),
  serverAddressByClientCIDRs: field(listOf(ServerAddressByClientCIDR), 2, {
    omitempty: false,
    required: true,
    listType: 'atomic',
  }),
});

export const GroupVersionForDiscovery = struct('io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery', {
  groupVersion: field(t.string, 1, { omitempty: false, required: true }),
  version: field(t.string, 2, { omitempty: false, required: true }),
});

/** One group in GET /apis, or the body of GET /apis/<group>. */
export const APIGroup = struct('io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup', {
  ...typeMetaFields,
  name: field(t.string, 1, { omitempty: false, required: true }),
  versions: field(listOf(GroupVersionForDiscovery), 2, { omitempty: false, required: true, listType: 'atomic' }),
  preferredVersion: field(GroupVersionForDiscovery, 3),
  serverAddressByClientCIDRs: field(listOf(ServerAddressByClientCIDR), 4, { listType: 'atomic' }),
});

/** The body of GET /apis. */
export const APIGroupList = struct('io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList', {
  ...typeMetaFields,
  groups: field(listOf(APIGroup), 1, { omitempty: false, required: true, listType: 'atomic' }),
});

/**
 * One resource (or subresource, `pods/status`) of a group/version. Note: Go's `Verbs` is a named
 * []string that protobuf wraps in a message `Verbs { repeated string items = 1 }` at field 4; the
 * DSL has no way to say so, so `verbs` is declared as a plain list (JSON is a plain array).
 */
export const APIResource = struct('io.k8s.apimachinery.pkg.apis.meta.v1.APIResource', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  singularName: field(t.string, 6, { omitempty: false, required: true }),
  namespaced: field(t.bool, 2, { omitempty: false, required: true }),
  group: field(t.string, 8),
  version: field(t.string, 9),
  kind: field(t.string, 3, { omitempty: false, required: true }),
  verbs: field(listOf(t.string), 4, { omitempty: false, required: true }),
  shortNames: field(listOf(t.string), 5, { listType: 'atomic' }),
  categories: field(listOf(t.string), 7, { listType: 'atomic' }),
  storageVersionHash: field(t.string, 10),
});

/** The body of GET /api/v1 and /apis/<group>/<version>. */
export const APIResourceList = struct('io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList', {
  ...typeMetaFields,
  groupVersion: field(t.string, 1, { omitempty: false, required: true }),
  resources: field(listOf(APIResource), 2, { omitempty: false, required: true, listType: 'atomic' }),
});

// Table (Accept: application/json;as=Table;v=v1;g=meta.k8s.io). Table has no protobuf form in
// Kubernetes (+protobuf=false): every field has tag 0.

export const TableColumnDefinition = struct('io.k8s.apimachinery.pkg.apis.meta.v1.TableColumnDefinition', {
  name: field(t.string, 0, { omitempty: false, required: true }),
  type: field(t.string, 0, { omitempty: false, required: true }),
  format: field(t.string, 0, { omitempty: false, required: true }),
  description: field(t.string, 0, { omitempty: false, required: true }),
  priority: field(t.int32, 0, { omitempty: false, required: true }),
});

export const TableRowCondition = struct('io.k8s.apimachinery.pkg.apis.meta.v1.TableRowCondition', {
  type: field(t.string, 0, { omitempty: false, required: true }),
  status: field(t.string, 0, { omitempty: false, required: true }),
  reason: field(t.string, 0),
  message: field(t.string, 0),
});

/**
 * One row. Go's `cells` is []interface{} (strings, numbers, booleans, maps, lists, null); the DSL
 * has no "any JSON value" scalar, so it is declared as a list of rawExtension (any JSON value).
 * `object` is the row's object (PartialObjectMetadata by default, the full object with
 * includeObject=Object, null with includeObject=None).
 */
export const TableRow = struct('io.k8s.apimachinery.pkg.apis.meta.v1.TableRow', {
  cells: field(listOf(t.rawExtension), 0, { omitempty: false, required: true, listType: 'atomic' }),
  conditions: field(listOf(TableRowCondition), 0, { listType: 'atomic' }),
  object: field(t.rawExtension, 0),
});

export const Table = struct('io.k8s.apimachinery.pkg.apis.meta.v1.Table', {
  ...typeMetaFields,
  metadata: field(ListMeta, 0),
  columnDefinitions: field(listOf(TableColumnDefinition), 0, { omitempty: false, required: true, listType: 'atomic' }),
  rows: field(listOf(TableRow), 0, { omitempty: false, required: true, listType: 'atomic' }),
});

/** Query parameters of a Table request (includeObject: None, Metadata (default) or Object). */
export const TableOptions = struct('io.k8s.apimachinery.pkg.apis.meta.v1.TableOptions', {
  ...typeMetaFields,
  includeObject: field(t.string, 1),
});

/** Any object reduced to its metadata (Accept: ...;as=PartialObjectMetadata;g=meta.k8s.io;v=v1). */
export const PartialObjectMetadata = struct('io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
});

export const PartialObjectMetadataList = struct('io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PartialObjectMetadata), 2, { omitempty: false, required: true }),
});

/** The standard condition type of newer APIs (Service status, Deployment-like CRDs, ...). */
export const Condition = struct('io.k8s.apimachinery.pkg.apis.meta.v1.Condition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 2, { omitempty: false, required: true }),
  observedGeneration: field(t.int64, 3),
  lastTransitionTime: field(t.time, 4, { omitempty: false, required: true }),
  reason: field(t.string, 5, { omitempty: false, required: true }),
  message: field(t.string, 6, { omitempty: false, required: true }),
});
