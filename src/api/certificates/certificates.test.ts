// certificates.k8s.io/v1 CertificateSigningRequest: JSON order of the Go structs, protobuf field
// numbers of generated.proto, and a protobuf round trip of a full object.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeProtobuf, decodeProtobuf } from '../../machinery/codec/protobuf.js';
import { parseMessage, protoProblems, unwrapEnvelope } from '../round-trip.testutil.js';
import { certificatesKinds } from './kinds.js';
import { CertificateSigningRequest } from './v1.js';

const full = {
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'alice', uid: 'u', resourceVersion: '5', creationTimestamp: '2026-11-22T02:34:38Z' },
  spec: {
    request: Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\n').toString('base64'),
    signerName: 'kubernetes.io/kube-apiserver-client',
    expirationSeconds: 86400,
    usages: ['digital signature', 'client auth'],
    username: 'alice',
    uid: 'u-1',
    groups: ['dev', 'system:authenticated'],
    extra: { scopes: ['a', 'b'] },
  },
  status: {
    conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok', lastUpdateTime: '2026-11-22T02:35:00Z', lastTransitionTime: '2026-11-22T02:35:00Z' }],
    certificate: Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64'),
  },
};

test('the Go struct order of the spec and its field numbers', () => {
  assert.deepEqual(Object.keys(CertificateSigningRequest.fields.spec.type.fields), ['request', 'signerName', 'expirationSeconds', 'usages', 'username', 'uid', 'groups', 'extra']);
  const spec = CertificateSigningRequest.fields.spec.type.fields;
  assert.deepEqual(Object.values(spec).map((f) => f.tag), [1, 7, 8, 5, 2, 3, 4, 6]);
  assert.equal(certificatesKinds[0]!.defaults, undefined);
  assert.deepEqual(certificatesKinds[0]!.shortNames, ['csr']);
});

test('protobuf round trip of a full CertificateSigningRequest, every field number declared', () => {
  const bytes = encodeProtobuf(full, CertificateSigningRequest);
  assert.deepEqual(decodeProtobuf(bytes, CertificateSigningRequest).object, full);
  const message = unwrapEnvelope(bytes);
  assert.deepEqual(protoProblems(CertificateSigningRequest, message, () => true), []);
  // spec is field 2; inside it the request is bytes field 1, signerName 7, expirationSeconds a varint 8.
  const spec = parseMessage(parseMessage(message).find((f) => f.tag === 2)!.bytes!);
  assert.deepEqual(spec.map((f) => f.tag), [1, 2, 3, 4, 4, 5, 5, 6, 7, 8]);
  assert.equal(Buffer.from(spec[0]!.bytes!).toString(), '-----BEGIN CERTIFICATE REQUEST-----\n');
  assert.equal(spec.find((f) => f.tag === 8)!.varint, 86400n);
});
