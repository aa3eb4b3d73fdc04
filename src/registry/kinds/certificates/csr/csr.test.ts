// certificates.k8s.io/v1 CertificateSigningRequest: the requestor recorded from the request's user,
// validation with Kubernetes' paths and messages, the three update paths (main, status, approval)
// and the `kubectl get csr` columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findKind } from '../../../../api/kinds.js';
import type { KubeObject } from '../../../../api/schema/kind.js';
import type { CertificateSigningRequest } from '../../../../api/types.js';
import { certificateRequestPem } from '../../../../machinery/x509/csr.testutil.js';
import { lines } from '../../kinds.testutil.js';
import type { StrategyContext } from '../../../strategy.js';
import { printerOf } from '../../index.js';
import { csrApprovalStrategy, csrStrategy } from './strategy.js';
import { VALID_USAGES, validateSignerName } from './validation.js';

const kind = findKind('certificates.k8s.io/v1', 'CertificateSigningRequest')!;
const NOW = Date.parse('2026-11-22T02:34:38Z');
const user = { name: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };
const ctx: StrategyContext = { kind, now: NOW, newUid: () => 'uid', user };
const REQUEST = Buffer.from(certificateRequestPem('alice')).toString('base64');

function csr(spec: Record<string, unknown> = {}, status?: Record<string, unknown>): CertificateSigningRequest {
  const o: KubeObject = {
    apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'alice', resourceVersion: '1' },
    spec: { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
  };
  if (status) o.status = status;
  return o as CertificateSigningRequest;
}

function created(spec: Record<string, unknown> = {}): CertificateSigningRequest {
  const o = csr({ username: 'mallory', groups: ['system:masters'], ...spec }, { conditions: [{ type: 'Approved', status: 'True' }] });
  csrStrategy.prepareForCreate!(o, ctx);
  return o;
}

const approved = { type: 'Approved', status: 'True', reason: 'KubectlApprove', lastUpdateTime: '2026-11-22T02:00:00Z', lastTransitionTime: '2026-11-22T02:00:00Z' };
const denied = { type: 'Denied', status: 'True', reason: 'KubectlDeny', lastUpdateTime: '2026-11-22T02:00:00Z', lastTransitionTime: '2026-11-22T02:00:00Z' };

test('create: the requestor is the request user, whatever the client sent, and no condition survives', () => {
  const o = created();
  assert.deepEqual(o.spec, { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'], username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } });
  assert.deepEqual(o.status, {});
  assert.deepEqual(lines(csrStrategy.validate(o, ctx)), []);
});

test('create validation: the messages of ValidateCertificateSigningRequestCreate', () => {
  const bad = (spec: Record<string, unknown>) => lines(csrStrategy.validate(csr(spec), ctx));
  assert.deepEqual(bad({ request: Buffer.from('hi').toString('base64') }), ['spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST']);
  const forged = Buffer.from(certificateRequestPem('x', { key: 'ec', corruptSignature: true })).toString('base64');
  assert.match(bad({ request: forged })[0]!, /^spec\.request: Invalid value: \[\]byte\{0x2d, 0x2d, .*\}: x509: ECDSA verification failure$/);
  assert.deepEqual(bad({ usages: [] }), ['spec.usages: Required value']);
  assert.deepEqual(bad({ usages: ['client auth', 'bogus', 'client auth'] }), [
    `spec.usages[1]: Unsupported value: "bogus": supported values: ${VALID_USAGES.map((u) => JSON.stringify(u)).join(', ')}`,
    'spec.usages[2]: Duplicate value: "client auth"',
  ]);
  assert.deepEqual(bad({ signerName: '' }), ['spec.signerName: Required value']);
  assert.deepEqual(bad({ signerName: 'kubernetes.io/legacy-unknown' }), ['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version']);
  assert.deepEqual(bad({ expirationSeconds: 599 }), ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']);
  assert.deepEqual(bad({ expirationSeconds: 600 }), []);
});

test('ValidateSignerName: one slash, a dotted domain of DNS labels, a path of DNS subdomains', () => {
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'signer')), ["spec.signerName: Invalid value: \"signer\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]);
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'a/b/c')), ["spec.signerName: Invalid value: \"a/b/c\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]);
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'example/signer')), ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']);
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'Example.com/signer')), [
    `spec.signerName: Invalid value: "Example.com": validating label "Example": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'example.com/Signer')), [
    `spec.signerName: Invalid value: "Signer": validating label "Signer": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'kubernetes.io/kube-apiserver-client')), []);
});

