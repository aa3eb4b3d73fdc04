// CertificateApproval and CertificateSigning: `approve`/`sign` on certificates.k8s.io signers,
// named the signerName or `<domain>/*`, asked of the authorizer with the old object's signer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../api/kinds.js';
import type { Attributes, Authorizer } from '../auth/types.js';
import { certificateRequestPem } from '../../machinery/x509/csr.testutil.js';
import { CertificateApproval, CertificateSigning, CertificateSubjectRestriction } from './certificates.js';
import type { AdmissionAttributes } from './types.js';

const kind = findResource('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
const user = { name: 'approver', groups: ['system:authenticated'] };

function authorizerAllowing(verb: string, names: string[], asked: Attributes[]): Authorizer {
  return {
    authorize: (a) => {
      asked.push(a);
      const ok = a.verb === verb && a.apiGroup === 'certificates.k8s.io' && a.resource === 'signers' && names.includes(a.name);
      return { decision: ok ? 'allow' : 'no-opinion', reason: '' };
    },
  };
}

function attrs(subresource: string, oldSigner: string, newStatus: Record<string, unknown> = {}): AdmissionAttributes {
  return {
    operation: 'UPDATE', kind, group: kind.group, resource: kind.resource, subresource, namespace: '', name: 'csr-1',
    object: { spec: { signerName: 'attacker.io/any' }, status: newStatus },
    oldObject: { spec: { signerName: oldSigner }, status: {} },
    user, dryRun: false,
  };
}

test('approval needs approve on the signer or on its domain with /*, asked about the stored signer', async () => {
  const asked: Attributes[] = [];
  await new CertificateApproval(authorizerAllowing('approve', ['example.com/signer'], asked)).validate(attrs('approval', 'example.com/signer'));
  assert.deepEqual(asked.map((a) => [a.verb, a.resource, a.name, a.apiVersion]), [['approve', 'signers', 'example.com/signer', '*']]);
  await new CertificateApproval(authorizerAllowing('approve', ['example.com/*'], [])).validate(attrs('approval', 'example.com/signer'));
  await assert.rejects(new CertificateApproval(authorizerAllowing('approve', ['example.com/other'], [])).validate(attrs('approval', 'example.com/signer')), (err: any) => {
    assert.equal(err.code, 403);
    assert.equal(err.message, 'certificatesigningrequests.certificates.k8s.io "csr-1" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
    return true;
  });
  // Other subresources are not its business.
  await new CertificateApproval(authorizerAllowing('approve', [], [])).validate(attrs('', 'example.com/signer'));
});

test('signing needs sign on the signer when /status changes the certificate or the conditions', async () => {
  const none = authorizerAllowing('sign', [], []);
  await new CertificateSigning(none).validate(attrs('status', 'example.com/signer'));
  await assert.rejects(new CertificateSigning(none).validate(attrs('status', 'example.com/signer', { certificate: 'Zm9v' })), /user not permitted to sign requests with signerName "example.com\/signer"/);
  await new CertificateSigning(authorizerAllowing('sign', ['example.com/*'], [])).validate(attrs('status', 'example.com/signer', { certificate: 'Zm9v' }));
});

test('CertificateSubjectRestriction: no system:masters through the kube-apiserver-client signer', () => {
  const create = (signerName: string, organization?: string): AdmissionAttributes => ({
    operation: 'CREATE', kind, group: kind.group, resource: kind.resource, subresource: '', namespace: '', name: '',
    object: { metadata: { name: 'admin-csr' }, spec: { signerName, request: Buffer.from(certificateRequestPem('root', { organization })).toString('base64') } },
    user, dryRun: false,
  });
  const plugin = new CertificateSubjectRestriction();
  assert.throws(() => plugin.validate(create('kubernetes.io/kube-apiserver-client', 'system:masters')), (err: any) => {
    assert.equal(err.message, 'certificatesigningrequests.certificates.k8s.io "admin-csr" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
    return true;
  });
  plugin.validate(create('kubernetes.io/kube-apiserver-client', 'dev'));
  plugin.validate(create('example.com/other', 'system:masters'));
});
