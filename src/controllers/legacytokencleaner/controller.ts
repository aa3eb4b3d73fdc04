// The legacy service account token cleaner (kube-controller-manager's
// `legacy-serviceaccount-token-cleaner`, pkg/controller/serviceaccount): once the API server has
// tracked legacy token use for --legacy-service-account-token-clean-up-period (its ConfigMap
// kube-system/kube-apiserver-legacy-service-account-token-tracking says since when), a
// service-account-token Secret older than the period, auto-generated (its service account lists
// it), mounted by no pod and unused for the period (its kubernetes.io/legacy-token-last-used
// label) is labelled kubernetes.io/legacy-token-invalid-since=<today> — the API server then refuses
// it — and deleted once it has been invalid for the period too. Every 24 hours.
import { creationTimestampOf, isBeingDeleted, labelsOf, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { ConfigMap, Pod, Secret, ServiceAccount } from '../../api/types.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { podSecretNames } from '../../machinery/pods/references.js';

const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const SERVICE_ACCOUNTS = { group: '', version: 'v1', resource: 'serviceaccounts' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const CONFIG_MAPS = { group: '', version: 'v1', resource: 'configmaps' };

export const TRACKING_CONFIG_MAP = 'kube-apiserver-legacy-service-account-token-tracking';
export const LAST_USED_LABEL = 'kubernetes.io/legacy-token-last-used';
export const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';
const SYNC_INTERVAL_MS = 24 * 3600_000;
const DAY_MS = 24 * 3600_000;
const DEFAULT_CLEAN_UP_PERIOD_MS = 365 * DAY_MS;

/** Go's 2006-01-02, in UTC. */
const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const isDate = (s: string | undefined): s is string => s !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && dateOf(Date.parse(`${s}T00:00:00Z`)) === s;

export class LegacyTokenCleaner implements Controller {
  readonly name = 'legacy-serviceaccount-token-cleaner';
  private readonly secrets: Lister;
  private readonly serviceAccounts: Lister;
  private readonly pods: Lister;
  private readonly cleanUpPeriodMs: number;

  constructor(private readonly ctx: ControllerContext) {
    this.secrets = ctx.informers.informer(SECRETS).lister;
    this.serviceAccounts = ctx.informers.informer(SERVICE_ACCOUNTS).lister;
    this.pods = ctx.informers.informer(PODS).lister;
    const period = ctx.options.legacyServiceAccountTokenCleanUpPeriod;
    this.cleanUpPeriodMs = typeof period === 'number' ? period : DEFAULT_CLEAN_UP_PERIOD_MS;
  }

  async run(_workers: number, signal: AbortSignal): Promise<void> {
    await this.ctx.informers.waitForCacheSync(signal);
    while (!signal.aborted) {
      try {
        await this.evaluate();
      } catch (err) {
        this.ctx.log({ controller: this.name, msg: 'evaluating legacy tokens failed', err: (err as Error).message });
      }
      await sleep(SYNC_INTERVAL_MS, signal);
    }
  }

  /** The first day on which every legacy token use has been tracked (the day after tracking began). */
  private async trackedSince(): Promise<number> {
    const cm: ConfigMap = await this.ctx.clientset.resource(CONFIG_MAPS).get('kube-system', TRACKING_CONFIG_MAP);
    const since = cm.data?.since;
    if (since === undefined) throw new Error('configMap does not have since label');
    if (!isDate(since)) throw new Error(`error parsing trackedSince time: ${since}`);
    return Date.parse(`${since}T00:00:00Z`) + DAY_MS;
  }

  async evaluate(): Promise<void> {
    const now = this.ctx.now();
    if (now < (await this.trackedSince()) + this.cleanUpPeriodMs) return; // not tracked long enough
    const preserveCreatedOnOrAfter = now - this.cleanUpPeriodMs;
    const preserveUsedOnOrAfter = dateOf(now - this.cleanUpPeriodMs);
    const mountedByNamespace = new Map<string, Set<string>>();
    const client = this.ctx.clientset.resource(SECRETS);
    for (const secret of this.secrets.list() as Secret[]) {
      if (secret.type !== 'kubernetes.io/service-account-token' || isBeingDeleted(secret)) continue;
      if (!(Date.parse(creationTimestampOf(secret)) < preserveCreatedOnOrAfter)) continue;
      const labels = labelsOf(secret);
      const lastUsed = labels[LAST_USED_LABEL];
      if (lastUsed !== undefined && (!isDate(lastUsed) || lastUsed >= preserveUsedOnOrAfter)) continue;
      if (!this.generatedFor(secret)) continue;
      const ns = namespaceOf(secret);
      let mounted = mountedByNamespace.get(ns);
      if (!mounted) mountedByNamespace.set(ns, (mounted = new Set((this.pods.list(ns) as Pod[]).flatMap((p) => podSecretNames(p.spec ?? {})))));
      if (mounted.has(nameOf(secret))) continue;
      const invalidSince = labels[INVALID_SINCE_LABEL];
      if (!isDate(invalidSince)) {
        await client.patch(ns, nameOf(secret), 'merge', { metadata: { uid: uidOf(secret), labels: { [INVALID_SINCE_LABEL]: dateOf(now) } } }).catch((err) => this.ctx.log({ controller: this.name, msg: 'failed to label legacy service account token secret with invalid since date', secret: `${ns}/${nameOf(secret)}`, err: (err as Error).message }));
        continue;
      }
      if (invalidSince >= preserveUsedOnOrAfter) continue;
      try {
        await client.delete(ns, nameOf(secret), { preconditions: { resourceVersion: resourceVersionOf(secret) } });
      } catch (err) {
        if (!isConflict(err) && !isNotFound(err)) this.ctx.log({ controller: this.name, msg: 'deleting legacy service account token failed', secret: `${ns}/${nameOf(secret)}`, err: (err as Error).message });
      }
    }
  }

  /** Auto-generated: its service account (by name, and uid when the secret records one) lists it. */
  private generatedFor(secret: Secret): boolean {
    const annotations = secret.metadata?.annotations ?? {};
    const saName = annotations['kubernetes.io/service-account.name'];
    if (!saName) return false;
    const sa = this.serviceAccounts.get(namespaceOf(secret), saName) as ServiceAccount | undefined;
    if (!sa) return false;
    const saUid = annotations['kubernetes.io/service-account.uid'];
    if (saUid && saUid !== uidOf(sa)) return false;
    return (sa.secrets ?? []).some((s) => s?.name === nameOf(secret));
  }
}
