// The CSR approving controller (kube-controller-manager's csrapproving): a pending kubelet client
// certificate request (signer kube-apiserver-client-kubelet, a valid node client request) is
// approved when a SubjectAccessReview says its requester may create
// certificatesigningrequests/selfnodeclient (its own node's name) or /nodeclient (any node's), as
// the bootstrap policy grants system:nodes and system:bootstrappers.
import { nameOf } from '../../api/meta/object.js';
import type { CertificateSigningRequest } from '../../api/types.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { parseCertificateRequestPem, type CertificateRequest } from '../../machinery/x509/csr.js';
import { CSRS, isApproved, isDenied, isIssued, KUBE_APISERVER_CLIENT_KUBELET, requestPem } from './csr.js';
import { checkForSigner } from './signer-rules.js';

const SARS = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' };

interface Recognizer {
  subresource: string;
  recognize: (csr: CertificateSigningRequest, req: CertificateRequest) => boolean;
  message: string;
}

const isNodeClient = (csr: CertificateSigningRequest, req: CertificateRequest): boolean =>
  csr.spec?.signerName === KUBE_APISERVER_CLIENT_KUBELET && checkForSigner(KUBE_APISERVER_CLIENT_KUBELET, req, (csr.spec?.usages ?? []).filter((u): u is string => typeof u === 'string')).problem === undefined;

const RECOGNIZERS: readonly Recognizer[] = [
  { subresource: 'selfnodeclient', recognize: (csr, req) => isNodeClient(csr, req) && csr.spec?.username === req.commonName, message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' },
  { subresource: 'nodeclient', recognize: isNodeClient, message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
];

export class CsrApprover implements Controller {
  readonly name = 'csrapproving';
  readonly queue: WorkQueue<string>;
  private readonly lister: Lister;
  private readonly client: ResourceClient;
  private readonly sars: ResourceClient;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'csrapproving' });
    const informer = ctx.informers.informer(CSRS);
    this.lister = informer.lister;
    this.client = ctx.clientset.resource(CSRS);
    this.sars = ctx.clientset.resource(SARS);
    informer.addEventHandler({ onAdd: (c) => this.queue.add(nameOf(c)), onUpdate: (_o, c) => this.queue.add(nameOf(c)) });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, workers, signal, (name) => this.sync(name), (name, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', csr: name, err: (err as Error).message }));
  }

  private async allowed(csr: CertificateSigningRequest, subresource: string): Promise<boolean> {
    const spec = csr.spec ?? {};
    const review = (await this.sars.create('', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: spec.username,
        uid: spec.uid,
        groups: spec.groups,
        extra: spec.extra,
        resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', verb: 'create', subresource, version: '*' },
      },
    })) as { status?: { allowed?: boolean } };
    return review.status?.allowed === true;
  }

  async sync(name: string): Promise<void> {
    const cached = this.lister.get('', name) as CertificateSigningRequest | undefined;
    if (!cached || isIssued(cached) || isApproved(cached) || isDenied(cached)) return;
    let req: CertificateRequest;
    try {
      req = parseCertificateRequestPem(requestPem(cached));
    } catch (err) {
      throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${(err as Error).message}`);
    }
    const tried: string[] = [];
    for (const r of RECOGNIZERS) {
      if (!r.recognize(cached, req)) continue;
      tried.push(r.subresource);
      if (!(await this.allowed(cached, r.subresource))) continue;
      const csr = structuredClone(cached);
      const status = (csr.status ??= {});
      status.conditions = [...(status.conditions ?? []), { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.message }];
      await this.client.update('', csr as KubeObject, { subresource: 'approval' });
      return;
    }
    // not an error worth retrying: the requester may not have it approved
    if (tried.length > 0) this.ctx.log({ controller: this.name, msg: `recognized csr ${JSON.stringify(name)} as [${tried.join(' ')}] but subject access review was not approved` });
  }
}
