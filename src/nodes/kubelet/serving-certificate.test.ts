// What the agent's approver accepts of a kubelet serving request: only the requesting node's own
// subject, names and a server's usages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CertificateSigningRequest } from '../../api/types.js';
import { certificateRequestPem } from '../../machinery/x509/certificate-request.js';
import { servingRequestProblem } from './serving-certificate.js';

const allowed = { dnsNames: ['localhost', 'n0', 'n1'], ips: ['127.0.0.1', '10.0.0.2'] };

function csr(cn: string, o: { username?: string; organization?: string; dnsNames?: string[]; ips?: string[]; usages?: string[]; signer?: string } = {}): CertificateSigningRequest {
  const pem = certificateRequestPem(cn, { organization: o.organization ?? 'system:nodes', dnsNames: o.dnsNames ?? ['n0'], ips: o.ips ?? ['127.0.0.1'] });
  return { spec: { request: Buffer.from(pem).toString('base64'), signerName: o.signer ?? 'kubernetes.io/kubelet-serving', username: o.username ?? cn, usages: o.usages ?? ['digital signature', 'server auth'] } } as CertificateSigningRequest;
}

test('the node requesting its own names as a server is approvable; anything else says why not', () => {
  assert.equal(servingRequestProblem(csr('system:node:n0'), allowed), undefined);
  const cases: Array<[CertificateSigningRequest, RegExp]> = [
    [csr('system:node:n0', { username: 'system:node:n1' }), /is not the requesting node system:node:n1/],
    [csr('alice'), /is not the requesting node/],
    [csr('system:node:n0', { organization: 'system:masters' }), /organization is not system:nodes/],
    [csr('system:node:n0', { dnsNames: ['evil.example'] }), /names not the node's: evil\.example/],
    [csr('system:node:n0', { ips: ['10.9.9.9'] }), /names not the node's: 10\.9\.9\.9/],
    [csr('system:node:n0', { usages: ['digital signature', 'client auth'] }), /are not a server's/],
    [csr('system:node:n0', { signer: 'kubernetes.io/kube-apiserver-client' }), /is not kubernetes\.io\/kubelet-serving/],
  ];
  for (const [c, re] of cases) assert.match(servingRequestProblem(c, allowed) ?? '', re);
});
