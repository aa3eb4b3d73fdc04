// pods/eviction honouring PodDisruptionBudgets, as Kubernetes' eviction REST does
// (pkg/registry/core/pod/storage/eviction.go):
// - a pod that is Pending, Succeeded, Failed or already being deleted is deleted without looking
//   at budgets (a Pending one only if it has not changed since it was read);
// - more than one budget selecting the pod: a 500 Status, nothing deleted;
// - an unready pod is deleted without spending the budget when its policy is AlwaysAllow, or
//   (IfHealthyBudget, the default) when the budget is healthy; again only if the pod has not
//   changed since (a conflict then is a 429, so the client retries);
// - otherwise the budget must allow a disruption: its status must have observed its generation
//   (else 429), disruptionsAllowed must be positive (0: 429 with the DisruptionBudget cause); it is
//   then decremented and the pod recorded in status.disruptedPods (not on a dry run) before the delete.
import { labelsOf, metadataOf } from '../../../../api/meta/object.js';
import { setStatusCondition } from '../../../../api/meta/conditions.js';
import type { Condition, Pod, PodCondition, PodDisruptionBudget } from '../../../../api/types.js';
import { StatusError } from '../../../../machinery/status.js';
import { labelSelectorAsSelector, selectorEmpty, selectorMatches } from '../../../../machinery/validation/common.js';
import { apiError } from '../../../errors.js';
import type { DeletePreconditions, GuardedDelete } from '../../../kind-module.js';
import { timestamp } from '../../../meta.js';
import type { Store } from '../../../store.js';

/** More recorded disruptions than this: the disruption controller is behind, evictions wait. */
export const MAX_DISRUPTED_POD_SIZE = 2000;
const CONFLICT_RETRIES = 20;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
const pdbResource = { group: 'policy', resource: 'poddisruptionbudget' };

function tooManyRequests(retryAfterSeconds: number, cause: string): StatusError {
  const details = { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) };
  return new StatusError(429, 'TooManyRequests', VIOLATION, { details });
}

/** createTooManyRequestsError: the budget's status is not yet up to date. */
const stillProcessing = (pdb: string): StatusError => tooManyRequests(10, `The disruption budget ${pdb} is still being processed by the server.`);

function canIgnoreBudgets(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || metadataOf(pod).deletionTimestamp != null;
}

/** shouldEnforceResourceVersion: a live pod must not have become ready since it was read. */
function pinsResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || metadataOf(pod).deletionTimestamp != null);
}

const isReady = (pod: Pod): boolean => (pod.status?.conditions ?? []).some((c) => c?.type === 'Ready' && c.status === 'True');

/** The budgets in the pod's namespace whose (non-empty, valid) selector matches its labels. */
async function budgetsOf(pdbs: Store, pod: Pod, namespace: string): Promise<PodDisruptionBudget[]> {
  const out: PodDisruptionBudget[] = [];
  for (const { name } of pdbs.listNames(namespace)) {
    let pdb: PodDisruptionBudget;
    try {
      pdb = (await pdbs.get(namespace, name)) as PodDisruptionBudget;
    } catch {
      continue; // deleted since listed
    }
    const selector = labelSelectorAsSelector(pdb.spec?.selector);
    if (!selector || selectorEmpty(selector) || !selectorMatches(selector, labelsOf(pod))) continue;
    out.push(pdb);
  }
  return out;
}

/** pdbhelper.UpdateDisruptionAllowedCondition once the budget is spent. */
function markInsufficient(status: NonNullable<PodDisruptionBudget['status']>, now: number): void {
  const conditions = (status.conditions ?? []).filter((c): c is Condition => c != null);
  setStatusCondition(conditions, { type: 'DisruptionAllowed', status: 'False', observedGeneration: status.observedGeneration ?? 0, reason: 'InsufficientPods', message: '' }, timestamp(now));
  status.conditions = conditions;
}

