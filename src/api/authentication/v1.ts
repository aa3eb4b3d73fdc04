// authentication.k8s.io/v1 SelfSubjectReview (and v1beta1, which kubectl 1.27's `auth whoami`
// asks for): the requesting user as the server authenticated it. Virtual: POSTed, never stored.
// Field numbers are those of authentication/v1 generated.proto. (TokenReview and TokenRequest
// belong to the service-account work and are declared with it.)
import { ObjectMeta } from '../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

export const UserInfo = struct('io.k8s.api.authentication.v1.UserInfo', {
  username: field(t.string, 1),
  uid: field(t.string, 2),
  groups: field(listOf(t.string), 3, { listType: 'atomic' }),
  /** map<string, ExtraValue>: ExtraValue is a named []string. */
  extra: field(mapOf(listOf(t.string)), 4),
});

function selfSubjectReview(version: string) {
  const status = struct(`io.k8s.api.authentication.${version}.SelfSubjectReviewStatus`, {
    userInfo: field(UserInfo, 1),
  });
  return struct(`io.k8s.api.authentication.${version}.SelfSubjectReview`, {
    ...typeMetaFields,
    metadata: field(ObjectMeta, 1),
    status: field(status, 2),
  });
}

export const SelfSubjectReview = selfSubjectReview('v1');
export const SelfSubjectReviewV1beta1 = selfSubjectReview('v1beta1');
