// What the certificate controllers read of a CertificateSigningRequest (k8s.io/kubernetes'
// certificates helpers): its conditions, its request parsed, and its usages as x509 key usages.
import type { CertificateSigningRequest } from '../../api/types.js';
import type { ExtKeyUsage } from '../../machinery/x509/certificate.js';
import { KEY_USAGE } from '../../machinery/x509/certificate.js';

export const CSRS = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' };

export const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const KUBE_APISERVER_CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';
export const LEGACY_UNKNOWN = 'kubernetes.io/legacy-unknown';

const hasTrue = (csr: CertificateSigningRequest, type: string): boolean => (csr.status?.conditions ?? []).some((c) => c?.type === type && c.status === 'True');
export const isApproved = (csr: CertificateSigningRequest): boolean => hasTrue(csr, 'Approved') && !hasTrue(csr, 'Denied');
export const isDenied = (csr: CertificateSigningRequest): boolean => hasTrue(csr, 'Denied');
export const isFailed = (csr: CertificateSigningRequest): boolean => hasTrue(csr, 'Failed');
export const isIssued = (csr: CertificateSigningRequest): boolean => typeof csr.status?.certificate === 'string' && csr.status.certificate !== '';

/** The request's PEM (spec.request is base64 in JSON). */
export const requestPem = (csr: CertificateSigningRequest): Buffer => Buffer.from(csr.spec?.request ?? '', 'base64');

const KEY_USAGES: Readonly<Record<string, number>> = {
  signing: KEY_USAGE.digitalSignature,
  'digital signature': KEY_USAGE.digitalSignature,
  'content commitment': KEY_USAGE.contentCommitment,
  'key encipherment': KEY_USAGE.keyEncipherment,
  'key agreement': KEY_USAGE.keyAgreement,
  'data encipherment': KEY_USAGE.dataEncipherment,
  'cert sign': KEY_USAGE.keyCertSign,
  'crl sign': KEY_USAGE.cRLSign,
  'encipher only': KEY_USAGE.encipherOnly,
  'decipher only': KEY_USAGE.decipherOnly,
};

const EXT_KEY_USAGES: Readonly<Record<string, ExtKeyUsage>> = {
  any: 'any',
  'server auth': 'serverAuth',
  'client auth': 'clientAuth',
  'code signing': 'codeSigning',
  'email protection': 'emailProtection',
  's/mime': 'emailProtection',
  'ipsec end system': 'ipsecEndSystem',
  'ipsec tunnel': 'ipsecTunnel',
  'ipsec user': 'ipsecUser',
  timestamping: 'timeStamping',
  'ocsp signing': 'ocspSigning',
  'microsoft sgc': 'microsoftServerGatedCrypto',
  'netscape sgc': 'netscapeServerGatedCrypto',
};

/** keyUsagesFromStrings: the key usage bits and extended usages; throws for an unknown usage. */
export function x509Usages(usages: readonly string[]): { keyUsage: number[]; extKeyUsage: ExtKeyUsage[] } {
  const keyUsage = new Set<number>();
  const ext = new Set<ExtKeyUsage>();
  const unknown: string[] = [];
  for (const u of usages) {
    if (u in KEY_USAGES) keyUsage.add(KEY_USAGES[u]!);
    else if (u in EXT_KEY_USAGES) ext.add(EXT_KEY_USAGES[u]!);
    else unknown.push(u);
  }
  if (unknown.length > 0) throw new Error(`unrecognized usage values: ${JSON.stringify(unknown.sort())}`);
  return { keyUsage: [...keyUsage].sort((a, b) => a - b), extKeyUsage: [...ext].sort() };
}
