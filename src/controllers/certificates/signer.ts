// The CSR signing controller (kube-controller-manager's csrsigning): approved requests for the
// kubernetes.io signers, not failed and not yet issued, are signed by the cluster CA
// (--cluster-signing-cert-file / --cluster-signing-key-file) for --cluster-signing-duration, or the
// request's spec.expirationSeconds when shorter (never under 10 minutes), backdated a little for
// clock skew. A request its signer refuses gets the Failed condition (SignerValidationFailure).
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { nameOf } from '../../api/meta/object.js';
import type { CertificateSigningRequest } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { untilAborted } from '../../client/wait.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { certificateSigner, randomSerialNumber, type CertificateTemplate } from '../../machinery/x509/certificate.js';
import { parseCertificateRequestPem } from '../../machinery/x509/csr.js';
import { rfc3339 } from '../common/time.js';
import { CSRS, isApproved, isFailed, isIssued, requestPem, x509Usages } from './csr.js';
import { checkForSigner } from './signer-rules.js';

const HOUR_MS = 3_600_000;
/** authority.PermissiveSigningPolicy: 5 minutes of backdating, proportionally less below 8 hours. */
const BACKDATE_MS = 5 * 60_000;
const SHORT_MS = 8 * HOUR_MS;
/** The shortest certificate issued (twice the backdating). */
const MIN_DURATION_MS = 10 * 60_000;
const DEFAULT_DURATION_MS = 8760 * HOUR_MS;

interface Ca {
  sign: (t: CertificateTemplate) => string;
  notAfter: number;
}

function loadCa(certFile: string, keyFile: string): Ca {
  const certificate = readFileSync(certFile, 'utf8');
  const privateKey: KeyObject = createPrivateKey(readFileSync(keyFile));
  return { sign: certificateSigner({ certificate, privateKey }), notAfter: Date.parse(new X509Certificate(certificate).validTo) };
}

export class CsrSigner implements Controller {
  readonly name = 'csrsigning';
  readonly queue: WorkQueue<string>;
  private readonly lister: Lister;
  private readonly client: ResourceClient;
  private ca: Ca | undefined;
  private readonly durationMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    ca?: Ca,
  ) {
    this.queue = newRateLimitingQueue<string>({ name: 'csrsigning' });
    const informer = ctx.informers.informer(CSRS);
    this.lister = informer.lister;
    this.client = ctx.clientset.resource(CSRS);
    const o = ctx.options;
    // the seed's --experimental-cluster-signing-duration, unless 1.33's --cluster-signing-duration says otherwise
    const current = typeof o.clusterSigningDuration === 'number' ? o.clusterSigningDuration : DEFAULT_DURATION_MS;
    this.durationMs = current !== DEFAULT_DURATION_MS ? current : typeof o.experimentalClusterSigningDuration === 'number' ? o.experimentalClusterSigningDuration : DEFAULT_DURATION_MS;
    this.ca = ca;
    informer.addEventHandler({ onAdd: (c) => this.queue.add(nameOf(c)), onUpdate: (_o, c) => this.queue.add(nameOf(c)) });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!this.ca) {
      const certFile = String(this.ctx.options.clusterSigningCertFile ?? '');
      const keyFile = String(this.ctx.options.clusterSigningKeyFile ?? '');
      try {
        this.ca = loadCa(certFile, keyFile);
      } catch (err) {
        this.ctx.log({ controller: this.name, msg: 'not signing certificates: cannot read the signing CA', certFile, keyFile, err: (err as Error).message });
        await untilAborted(signal);
        return;
      }
    }
    await runSyncWorkers(this.queue, workers, signal, (name) => this.sync(name), (name, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', csr: name, err: (err as Error).message }));
  }

  /** The certificate's lifetime: the configured duration, or the request's when shorter (10 minutes at least). */
  duration(csr: CertificateSigningRequest): number {
    const requested = csr.spec?.expirationSeconds;
    if (typeof requested !== 'number') return this.durationMs;
    return Math.min(this.durationMs, Math.max(MIN_DURATION_MS, requested * 1000));
  }

  async sync(name: string): Promise<void> {
    const cached = this.lister.get('', name) as CertificateSigningRequest | undefined;
    if (!cached || !this.ca || !isApproved(cached) || isFailed(cached) || isIssued(cached)) return;
    const csr = structuredClone(cached);
    const signerName = csr.spec?.signerName ?? '';
    const usages = (csr.spec?.usages ?? []).filter((u): u is string => typeof u === 'string');
    const req = parseCertificateRequestPem(requestPem(csr));
    const verdict = checkForSigner(signerName, req, usages);
    if (!verdict.recognized) return;
    const status = (csr.status ??= {});
    if (verdict.problem !== undefined) {
      status.conditions = [...(status.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: verdict.problem, lastUpdateTime: rfc3339(this.ctx.now()) }];
    } else {
      const now = this.ctx.now();
      const ttl = this.duration(csr);
      const backdate = ttl < SHORT_MS ? Math.floor((BACKDATE_MS * ttl) / SHORT_MS) : BACKDATE_MS;
      const { keyUsage, extKeyUsage } = x509Usages(usages);
      const pem = this.ca.sign({
        serialNumber: randomSerialNumber(),
        subject: { raw: req.rawSubject },
        notBefore: new Date(now - backdate),
        notAfter: new Date(Math.min(now + ttl, this.ca.notAfter)),
        publicKey: req.publicKey,
        isCA: false,
        keyUsage,
        extKeyUsage,
        dnsNames: req.dnsNames,
        ips: req.ips,
        emails: req.emails,
        uris: req.uris,
      });
      status.certificate = Buffer.from(pem).toString('base64');
    }
    try {
      await this.client.update('', csr as KubeObject, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
