// authorization.k8s.io/v1: the access reviews, virtual create-only resources (never stored).
import type { KindVersion } from '../schema/kind.js';
import * as v1 from './v1.js';

const G = 'authorization.k8s.io';

export const authorizationKinds: readonly KindVersion[] = [
  { group: G, version: 'v1', kind: 'LocalSubjectAccessReview', resource: 'localsubjectaccessreviews', singular: 'localsubjectaccessreview', namespaced: true, type: v1.LocalSubjectAccessReview, storage: false, createOnly: true },
  { group: G, version: 'v1', kind: 'SelfSubjectAccessReview', resource: 'selfsubjectaccessreviews', singular: 'selfsubjectaccessreview', namespaced: false, type: v1.SelfSubjectAccessReview, storage: false, createOnly: true },
  { group: G, version: 'v1', kind: 'SelfSubjectRulesReview', resource: 'selfsubjectrulesreviews', singular: 'selfsubjectrulesreview', namespaced: false, type: v1.SelfSubjectRulesReview, storage: false, createOnly: true },
  { group: G, version: 'v1', kind: 'SubjectAccessReview', resource: 'subjectaccessreviews', singular: 'subjectaccessreview', namespaced: false, type: v1.SubjectAccessReview, storage: false, createOnly: true },
];