/** checkAndDecrement, retried on conflicts with a fresh read of the budget. */
async function spendBudget(pdbs: Store, namespace: string, podName: string, pdbName: string, dryRun: boolean, now: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const pdb = (await pdbs.get(namespace, pdbName)) as PodDisruptionBudget;
    const status = pdb.status ?? {};
    if ((status.observedGeneration ?? 0) < (metadataOf(pdb).generation ?? 0)) throw stillProcessing(pdbName);
    const allowed = status.disruptionsAllowed ?? 0;
    if (allowed < 0) throw apiError.forbidden(pdbResource, pdbName, 'pdb disruptions allowed is negative');
    if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
      throw apiError.forbidden(pdbResource, pdbName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    }
    if (allowed === 0) {
      throw tooManyRequests(0, `The disruption budget ${pdbName} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`);
    }
    if (dryRun) return;
    status.disruptionsAllowed = allowed - 1;
    if (status.disruptionsAllowed === 0) markInsufficient(status, now);
    status.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: timestamp(now) };
    pdb.status = status;
    try {
      await pdbs.guaranteedUpdate(namespace, pdbName, () => pdb, { subresource: 'status', expectResourceVersion: metadataOf(pdb).resourceVersion ?? undefined });
      return;
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
      if (attempt >= CONFLICT_RETRIES) throw apiError.timeout(`couldn't update PodDisruptionBudget ${JSON.stringify(pdbName)} due to conflicts`, 10);
    }
  }
}

const withResourceVersion = (p: DeletePreconditions, resourceVersion: string | undefined): DeletePreconditions => ({ ...p, resourceVersion: resourceVersion ?? undefined });

/** The resource as Kubernetes names it in the precondition conflicts of an eviction. */
const POD_RESOURCE = { group: '', resource: 'Pod' };

/** podutil.UpdatePodCondition: replaces the condition of its type; the transition time moves only with the status. */
function setPodCondition(pod: Pod, next: Omit<PodCondition, 'lastTransitionTime'>, now: string): void {
  const status = (pod.status ??= {});
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c?.type === next.type);
  const lastTransitionTime = i >= 0 && conditions[i]?.status === next.status ? conditions[i]!.lastTransitionTime : now;
  const cond: PodCondition = { ...next, lastTransitionTime };
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  status.conditions = conditions;
}

/**
 * addConditionAndDeletePod: the pod gets DisruptionTarget=True (EvictionByEvictionAPI) through its
 * status before the delete (not on a dry run), checked against the delete's preconditions; a pinned
 * resourceVersion then moves to the version that write made.
 */
async function markAndRemove(e: GuardedDelete, preconditions: DeletePreconditions): Promise<void> {
  if (e.dryRun) return e.remove(preconditions);
  const { object } = await e.store.guaranteedUpdate(
    e.namespace,
    e.name,
    (current) => {
      const meta = metadataOf(current);
      if (preconditions.uid && preconditions.uid !== meta.uid) {
        throw apiError.conflict(POD_RESOURCE, e.name, `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${meta.uid ?? ''}`);
      }
      if (preconditions.resourceVersion && preconditions.resourceVersion !== meta.resourceVersion) {
        throw apiError.conflict(POD_RESOURCE, e.name, `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
      }
      setPodCondition(current as Pod, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }, timestamp(e.now));
      return current;
    },
    { subresource: 'status' },
  );
  const resourceVersion = metadataOf(object).resourceVersion ?? undefined;
  await e.remove(preconditions.resourceVersion ? { ...preconditions, resourceVersion } : preconditions);
}

/** The eviction of one pod (the pods/eviction subresource's guarded delete). */
export async function evictPod(e: GuardedDelete): Promise<Record<string, unknown> | undefined> {
  const pod = (await e.store.get(e.namespace, e.name)) as Pod;
  const rvUnset = e.preconditions.resourceVersion === undefined;
  const podVersion = metadataOf(pod).resourceVersion ?? undefined;
  if (canIgnoreBudgets(pod)) {
    await markAndRemove(e, pinsResourceVersion(pod) && rvUnset ? withResourceVersion(e.preconditions, podVersion) : e.preconditions);
    return undefined;
  }
  const pdbs = e.storeOf('policy', 'poddisruptionbudgets');
  const budgets = pdbs ? await budgetsOf(pdbs, pod, e.namespace) : [];
  if (budgets.length > 1) {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 };
  }
  const pdb = budgets[0];
  if (!pdb || !pdbs) {
    await markAndRemove(e, e.preconditions);
    return undefined;
  }
  const pdbName = metadataOf(pdb).name ?? '';
  if (!isReady(pod)) {
    const status = pdb.status ?? {};
    const healthy = (status.desiredHealthy ?? 0) > 0 && (status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0);
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || healthy) {
      // An unready pod does not count as healthy: deleting it spends nothing, if it stays unready.
      try {
        await markAndRemove(e, withResourceVersion(e.preconditions, podVersion));
      } catch (err) {
        if (err instanceof StatusError && err.code === 409 && rvUnset) throw stillProcessing(pdbName);
        throw err;
      }
      return undefined;
    }
  }
  await spendBudget(pdbs, e.namespace, e.name, pdbName, e.dryRun, e.now);
  await markAndRemove(e, e.preconditions);
  return undefined;
}
