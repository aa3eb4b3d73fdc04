// The CSR cleaner (kube-controller-manager's csrcleaner): every hour, requests are deleted once
// issued and approved for an hour, denied or failed for an hour, pending for a day, or when the
// certificate they hold has expired.
import { X509Certificate } from 'node:crypto';
import { creationTimestampOf, nameOf } from '../../api/meta/object.js';
import type { CertificateSigningRequest } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister, ResourceClient } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { timeMs } from '../common/time.js';
import { CSRS, isIssued } from './csr.js';

const HOUR_MS = 3_600_000;
export const CLEANER_POLLING_MS = HOUR_MS;
const APPROVED_EXPIRATION_MS = HOUR_MS;
const DENIED_EXPIRATION_MS = HOUR_MS;
const PENDING_EXPIRATION_MS = 24 * HOUR_MS;

/** Whether the request is due for deletion at `now`. */
export function csrExpired(csr: CertificateSigningRequest, now: number): boolean {
  const older = (t: unknown, ms: number) => {
    const at = timeMs(t);
    return at !== 0 && now - at > ms;
  };
  const conditions = csr.status?.conditions ?? [];
  if (conditions.length === 0 && older(creationTimestampOf(csr as never), PENDING_EXPIRATION_MS)) return true;
  for (const c of conditions) {
    if (c?.status !== 'True') continue;
    if ((c.type === 'Denied' || c.type === 'Failed') && older(c.lastUpdateTime, DENIED_EXPIRATION_MS)) return true;
    if (c.type === 'Approved' && isIssued(csr)) {
      if (older(c.lastUpdateTime, APPROVED_EXPIRATION_MS)) return true;
      try {
        if (Date.parse(new X509Certificate(Buffer.from(csr.status!.certificate!, 'base64')).validTo) < now) return true;
      } catch {
        // a certificate that does not parse is left to the other rules
      }
    }
  }
  return false;
}

export class CsrCleaner implements Controller {
  readonly name = 'csrcleaner';
  private readonly lister: Lister;
  private readonly client: ResourceClient;

  constructor(private readonly ctx: ControllerContext) {
    this.lister = ctx.informers.informer(CSRS).lister;
    this.client = ctx.clientset.resource(CSRS);
  }

  async run(_workers: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.pass();
      await sleep(CLEANER_POLLING_MS, signal);
    }
  }

  async pass(): Promise<void> {
    const now = this.ctx.now();
    for (const csr of this.lister.list() as CertificateSigningRequest[]) {
      if (!csrExpired(csr, now)) continue;
      try {
        await this.client.delete('', nameOf(csr as never));
      } catch (err) {
        if (!isNotFound(err)) this.ctx.log({ controller: this.name, msg: `unable to delete CSR ${JSON.stringify(nameOf(csr as never))}`, err: (err as Error).message });
      }
    }
  }
}
