// certificates.k8s.io/v1 CertificateSigningRequest: no defaults in v1; the `approval` and `status`
// subresources (the approver's conditions, the signer's certificate).
import type { KindVersion } from '../schema/kind.js';
import * as v1 from './v1.js';

export const certificatesKinds: readonly KindVersion[] = [
  {
    group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest', resource: 'certificatesigningrequests', singular: 'certificatesigningrequest',
    shortNames: ['csr'], namespaced: false, type: v1.CertificateSigningRequest, list: v1.CertificateSigningRequestList, storage: true,
    subresources: { status: true, approval: true },
  },
];
