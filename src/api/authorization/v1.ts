// authorization.k8s.io/v1 (k8s.io/api/authorization/v1): the access reviews. Virtual kinds: POSTed,
// answered, never stored. Field numbers are those of authorization/v1 generated.proto.
import { LabelSelectorRequirement, ObjectMeta } from '../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.authorization.v1.';

export const FieldSelectorRequirement = struct('io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement', {
  key: field(t.string, 1, { omitempty: false, required: true }),
  operator: field(t.string, 2, { omitempty: false, required: true }),
  values: field(listOf(t.string), 3, { listType: 'atomic' }),
});

export const FieldSelectorAttributes = struct(G + 'FieldSelectorAttributes', {
  rawSelector: field(t.string, 1),
  requirements: field(listOf(FieldSelectorRequirement), 2, { listType: 'atomic' }),
});

export const LabelSelectorAttributes = struct(G + 'LabelSelectorAttributes', {
  rawSelector: field(t.string, 1),
  requirements: field(listOf(LabelSelectorRequirement), 2, { listType: 'atomic' }),
});

export const ResourceAttributes = struct(G + 'ResourceAttributes', {
  namespace: field(t.string, 1),
  verb: field(t.string, 2),
  group: field(t.string, 3),
  version: field(t.string, 4),
  resource: field(t.string, 5),
  subresource: field(t.string, 6),
  name: field(t.string, 7),
  fieldSelector: field(FieldSelectorAttributes, 8, { pointer: true }),
  labelSelector: field(LabelSelectorAttributes, 9, { pointer: true }),
});

export const NonResourceAttributes = struct(G + 'NonResourceAttributes', {
  path: field(t.string, 1),
  verb: field(t.string, 2),
});

export const SubjectAccessReviewSpec = struct(G + 'SubjectAccessReviewSpec', {
  resourceAttributes: field(ResourceAttributes, 1, { pointer: true }),
  nonResourceAttributes: field(NonResourceAttributes, 2, { pointer: true }),
  user: field(t.string, 3),
  groups: field(listOf(t.string), 4, { listType: 'atomic' }),
  /** map<string, ExtraValue>: ExtraValue is a named []string (protobuf message { repeated string items = 1 }). */
  extra: field(mapOf(listOf(t.string)), 5),
  uid: field(t.string, 6),
});

export const SelfSubjectAccessReviewSpec = struct(G + 'SelfSubjectAccessReviewSpec', {
  resourceAttributes: field(ResourceAttributes, 1, { pointer: true }),
  nonResourceAttributes: field(NonResourceAttributes, 2, { pointer: true }),
});

export const SubjectAccessReviewStatus = struct(G + 'SubjectAccessReviewStatus', {
  allowed: field(t.bool, 1, { omitempty: false, required: true }),
  denied: field(t.bool, 4),
  reason: field(t.string, 2),
  evaluationError: field(t.string, 3),
});

export const SubjectAccessReview = struct(G + 'SubjectAccessReview', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(SubjectAccessReviewSpec, 2, { omitempty: false, required: true }),
  status: field(SubjectAccessReviewStatus, 3),
});

export const LocalSubjectAccessReview = struct(G + 'LocalSubjectAccessReview', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(SubjectAccessReviewSpec, 2, { omitempty: false, required: true }),
  status: field(SubjectAccessReviewStatus, 3),
});

export const SelfSubjectAccessReview = struct(G + 'SelfSubjectAccessReview', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(SelfSubjectAccessReviewSpec, 2, { omitempty: false, required: true }),
  status: field(SubjectAccessReviewStatus, 3),
});

export const SelfSubjectRulesReviewSpec = struct(G + 'SelfSubjectRulesReviewSpec', {
  namespace: field(t.string, 1),
});

export const ResourceRule = struct(G + 'ResourceRule', {
  verbs: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'atomic' }),
  apiGroups: field(listOf(t.string), 2, { listType: 'atomic' }),
  resources: field(listOf(t.string), 3, { listType: 'atomic' }),
  resourceNames: field(listOf(t.string), 4, { listType: 'atomic' }),
});

export const NonResourceRule = struct(G + 'NonResourceRule', {
  verbs: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'atomic' }),
  nonResourceURLs: field(listOf(t.string), 2, { listType: 'atomic' }),
});

export const SubjectRulesReviewStatus = struct(G + 'SubjectRulesReviewStatus', {
  resourceRules: field(listOf(ResourceRule), 1, { omitempty: false, required: true, listType: 'atomic' }),
  nonResourceRules: field(listOf(NonResourceRule), 2, { omitempty: false, required: true, listType: 'atomic' }),
  incomplete: field(t.bool, 3, { omitempty: false, required: true }),
  evaluationError: field(t.string, 4),
});

export const SelfSubjectRulesReview = struct(G + 'SelfSubjectRulesReview', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(SelfSubjectRulesReviewSpec, 2, { omitempty: false, required: true }),
  status: field(SubjectRulesReviewStatus, 3),
});
