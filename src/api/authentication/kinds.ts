// authentication.k8s.io: SelfSubjectReview in v1 and v1beta1 and TokenReview in v1 (virtual,
// create-only). TokenRequest is only the body of the serviceaccounts/token subresource, not a
// resource of its own.
import type { KindVersion } from '../schema/kind.js';
import { tokenReviewKind } from './tokenrequest-tokenreview.js';
import * as v1 from './v1.js';

const G = 'authentication.k8s.io';
const names = { kind: 'SelfSubjectReview', resource: 'selfsubjectreviews', singular: 'selfsubjectreview', namespaced: false, storage: false, createOnly: true } as const;

export const authenticationKinds: readonly KindVersion[] = [
  { group: G, version: 'v1', ...names, type: v1.SelfSubjectReview },
  { group: G, version: 'v1beta1', ...names, type: v1.SelfSubjectReviewV1beta1 },
  tokenReviewKind,
];
