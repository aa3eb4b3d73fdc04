// ResourceQuota admission (Kubernetes' plugin/pkg/admission/resourcequota): a create or update in
// a namespace is charged to the namespace's quotas that limit what it uses. A quota whose usage is
// not computed yet refuses it ("status unknown"), a write that would go over a hard limit is
// refused ("exceeded quota"), and otherwise status.used of every affected quota is raised before
// the write, each with a compare-and-swap on the quota's resourceVersion, re-read and re-checked
// on conflict — so concurrent writes never take a quota past its hard limits. The usage
// evaluators are machinery/quota's, which the resourcequota controller shares.
import { resourceVersionOf } from '../../api/meta/object.js';
import type { ResourceQuota } from '../../api/types.js';
import {
  add,
  evaluatorFor,
  isZero,
  lessThanOrEqual,
  mask,
  negatives,
  prettyPrint,
  quotaMatches,
  statusHardOf,
  subtractNonNegative,
  toJson,
  usedOf,
  type Evaluator,
  type ResourceList,
} from '../../machinery/quota/index.js';
import { StatusError } from '../../machinery/status.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

/** The quotas of a namespace and their status writes (conditional on the resourceVersion they carry). */
export interface QuotaAccess {
  /** The namespace's quotas (as the watch cache has them: a stale one loses its status write). */
  list(namespace: string): Promise<ResourceQuota[]>;
  /** One quota as storage has it now. */
  get(namespace: string, name: string): Promise<ResourceQuota | undefined>;
  /** Writes status.used; throws a 409 StatusError when the quota changed since it was read. */
  updateStatus(quota: ResourceQuota): Promise<void>;
}

/** How often one quota's status write is retried after losing a race. */
const MAX_CONFLICT_RETRIES = 50;

const isConflict = (err: unknown): boolean => err instanceof StatusError && err.code === 409;

export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = 'ResourceQuota';

  constructor(
    private readonly quotas: QuotaAccess,
    private readonly now: () => number = Date.now,
  ) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.operation === 'DELETE' || a.subresource !== '' || a.namespace === '' || !a.object) return;
    const evaluator = evaluatorFor(a.group, a.resource);
    if (!evaluator.handles(a.operation)) return;
    const quotas = await this.quotas.list(a.namespace);
    if (quotas.length === 0) return;

    const interesting = quotas.filter((q) => this.check(a, evaluator, q));
    if (interesting.length === 0) return;
    const delta = this.delta(a, evaluator);
    if (delta === undefined) return;

    // Check every quota first so a refusal leaves all of them untouched, then charge each.
    for (const q of interesting) this.charge(a, q, delta);
    if (a.dryRun) return;
    for (const q of interesting) await this.commit(a, evaluator, q, delta);
  }

  /** Whether the quota limits the write (and it may be charged): refuses constraint failures and unknown usage. */
  private check(a: AdmissionAttributes, evaluator: Evaluator, q: ResourceQuota): boolean {
    const hard = Object.keys(q.status?.hard ?? {});
    if (!quotaMatches(hard, q, evaluator, a.object!)) return false;
    const restricted = evaluator.matchingResources(hard);
    const why = evaluator.constraints(restricted, a.object!);
    if (why !== '') throw admissionForbidden(a, `failed quota: ${q.metadata?.name}: ${why}`);
    const used = q.status?.used ?? {};
    const unknown = restricted.some((r) => !(r in used));
    if (unknown) throw admissionForbidden(a, `status unknown for quota: ${q.metadata?.name}, resources: ${[...restricted].sort().join(',')}`);
    return true;
  }

  /** What the write adds (an update: beyond the old object's usage); undefined when nothing. */
  private delta(a: AdmissionAttributes, evaluator: Evaluator): ResourceList | undefined {
    const now = this.now();
    let delta = evaluator.usage(a.object!, now);
    const negative = negatives(delta);
    if (negative.length > 0) throw admissionForbidden(a, `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
    if (a.operation === 'UPDATE' && a.oldObject && resourceVersionOf(a.oldObject) !== '') {
      delta = subtractNonNegative(delta, evaluator.usage(a.oldObject, now));
    }
    return isZero(delta) ? undefined : delta;
  }

  /** The quota's new status.used with the write charged, or the 403 when it does not fit. */
  private charge(a: AdmissionAttributes, q: ResourceQuota, delta: ResourceList): ResourceList {
    const hard = statusHardOf(q);
    const used = usedOf(q);
    const requested = mask(delta, hard.keys());
    const next = add(used, requested);
    const { allowed, exceeded } = lessThanOrEqual(mask(next, requested.keys()), hard);
    if (!allowed) {
      throw admissionForbidden(
        a,
        `exceeded quota: ${q.metadata?.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
      );
    }
    return next;
  }

  /** Raises the quota's status.used by the write, re-reading and re-checking it after each lost race. */
  private async commit(a: AdmissionAttributes, evaluator: Evaluator, quota: ResourceQuota, delta: ResourceList): Promise<void> {
    let q: ResourceQuota | undefined = quota;
    for (let attempt = 0; ; attempt++) {
      const next = this.charge(a, q, delta);
      try {
        await this.quotas.updateStatus({ ...q, status: { ...q.status, used: toJson(next) } });
        return;
      } catch (err) {
        // A quota deleted since it was listed limits nothing any more.
        if (err instanceof StatusError && err.code === 404) return;
        if (!isConflict(err) || attempt >= MAX_CONFLICT_RETRIES) throw err;
      }
      q = await this.quotas.get(a.namespace, quota.metadata?.name ?? '');
      // A quota deleted meanwhile limits nothing; one changed so that it no longer applies neither.
      if (!q || !this.check(a, evaluator, q)) return;
    }
  }
}
