import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import type { CertificateSigningRequest } from '../../api/types.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { certificateSigner, createCertificate, KEY_USAGE, randomSerialNumber } from '../../machinery/x509/certificate.js';
import { certificateRequestPem } from '../../machinery/x509/csr.testutil.js';
import { generateKeyPairSync } from 'node:crypto';
import { CsrApprover } from './approver.js';
import { csrExpired } from './cleaner.js';
import { CSRS } from './csr.js';
import { CsrSigner } from './signer.js';

const T0 = Date.now();

function csr(name: string, o: { signer: string; usages: string[]; cn: string; org?: string; dns?: string[]; approved?: boolean; expirationSeconds?: number; username?: string }): KubeObject {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: Buffer.from(certificateRequestPem(o.cn, { organization: o.org, dnsNames: o.dns })).toString('base64'),
      signerName: o.signer,
      usages: o.usages,
      username: o.username ?? 'alice',
      groups: ['system:authenticated'],
      ...(o.expirationSeconds ? { expirationSeconds: o.expirationSeconds } : {}),
    },
    status: o.approved ? { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: '' }] } : {},
  };
}

test('the signer issues approved requests its signers accept, and fails the others with the signer\'s reason', async () => {
  const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ca = { cert: createCertificate({ serialNumber: randomSerialNumber(), subject: { commonName: 'test-ca' }, notBefore: new Date(T0 - 60_000), notAfter: new Date(T0 + 10 * 365 * 86_400_000), publicKey: keys.publicKey, isCA: true, keyUsage: [KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign] }, { privateKey: keys.privateKey }) };
  const sign = certificateSigner({ certificate: ca.cert, privateKey: keys.privateKey });
  const cases: { name: string; csr: KubeObject; issued?: { cn: string; hours: number }; failed?: string; untouched?: boolean }[] = [
    { name: 'client', csr: csr('client', { signer: 'kubernetes.io/kube-apiserver-client', usages: ['client auth', 'digital signature'], cn: 'alice', org: 'devs', approved: true }), issued: { cn: 'alice', hours: 8760 } },
    { name: 'short', csr: csr('short', { signer: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], cn: 'bob', approved: true, expirationSeconds: 3600 }), issued: { cn: 'bob', hours: 1 } },
    { name: 'bad usage', csr: csr('bad', { signer: 'kubernetes.io/kube-apiserver-client', usages: ['client auth', 'server auth'], cn: 'x', approved: true }), failed: 'invalid usage for client certificate: server auth' },
    { name: 'kubelet client, wrong org', csr: csr('kc', { signer: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['client auth', 'digital signature'], cn: 'system:node:n1', org: 'devs', approved: true }), failed: 'subject organization is not system:nodes' },
    { name: 'kubelet serving without SANs', csr: csr('ks', { signer: 'kubernetes.io/kubelet-serving', usages: ['server auth', 'digital signature'], cn: 'system:node:n1', org: 'system:nodes', approved: true }), failed: 'DNS or IP subjectAltName is required' },
    { name: 'kubelet serving', csr: csr('ks2', { signer: 'kubernetes.io/kubelet-serving', usages: ['server auth', 'digital signature'], cn: 'system:node:n1', org: 'system:nodes', dns: ['n1'], approved: true }), issued: { cn: 'system:node:n1', hours: 8760 } },
    { name: 'not approved', csr: csr('pending', { signer: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], cn: 'x' }), untouched: true },
    { name: 'another signer', csr: csr('other', { signer: 'example.com/signer', usages: ['client auth'], cn: 'x', approved: true }), untouched: true },
  ];
  for (const k of cases) {
    const ctx = fakeControllerContext({ objects: [k.csr], now: T0 });
    const signer = new CsrSigner(ctx, { sign, notAfter: Date.parse(new X509Certificate(ca.cert).validTo) });
    await flush(3);
    await signer.sync(String((k.csr.metadata as { name: string }).name));
    const got = ctx.clientset.tracker.get(CSRS, '', String((k.csr.metadata as { name: string }).name)) as CertificateSigningRequest;
    if (k.untouched) {
      assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), [], k.name);
      continue;
    }
    if (k.failed) {
      const failed = got.status?.conditions?.find((c) => c?.type === 'Failed');
      assert.deepEqual([failed?.status, failed?.reason, failed?.message], ['True', 'SignerValidationFailure', k.failed], k.name);
      assert.equal(got.status?.certificate, undefined, k.name);
      continue;
    }
    const cert = new X509Certificate(Buffer.from(got.status!.certificate!, 'base64'));
    assert.match(cert.subject, new RegExp(`CN=${k.issued!.cn}`), k.name);
    assert.ok(cert.verify(new X509Certificate(ca.cert).publicKey), k.name);
    const hours = (Date.parse(cert.validTo) - T0) / 3_600_000;
    assert.ok(Math.abs(hours - k.issued!.hours) < 0.1, `${k.name}: ${hours} h`);
    assert.ok(Date.parse(cert.validFrom) < T0, `${k.name}: backdated`);
  }
});