test('update of the main resource: spec and status stay as stored', () => {
  const old = created();
  const next = structuredClone(old);
  next.spec!.signerName = 'other.io/x';
  next.status = { conditions: [approved] };
  next.metadata!.labels = { a: 'b' };
  csrStrategy.prepareForUpdate!(next, old, ctx);
  assert.deepEqual(next.spec, old.spec);
  assert.deepEqual(next.status, {});
  assert.deepEqual(next.metadata!.labels, { a: 'b' });
});

test('approval: only the conditions change, with timestamps; Approved and Denied exclusive; no removal', () => {
  const old = created();
  const next = structuredClone(old);
  next.spec!.usages = ['server auth'];
  next.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }], certificate: 'Zm9v' };
  csrApprovalStrategy.prepareForUpdate!(next, old, ctx);
  assert.deepEqual(next.spec, old.spec);
  assert.deepEqual(next.status, { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', lastUpdateTime: '2026-11-22T02:34:38Z', lastTransitionTime: '2026-11-22T02:34:38Z' }] });
  assert.deepEqual(lines(csrApprovalStrategy.validateUpdate(next, old, ctx)), []);

  const both = structuredClone(next);
  both.status!.conditions!.push({ ...denied });
  assert.deepEqual(lines(csrApprovalStrategy.validateUpdate(both, next, ctx)), ['status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']);
  const removed = structuredClone(next);
  removed.status!.conditions = [];
  assert.deepEqual(lines(csrApprovalStrategy.validateUpdate(removed, next, ctx)), ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
  const falseApproval = structuredClone(old);
  falseApproval.status = { conditions: [{ ...approved, status: 'False' }] };
  assert.deepEqual(lines(csrApprovalStrategy.validateUpdate(falseApproval, old, ctx)), ['status.conditions[0].status: Unsupported value: "False": supported values: "True"']);
  const noType = structuredClone(old);
  noType.status = { conditions: [{ type: '', status: 'True' }, { type: 'Custom', status: 'Maybe' }] };
  assert.deepEqual(lines(csrApprovalStrategy.validateUpdate(noType, old, ctx)), [
    'status.conditions[0].type: Required value',
    'status.conditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
  ]);
});

test('the main resource and status may not add Approved or Denied; status may set the certificate once', () => {
  const old = created();
  const next = structuredClone(old);
  next.status = { conditions: [approved] };
  assert.deepEqual(lines(csrStrategy.validateUpdate(next, old, ctx)), ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);

  // Through /status the Approved condition a signer sends is dropped in favour of the stored ones.
  const viaStatus = structuredClone(old);
  viaStatus.status = { conditions: [approved, { type: 'Failed', status: 'True', reason: 'SignerFailed' }] };
  csrStrategy.prepareForStatusUpdate!(viaStatus, old, ctx);
  assert.deepEqual(lines(csrStrategy.validateStatusUpdate!(viaStatus, old, ctx)), ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);

  const approvedCsr = structuredClone(old);
  approvedCsr.status = { conditions: [approved] };
  const garbage = structuredClone(approvedCsr);
  garbage.status!.certificate = Buffer.from('nope').toString('base64');
  assert.deepEqual(lines(csrStrategy.validateStatusUpdate!(garbage, approvedCsr, ctx)), ['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']);
  assert.deepEqual(lines(csrStrategy.validateUpdate(garbage, approvedCsr, ctx)), [
    'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    'status.certificate: Forbidden: updates may not set certificate content',
  ]);
});

test('kubectl get csr: NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION', () => {
  const printer = printerOf(kind);
  assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
  const o = created({ expirationSeconds: 86400 }) as KubeObject;
  (o.metadata as KubeObject).creationTimestamp = '2026-11-22T02:30:38Z';
  assert.deepEqual(printer.cells(o, NOW), ['alice', '4m', 'example.com/signer', 'alice', '24h', 'Pending']);
  o.status = { conditions: [approved, { type: 'Failed', status: 'True' }], certificate: 'Zm9v' };
  assert.equal(printer.cells(o, NOW)[5], 'Approved,Failed,Issued');
  o.status = { conditions: [denied] };
  assert.equal(printer.cells(o, NOW)[5], 'Denied');
  delete (o.spec as KubeObject).expirationSeconds;
  assert.equal(printer.cells(o, NOW)[4], '<none>');
});
