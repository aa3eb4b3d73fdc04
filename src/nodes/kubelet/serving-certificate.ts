// The kubelet's serving certificate through the certificates API (kubelet
// --rotate-server-certificates, serverTLSBootstrap): a CertificateSigningRequest for
// `system:node:<node>` in `system:nodes`, signer kubernetes.io/kubelet-serving, usages digital
// signature and server auth, the DNS names and IPs the listener answers to; once the controller
// manager's csrsigning has signed it, the listener serves it, and a new one is requested when 70–90%
// of its validity has passed (the kubelet's jittered rotation deadline).
//
// Kubernetes approves no kubelet serving request by itself: an approver must (an administrator,
// or a deployment such as kubelet-csr-approver). The agent is that approver for its own nodes when
// its identity may approve for the signer (`kubelite up` grants it): it checks what an approver
// checks — the requester is the node the subject names, the names are the node's own, the usages
// a server's — and approves.
import { X509Certificate } from 'node:crypto';
import type { CertificateSigningRequest } from '../../api/types.js';
import type { Clock } from '../../client/clock.js';
import { isForbidden } from '../../client/errors.js';
import type { Clientset } from '../../client/types.js';
import { certificateRequestPem, requestKeyPair } from '../../machinery/x509/certificate-request.js';
import { parseCertificateRequestPem } from '../../machinery/x509/csr.js';
import { errMsg, type Log } from '../options.js';

const CSRS = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' };
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
const USAGES = ['digital signature', 'server auth'];
const RETRY_MS = 5_000;
/** Timers are set at most this far ahead (setTimeout's limit is ~24.8 days); a later deadline is waited for in steps. */
const MAX_TIMER_MS = 24 * 3600_000;

export interface ServingCertificateOptions {
  /** The node the certificate is requested as (its client: `system:node:<node>`). */
  node: string;
  nodeClient: Clientset;
  /** The agent's own client, which approves when it may. */
  approverClient: Clientset;
  /** The names the listener answers to, and the nodes it serves (the approver's check). */
  dnsNames: readonly string[];
  ips: readonly string[];
  clock: Clock;
  log: Log;
  /** Called with each certificate issued (PEM chain and key). */
  serve(cert: string, key: string): void;
}

/** What an approver checks of a kubelet serving request (undefined: approvable). */
export function servingRequestProblem(csr: CertificateSigningRequest, allowed: { dnsNames: readonly string[]; ips: readonly string[] }): string | undefined {
  const req = parseCertificateRequestPem(Buffer.from(csr.spec?.request ?? '', 'base64'));
  const user = csr.spec?.username ?? '';
  if (csr.spec?.signerName !== KUBELET_SERVING_SIGNER) return `signer ${csr.spec?.signerName ?? ''} is not ${KUBELET_SERVING_SIGNER}`;
  if (req.commonName !== user || !user.startsWith('system:node:')) return `the subject ${req.commonName} is not the requesting node ${user}`;
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  const badDNS = req.dnsNames.filter((d) => !allowed.dnsNames.includes(d));
  const badIPs = req.ips.filter((ip) => !allowed.ips.includes(ip));
  if (badDNS.length > 0 || badIPs.length > 0) return `names not the node's: ${[...badDNS, ...badIPs].join(', ')}`;
  if (req.emails.length > 0 || req.uris.length > 0) return 'email and URI subjectAltNames are not allowed';
  if ((csr.spec?.usages ?? []).some((u) => !['digital signature', 'key encipherment', 'server auth'].includes(u ?? ''))) return `usages ${(csr.spec?.usages ?? []).join(', ')} are not a server's`;
  return undefined;
}

export class ServingCertificateManager {
  private timer: ReturnType<Clock['setTimer']> | undefined;
  private stopped = false;
  /** When the certificate served is to be renewed (epoch ms). */
  private renewAt = 0;

  constructor(private readonly o: ServingCertificateOptions) {}

  /** Requests the first certificate (in the background: the bootstrap certificate serves meanwhile). */
  start(): void {
    void this.rotate();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private async rotate(): Promise<void> {
    if (this.stopped) return;
    if (Date.now() < this.renewAt) return this.schedule(this.renewAt - Date.now());
    try {
      const { cert, key } = await this.request();
      if (this.stopped) return;
      this.o.serve(cert, key);
      const x = new X509Certificate(cert);
      const from = Date.parse(x.validFrom);
      const to = Date.parse(x.validTo);
      this.renewAt = Math.max(Date.now() + RETRY_MS, from + (to - from) * (0.7 + 0.2 * Math.random()));
      this.o.log({ msg: 'kubelet serving certificate issued', node: this.o.node, serial: x.serialNumber, notAfter: x.validTo, renewAt: new Date(this.renewAt).toISOString() });
      this.schedule(this.renewAt - Date.now());
    } catch (e) {
      this.o.log({ msg: 'kubelet serving certificate request failed, retrying', node: this.o.node, error: errMsg(e) });
      this.schedule(RETRY_MS);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = this.o.clock.setTimer(() => void this.rotate(), Math.min(ms, MAX_TIMER_MS));
  }

  private async request(): Promise<{ cert: string; key: string }> {
    const keys = requestKeyPair('ec');
    const pem = certificateRequestPem(`system:node:${this.o.node}`, { organization: 'system:nodes', dnsNames: this.o.dnsNames, ips: this.o.ips, keys });
    const csrs = this.o.nodeClient.resource(CSRS);
    const created = (await csrs.create('', {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { generateName: 'csr-' },
      spec: { request: Buffer.from(pem).toString('base64'), signerName: KUBELET_SERVING_SIGNER, usages: USAGES },
    })) as CertificateSigningRequest;
    const name = created.metadata?.name ?? '';
    await this.approve(created);
    for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
      const csr = (await csrs.get('', name)) as CertificateSigningRequest;
      const failed = (csr.status?.conditions ?? []).find((c) => (c.type === 'Denied' || c.type === 'Failed') && c.status === 'True');
      if (failed) throw new Error(`certificate signing request ${name} ${failed.type}: ${failed.message ?? failed.reason ?? ''}`);
      if (csr.status?.certificate) {
        const key = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
        return { cert: Buffer.from(csr.status.certificate, 'base64').toString('utf8'), key };
      }
      if (this.stopped) throw new Error('stopped');
      await new Promise<void>((resolve) => this.o.clock.setTimer(resolve, wait));
    }
  }

  /** Approves the request as an approver would, when the agent may (else someone else must). */
  private async approve(csr: CertificateSigningRequest): Promise<void> {
    const problem = servingRequestProblem(csr, { dnsNames: this.o.dnsNames, ips: this.o.ips });
    if (problem) {
      this.o.log({ msg: 'kubelet serving certificate request not approved', csr: csr.metadata?.name, problem });
      return;
    }
    const approved = {
      ...csr,
      status: { ...(csr.status ?? {}), conditions: [...(csr.status?.conditions ?? []), { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'kubelite nodes: the serving certificate of its own node' }] },
    };
    try {
      await this.o.approverClient.resource(CSRS).update('', approved, { subresource: 'approval' });
    } catch (e) {
      if (!isForbidden(e)) throw e;
      this.o.log({ msg: 'kubelet serving certificate request waits for an approver (this agent may not approve it)', csr: csr.metadata?.name });
    }
  }
}