test('the approver approves kubelet client requests a SubjectAccessReview allows, self before any node', async () => {
  const nodeCsr = (name: string, username: string) => csr(name, { signer: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['client auth', 'digital signature', 'key encipherment'], cn: 'system:node:n1', org: 'system:nodes', username });
  const ctx = fakeControllerContext({ objects: [nodeCsr('self', 'system:node:n1'), nodeCsr('bootstrap', 'system:bootstrap:abcdef'), nodeCsr('denied', 'mallory'), csr('client', { signer: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], cn: 'x' })] });
  const reviews: string[] = [];
  ctx.clientset.prependReactor('create', 'subjectaccessreviews', (a) => {
    const spec = (a.object as { spec: { user: string; resourceAttributes: { subresource: string } } }).spec;
    reviews.push(`${spec.user} ${spec.resourceAttributes.subresource}`);
    const allowed = (spec.user === 'system:node:n1' && spec.resourceAttributes.subresource === 'selfnodeclient') || (spec.user === 'system:bootstrap:abcdef' && spec.resourceAttributes.subresource === 'nodeclient');
    return { handled: true, result: { ...a.object!, status: { allowed } } };
  });
  const approver = new CsrApprover(ctx);
  await flush(3);
  for (const n of ['self', 'bootstrap', 'denied', 'client']) await approver.sync(n);
  const approval = (n: string) => (ctx.clientset.tracker.get(CSRS, '', n) as CertificateSigningRequest).status?.conditions?.find((c) => c?.type === 'Approved');
  assert.deepEqual([approval('self')?.reason, approval('self')?.message], ['AutoApproved', 'Auto approving self kubelet client certificate after SubjectAccessReview.']);
  assert.equal(approval('bootstrap')?.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');
  assert.equal(approval('denied'), undefined);
  assert.equal(approval('client'), undefined);
  assert.deepEqual(reviews, ['system:node:n1 selfnodeclient', 'system:bootstrap:abcdef nodeclient', 'mallory nodeclient']);
  assert.ok(ctx.clientset.actionStrings({ writesOnly: true }).includes('update certificatesigningrequests/approval self'));
});

test('the cleaner\'s deadlines', () => {
  const now = T0;
  const ago = (ms: number) => new Date(now - ms).toISOString().replace(/\.\d+Z$/, 'Z');
  const c = (status: object, created = ago(1000)) => ({ metadata: { name: 'x', creationTimestamp: created }, status }) as CertificateSigningRequest;
  assert.equal(csrExpired(c({}), now), false);
  assert.equal(csrExpired(c({}, ago(25 * 3_600_000)), now), true, 'pending a day');
  assert.equal(csrExpired(c({ conditions: [{ type: 'Denied', status: 'True', lastUpdateTime: ago(2 * 3_600_000) }] }), now), true);
  assert.equal(csrExpired(c({ conditions: [{ type: 'Denied', status: 'True', lastUpdateTime: ago(60_000) }] }), now), false);
  assert.equal(csrExpired(c({ conditions: [{ type: 'Failed', status: 'True', lastUpdateTime: ago(2 * 3_600_000) }] }), now), true);
  assert.equal(csrExpired(c({ conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: ago(2 * 3_600_000) }] }), now), false, 'approved but not issued');
  assert.equal(csrExpired(c({ certificate: 'eA==', conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: ago(2 * 3_600_000) }] }), now), true, 'issued an hour ago');
});
