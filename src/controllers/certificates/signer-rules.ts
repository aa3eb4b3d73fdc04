// What each kubernetes.io signer accepts (csrsigning's isRequestForSignerFn and the certificates
// helpers ValidateKubeletClientCSR / ValidateKubeletServingCSR), with Kubernetes' messages. A
// request a signer recognises but refuses gets the Failed condition with the message.
import type { CertificateRequest } from '../../machinery/x509/csr.js';
import { KUBE_APISERVER_CLIENT, KUBE_APISERVER_CLIENT_KUBELET, KUBELET_SERVING, LEGACY_UNKNOWN } from './csr.js';

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
};
/** sets.List printed by %v: sorted, space-separated, in brackets. */
const listed = (xs: readonly string[]): string => `[${[...xs].sort().join(' ')}]`;

const KUBELET_CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const KUBELET_CLIENT_USAGES_NO_RSA = ['digital signature', 'client auth'];
const KUBELET_SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const KUBELET_SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

function kubeletClient(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (!(req.organizations.length === 1 && req.organizations[0] === 'system:nodes')) return 'subject organization is not system:nodes';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emails.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ips.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, KUBELET_CLIENT_USAGES) && !sameSet(usages, KUBELET_CLIENT_USAGES_NO_RSA)) return `usages did not match ${listed(KUBELET_CLIENT_USAGES)}`;
  return undefined;
}

function kubeletServing(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (!(req.organizations.length === 1 && req.organizations[0] === 'system:nodes')) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ips.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emails.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, KUBELET_SERVING_USAGES) && !sameSet(usages, KUBELET_SERVING_USAGES_NO_RSA)) return `usages did not match ${listed(KUBELET_SERVING_USAGES)}`;
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** validAPIServerClientUsages. */
function apiServerClient(_req: CertificateRequest, usages: readonly string[]): string | undefined {
  for (const u of usages) {
    if (u === 'digital signature' || u === 'key encipherment' || u === 'client auth') continue;
    return `invalid usage for client certificate: ${u}`;
  }
  return usages.includes('client auth') ? undefined : 'missing required usage for client certificate: client auth';
}

const RULES: Readonly<Record<string, (req: CertificateRequest, usages: readonly string[]) => string | undefined>> = {
  [KUBELET_SERVING]: kubeletServing,
  [KUBE_APISERVER_CLIENT_KUBELET]: kubeletClient,
  [KUBE_APISERVER_CLIENT]: apiServerClient,
  [LEGACY_UNKNOWN]: () => undefined,
};

export const signerNames = (): string[] => Object.keys(RULES);

/** Whether a signer of kubelite's handles `signerName`, and if so what is wrong with the request (undefined: nothing). */
export function checkForSigner(signerName: string, req: CertificateRequest, usages: readonly string[]): { recognized: boolean; problem?: string } {
  const rule = RULES[signerName];
  if (!rule) return { recognized: false };
  const problem = rule(req, usages);
  return problem === undefined ? { recognized: true } : { recognized: true, problem };
}
