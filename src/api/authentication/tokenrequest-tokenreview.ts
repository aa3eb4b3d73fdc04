// authentication.k8s.io/v1 TokenRequest (the body of POST serviceaccounts/<name>/token) and
// TokenReview (a virtual, create-only resource: "who is this token?"). Field numbers are those of
// k8s.io/api authentication/v1 generated.proto. Neither is stored.
import { ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';
import type { KindVersion, KubeObject } from '../schema/kind.js';
import { UserInfo } from './v1.js';

const G = 'io.k8s.api.authentication.v1.';

export const BoundObjectReference = struct(G + 'BoundObjectReference', {
  kind: field(t.string, 1),
  apiVersion: field(t.string, 2),
  name: field(t.string, 3),
  uid: field(t.string, 4),
});

export const TokenRequestSpec = struct(G + 'TokenRequestSpec', {
  audiences: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'atomic' }),
  expirationSeconds: field(t.int64, 4, { pointer: true }),
  boundObjectRef: field(BoundObjectReference, 3, { pointer: true }),
});

export const TokenRequestStatus = struct(G + 'TokenRequestStatus', {
  token: field(t.string, 1, { omitempty: false, required: true }),
  expirationTimestamp: field(t.time, 2, { omitempty: false, required: true }),
});

export const TokenRequest = struct(G + 'TokenRequest', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(TokenRequestSpec, 2, { omitempty: false, required: true }),
  status: field(TokenRequestStatus, 3),
});

/** TokenRequestSpec's v1 default (SetDefaults_TokenRequestSpec): one hour. */
export function setDefaultsTokenRequest(obj: KubeObject): void {
  const spec = (obj.spec ?? (obj.spec = {})) as KubeObject;
  if (spec.expirationSeconds === undefined || spec.expirationSeconds === null) spec.expirationSeconds = 3600;
}

export const TokenReviewSpec = struct(G + 'TokenReviewSpec', {
  token: field(t.string, 1),
  audiences: field(listOf(t.string), 2, { listType: 'atomic' }),
});

export const TokenReviewStatus = struct(G + 'TokenReviewStatus', {
  authenticated: field(t.bool, 1),
  user: field(UserInfo, 2, { omitempty: false }),
  audiences: field(listOf(t.string), 4, { listType: 'atomic' }),
  error: field(t.string, 3),
});

export const TokenReview = struct(G + 'TokenReview', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(TokenReviewSpec, 2, { omitempty: false, required: true }),
  status: field(TokenReviewStatus, 3),
});

export const tokenReviewKind: KindVersion = {
  group: 'authentication.k8s.io',
  version: 'v1',
  kind: 'TokenReview',
  resource: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  type: TokenReview,
  storage: false,
  createOnly: true,
};
