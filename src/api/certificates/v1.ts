// certificates.k8s.io/v1 (k8s.io/api/certificates/v1): CertificateSigningRequest. Field numbers are
// those of certificates/v1 generated.proto. No server-side defaults in v1 (signerName is required).
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.certificates.v1.';

export const CertificateSigningRequestSpec = struct(G + 'CertificateSigningRequestSpec', {
  /** The PEM-encoded PKCS#10 request ([]byte: base64 in JSON). */
  request: field(t.bytes, 1, { omitempty: false, required: true, listType: 'atomic' }),
  signerName: field(t.string, 7, { omitempty: false, required: true }),
  expirationSeconds: field(t.int32, 8, { pointer: true }),
  usages: field(listOf(t.string), 5, { listType: 'atomic' }),
  /** The requesting user: set by the server on create (PrepareForCreate), never by the client. */
  username: field(t.string, 2),
  uid: field(t.string, 3),
  groups: field(listOf(t.string), 4, { listType: 'atomic' }),
  /** map<string, ExtraValue>: ExtraValue is a named []string (protobuf message { repeated string items = 1 }). */
  extra: field(mapOf(listOf(t.string)), 6),
});

export const CertificateSigningRequestCondition = struct(G + 'CertificateSigningRequestCondition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 6, { omitempty: false, required: true }),
  reason: field(t.string, 2),
  message: field(t.string, 3),
  lastUpdateTime: field(t.time, 4),
  lastTransitionTime: field(t.time, 5),
});

export const CertificateSigningRequestStatus = struct(G + 'CertificateSigningRequestStatus', {
  conditions: field(listOf(CertificateSigningRequestCondition), 1, { listType: 'map', listMapKeys: ['type'] }),
  /** The issued certificate chain, PEM ([]byte: base64 in JSON). */
  certificate: field(t.bytes, 2, { listType: 'atomic' }),
});

export const CertificateSigningRequest = struct(G + 'CertificateSigningRequest', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(CertificateSigningRequestSpec, 2, { omitempty: false, required: true }),
  status: field(CertificateSigningRequestStatus, 3),
});

export const CertificateSigningRequestList = struct(G + 'CertificateSigningRequestList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(CertificateSigningRequest), 2, { omitempty: false, required: true }),
});
