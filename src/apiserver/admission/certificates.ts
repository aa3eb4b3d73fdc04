// Kubernetes' CertificateApproval, CertificateSigning and CertificateSubjectRestriction admission
// plugins (plugin/pkg/admission/certificates/{approval,signing,subjectrestriction}): who may approve or deny a
// CertificateSigningRequest, and who may issue its certificate, is decided per signer — the
// writer needs the verb `approve` (or `sign`) on the synthetic resource `signers` of
// certificates.k8s.io, named the request's signerName or its domain with `/*`
// (`kubernetes.io/*`), as pkg/certauthorization's IsAuthorizedForSignerName asks the authorizer;
// and no request to the kube-apiserver-client signer may ask for the system:masters group.
import { str } from '../../machinery/validation/common.js';
import { parseCertificateRequestPem } from '../../machinery/x509/csr.js';
import type { Authorizer, UserInfo } from '../auth/types.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

const GROUP = 'certificates.k8s.io';

/** IsAuthorizedForSignerName: the signerName itself, then `<domain>/*`. */
export async function isAuthorizedForSignerName(authorizer: Authorizer, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  const ask = async (name: string) => {
    const attrs = { user, verb, resourceRequest: true, apiGroup: GROUP, apiVersion: '*', namespace: '', resource: 'signers', subresource: '', name, path: '' };
    return (await authorizer.authorize(attrs)).decision === 'allow';
  };
  if (await ask(signerName)) return true;
  return ask(`${signerName.split('/')[0]}/*`);
}

const signerNameOf = (obj: Record<string, unknown> | undefined): string => str((obj?.spec as Record<string, unknown> | undefined)?.signerName);

function isCsrWrite(a: AdmissionAttributes, subresource: string): boolean {
  return a.group === GROUP && a.resource === 'certificatesigningrequests' && a.subresource === subresource && a.operation === 'UPDATE';
}

/** Writes to certificatesigningrequests/approval need `approve` on the request's signer. */
export class CertificateApproval implements AdmissionPlugin {
  readonly name = 'CertificateApproval';
  constructor(private readonly authorizer: Authorizer) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!isCsrWrite(a, 'approval')) return;
    const signerName = signerNameOf(a.oldObject);
    if (!(await isAuthorizedForSignerName(this.authorizer, a.user, 'approve', signerName))) {
      throw admissionForbidden(a, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
    }
  }
}

/** Writes to certificatesigningrequests/status that change the certificate or the conditions need `sign` on the request's signer. */
export class CertificateSigning implements AdmissionPlugin {
  readonly name = 'CertificateSigning';
  constructor(private readonly authorizer: Authorizer) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!isCsrWrite(a, 'status')) return;
    const statusOf = (o: Record<string, unknown> | undefined) => (o?.status ?? {}) as Record<string, unknown>;
    const [next, old] = [statusOf(a.object), statusOf(a.oldObject)];
    // A status write that changes neither the certificate nor the conditions signs nothing.
    if (str(next.certificate) === str(old.certificate) && JSON.stringify(next.conditions ?? []) === JSON.stringify(old.conditions ?? [])) return;
    const signerName = signerNameOf(a.oldObject);
    if (!(await isAuthorizedForSignerName(this.authorizer, a.user, 'sign', signerName))) {
      throw admissionForbidden(a, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
    }
  }
}

const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

/** New requests to the kube-apiserver-client signer may not name system:masters in their subject's organizations. */
export class CertificateSubjectRestriction implements AdmissionPlugin {
  readonly name = 'CertificateSubjectRestriction';

  validate(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.group !== GROUP || a.resource !== 'certificatesigningrequests' || a.subresource !== '') return;
    const signerName = signerNameOf(a.object);
    if (signerName !== KUBE_APISERVER_CLIENT_SIGNER) return;
    let organizations: string[];
    try {
      organizations = parseCertificateRequestPem(Buffer.from(str((a.object?.spec as Record<string, unknown> | undefined)?.request), 'base64')).organizations;
    } catch (err) {
      throw admissionForbidden(a, `unable to parse csr: ${(err as Error).message}`);
    }
    if (organizations.includes('system:masters')) throw admissionForbidden(a, `use of ${signerName} signer with system:masters group is not allowed`);
  }
}
