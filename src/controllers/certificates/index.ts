// The certificate controllers' descriptors (see ../README.md). Kubernetes runs the three as the
// certificate-controller service account, whose role the signing controller's descriptor declares.
import type { PolicyRule } from '../../api/types.js';
import type { ControllerDescriptor } from '../common/descriptor.js';
import { EVENTS_RULE, rule } from '../common/rbac.js';
import { CsrApprover } from './approver.js';
import { CsrCleaner } from './cleaner.js';
import { KUBE_APISERVER_CLIENT, KUBE_APISERVER_CLIENT_KUBELET, KUBELET_SERVING, LEGACY_UNKNOWN } from './csr.js';
import { CsrSigner } from './signer.js';

const CERTIFICATES = ['certificates.k8s.io'];
const signers = (verb: string, names: string[]): PolicyRule => ({ ...rule(CERTIFICATES, 'signers', verb), resourceNames: names });

export const csrSigningDescriptor: ControllerDescriptor = {
  name: 'csrsigning',
  aliases: ['certificatesigningrequest-signing-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'certificate-controller',
  rules: [
    rule(CERTIFICATES, 'certificatesigningrequests', 'delete get list watch'),
    rule(CERTIFICATES, 'certificatesigningrequests/approval certificatesigningrequests/status', 'update'),
    signers('approve', [KUBE_APISERVER_CLIENT_KUBELET]),
    signers('sign', [LEGACY_UNKNOWN, KUBE_APISERVER_CLIENT, KUBE_APISERVER_CLIENT_KUBELET, KUBELET_SERVING]),
    rule(['authorization.k8s.io'], 'subjectaccessreviews', 'create'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new CsrSigner(ctx),
};

export const csrApprovingDescriptor: ControllerDescriptor = {
  name: 'csrapproving',
  aliases: ['certificatesigningrequest-approving-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'certificate-controller',
  ctor: (ctx) => new CsrApprover(ctx),
};

export const csrCleanerDescriptor: ControllerDescriptor = {
  name: 'csrcleaner',
  aliases: ['certificatesigningrequest-cleaner-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'certificate-controller',
  ctor: (ctx) => new CsrCleaner(ctx),
};
