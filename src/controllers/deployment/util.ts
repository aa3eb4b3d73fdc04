// pkg/controller/deployment/util: revisions and annotations, fenceposts of maxSurge and
// maxUnavailable, replica counts over replica sets, conditions, and the orderings of replica sets.
import type { KubeObject } from '../../client/types.js';
import { meta, semanticEqual } from '../common/objects.js';
import { rfc3339, timeMs } from '../common/time.js';
import { specReplicas } from '../replicaset/replicaset.js';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';
export const LAST_APPLIED_CONFIG = 'kubectl.kubernetes.io/last-applied-configuration';
export const POD_TEMPLATE_HASH = 'pod-template-hash';
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;
const MAX_INT32 = 2147483647;

// Condition reasons.
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet';
export const NEW_RS_REASON = 'NewReplicaSetCreated';
export const FAILED_RS_CREATE_REASON = 'ReplicaSetCreateError';
export const RS_UPDATED_REASON = 'ReplicaSetUpdated';
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable';
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded';
export const PAUSED_DEPLOY_REASON = 'DeploymentPaused';
export const RESUMED_DEPLOY_REASON = 'DeploymentResumed';
export const MIN_REPLICAS_AVAILABLE = 'MinimumReplicasAvailable';
export const MIN_REPLICAS_UNAVAILABLE = 'MinimumReplicasUnavailable';
export const ROLLBACK_REVISION_NOT_FOUND = 'DeploymentRollbackRevisionNotFound';
export const ROLLBACK_TEMPLATE_UNCHANGED = 'DeploymentRollbackTemplateUnchanged';
export const ROLLBACK_DONE = 'DeploymentRollback';

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export type IntOrString = number | string;

export interface DeploymentSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | null;
  template?: KubeObject;
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number | null;
  paused?: boolean;
  progressDeadlineSeconds?: number | null;
}

export function dSpec(d: KubeObject): DeploymentSpec {
  return (d.spec ?? {}) as DeploymentSpec;
}
export function dStatus(d: KubeObject): DeploymentStatus {
  return (d.status ?? {}) as DeploymentStatus;
}
function rsStatusOf(rs: KubeObject): { replicas?: number; readyReplicas?: number; availableReplicas?: number; observedGeneration?: number } {
  return (rs.status ?? {}) as Record<string, number>;
}
export function annotations(obj: KubeObject): Record<string, string> {
  return meta(obj).annotations ?? {};
}
function setAnnotation(obj: KubeObject, k: string, v: string): void {
  const m = (obj.metadata ??= {}) as Record<string, unknown>;
  m.annotations = { ...((m.annotations as Record<string, string> | undefined) ?? {}), [k]: v };
}

// ----- intstr -----------------------------------------------------------------------------------

/** intstr.GetScaledValueFromIntOrPercent. Throws for a string that is not a percentage. */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const n = Number.parseInt(v.slice(0, -1), 10);
  if (!/^-?\d+$/.test(v.slice(0, -1)) || Number.isNaN(n)) throw new Error(`invalid value for IntOrString: invalid value "${v}"`);
  return roundUp ? Math.ceil((n * total) / 100) : Math.floor((n * total) / 100);
}

export function isRollingUpdate(d: KubeObject): boolean {
  return (dSpec(d).strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** ResolveFenceposts: surge rounds up, unavailable down; both 0 → unavailable 1. */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): [number, number] {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

function rollingParams(d: KubeObject): { maxSurge?: IntOrString; maxUnavailable?: IntOrString } {
  return dSpec(d).strategy?.rollingUpdate ?? { maxSurge: '25%', maxUnavailable: '25%' };
}

export function maxSurge(d: KubeObject): number {
  if (!isRollingUpdate(d)) return 0;
  const p = rollingParams(d);
  return resolveFenceposts(p.maxSurge, p.maxUnavailable, specReplicas(d))[0];
}

export function maxUnavailable(d: KubeObject): number {
  const replicas = specReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const p = rollingParams(d);
  const u = resolveFenceposts(p.maxSurge, p.maxUnavailable, replicas)[1];
  return Math.min(u, replicas);
}

// ----- replica counts ---------------------------------------------------------------------------

type RSs = (KubeObject | undefined | null)[];
const present = (rss: RSs): KubeObject[] => rss.filter((r): r is KubeObject => !!r);

export const replicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + specReplicas(rs), 0);
export const actualReplicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + (rsStatusOf(rs).replicas ?? 0), 0);
export const readyReplicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + (rsStatusOf(rs).readyReplicas ?? 0), 0);
export const availableReplicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + (rsStatusOf(rs).availableReplicas ?? 0), 0);
export const filterActiveReplicaSets = (rss: RSs): KubeObject[] => present(rss).filter((rs) => specReplicas(rs) > 0);

// ----- orderings --------------------------------------------------------------------------------

/** controller.ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreationTimestamp(a: KubeObject, b: KubeObject): number {
  const ta = timeMs(meta(a).creationTimestamp);
  const tb = timeMs(meta(b).creationTimestamp);
  if (ta === tb) return String(meta(a).name) < String(meta(b).name) ? -1 : String(meta(a).name) > String(meta(b).name) ? 1 : 0;
  return ta - tb;
}
/** ReplicaSetsBySizeNewer: larger first, then newer first. */
export function bySizeNewer(a: KubeObject, b: KubeObject): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(b, a);
}
/** ReplicaSetsBySizeOlder: larger first, then older first. */
export function bySizeOlder(a: KubeObject, b: KubeObject): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(a, b);
}
/** ReplicaSetsByRevision: lower revision first, then older first. */
export function byRevision(a: KubeObject, b: KubeObject): number {
  const ra = revision(a);
  const rb = revision(b);
  if (ra === rb) return byCreationTimestamp(a, b);
  return ra - rb;
}

// ----- revisions and annotations ----------------------------------------------------------------

/** Revision of a replica set (0 when absent or unparsable). */
export function revision(obj: KubeObject): number {
  const v = annotations(obj)[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  const n = Number(v);
  return Number.isInteger(n) ? n : 0;
}
function revisionOrError(obj: KubeObject): number | undefined {
  const v = annotations(obj)[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return /^-?\d+$/.test(v) ? Number(v) : undefined;
}

export function maxRevision(rss: RSs): number {
  let max = 0;
  for (const rs of present(rss)) {
    const v = revisionOrError(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** LastRevision: the second largest revision. */
export function lastRevision(rss: RSs): number {
  let max = 0;
  let second = 0;
  for (const rs of present(rss)) {
    const v = revisionOrError(rs);
    if (v === undefined) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) second = v;
  }
  return second;
}

const ANNOTATIONS_TO_SKIP = new Set([LAST_APPLIED_CONFIG, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, DEPRECATED_ROLLBACK_TO]);
export const skipCopyAnnotation = (k: string): boolean => ANNOTATIONS_TO_SKIP.has(k);

function copyDeploymentAnnotationsToReplicaSet(d: KubeObject, rs: KubeObject): boolean {
  let changed = false;
  const rsAnn = { ...annotations(rs) };
  for (const [k, v] of Object.entries(annotations(d))) {
    if (skipCopyAnnotation(k) || rsAnn[k] === v) continue;
    rsAnn[k] = v;
    changed = true;
  }
  if (changed) (rs.metadata as Record<string, unknown>).annotations = rsAnn;
  return changed;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true when changed. */
export function setReplicasAnnotations(rs: KubeObject, desired: number, max: number): boolean {
  let updated = false;
  const a = annotations(rs);
  if (a[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    setAnnotation(rs, DESIRED_REPLICAS_ANNOTATION, String(desired));
    updated = true;
  }
  if (annotations(rs)[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    setAnnotation(rs, MAX_REPLICAS_ANNOTATION, String(max));
    updated = true;
  }
  return updated;
}

function intAnnotation(rs: KubeObject, k: string): number | undefined {
  const v = annotations(rs)[k];
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}
export const desiredReplicasAnnotation = (rs: KubeObject): number | undefined => intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
export const maxReplicasAnnotation = (rs: KubeObject): number | undefined => intAnnotation(rs, MAX_REPLICAS_ANNOTATION);

/** SetNewReplicaSetAnnotations. */
export function setNewReplicaSetAnnotations(d: KubeObject, rs: KubeObject, newRevision: string, exists: boolean, maxRevHistoryLength = MAX_REV_HISTORY_LENGTH_IN_CHARS): boolean {
  let changed = copyDeploymentAnnotationsToReplicaSet(d, rs);
  const m = (rs.metadata ??= {}) as Record<string, unknown>;
  m.annotations ??= {};
  const ann = m.annotations as Record<string, string>;
  const hadOld = Object.prototype.hasOwnProperty.call(ann, REVISION_ANNOTATION);
  const oldRevision = ann[REVISION_ANNOTATION] ?? '';
  let oldRevisionInt = 0;
  if (oldRevision !== '') {
    if (!/^-?\d+$/.test(oldRevision)) return false;
    oldRevisionInt = Number(oldRevision);
  }
  if (!/^-?\d+$/.test(newRevision)) return false;
  const newRevisionInt = Number(newRevision);
  if (oldRevisionInt < newRevisionInt) {
    ann[REVISION_ANNOTATION] = newRevision;
    changed = true;
  }
  if (hadOld && oldRevisionInt < newRevisionInt) {
    const history = ann[REVISION_HISTORY_ANNOTATION] ?? '';
    let old = history.split(',');
    if (old[0]!.length === 0) ann[REVISION_HISTORY_ANNOTATION] = oldRevision;
    else {
      let totalLen = history.length + oldRevision.length + 1;
      let start = 0;
      while (totalLen > maxRevHistoryLength && start < old.length) {
        totalLen = totalLen - old[start]!.length - 1;
        start++;
      }
      if (totalLen <= maxRevHistoryLength) {
        old = [...old.slice(start), oldRevision];
        ann[REVISION_HISTORY_ANNOTATION] = old.join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, specReplicas(d), specReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

/** SetDeploymentRevision: true when the deployment's revision annotation changed. */
export function setDeploymentRevision(d: KubeObject, rev: string): boolean {
  if (annotations(d)[REVISION_ANNOTATION] === rev) return false;
  setAnnotation(d, REVISION_ANNOTATION, rev);
  return true;
}

/** SetDeploymentAnnotationsTo: the deployment keeps only its skipped annotations plus the replica set's others. */
export function setDeploymentAnnotationsTo(d: KubeObject, rs: KubeObject): void {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations(d))) if (skipCopyAnnotation(k)) out[k] = v;
  for (const [k, v] of Object.entries(annotations(rs))) if (!skipCopyAnnotation(k)) out[k] = v;
  (d.metadata as Record<string, unknown>).annotations = out;
}

// ----- templates --------------------------------------------------------------------------------

function withoutHash(template: KubeObject | undefined): KubeObject {
  const t = structuredClone(template ?? {}) as { metadata?: { labels?: Record<string, string> } };
  if (t.metadata?.labels) delete t.metadata.labels[POD_TEMPLATE_HASH];
  return t as KubeObject;
}

/** EqualIgnoreHash: templates equal apart from the pod-template-hash label. */
export function equalIgnoreHash(a: KubeObject | undefined, b: KubeObject | undefined): boolean {
  return semanticEqual(withoutHash(a), withoutHash(b));
}

/** FindNewReplicaSet: the oldest replica set whose template equals the deployment's. */
export function findNewReplicaSet(d: KubeObject, rss: KubeObject[]): KubeObject | undefined {
  return [...rss].sort(byCreationTimestamp).find((rs) => equalIgnoreHash((rs.spec as { template?: KubeObject })?.template, dSpec(d).template));
}

/** FindOldReplicaSets: [old with pods, all old]. */
export function findOldReplicaSets(d: KubeObject, rss: KubeObject[]): [KubeObject[], KubeObject[]] {
  const newRS = findNewReplicaSet(d, rss);
  const all = rss.filter((rs) => !newRS || meta(rs).uid !== meta(newRS).uid);
  return [all.filter((rs) => specReplicas(rs) !== 0), all];
}

/** SetFromReplicaSetTemplate: the deployment's template becomes the replica set's, without the hash label. */
export function setFromReplicaSetTemplate(d: KubeObject, template: KubeObject | undefined): void {
  (d.spec as DeploymentSpec).template = withoutHash(template);
}

// ----- conditions -------------------------------------------------------------------------------

export function newCondition(type: string, status: string, reason: string, message: string, now: number): DeploymentCondition {
  const t = rfc3339(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getCondition(status: DeploymentStatus, type: string): DeploymentCondition | undefined {
  return (status.conditions ?? []).find((c) => c.type === type);
}

/** SetDeploymentCondition: same status and reason → unchanged; same status keeps lastTransitionTime. */
export function setCondition(status: DeploymentStatus, cond: DeploymentCondition): void {
  const cur = getCondition(status, cond.type);
  if (cur && cur.status === cond.status && cur.reason === cond.reason) return;
  if (cur && cur.status === cond.status) cond.lastTransitionTime = cur.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== cond.type), cond];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}

export function hasProgressDeadline(d: KubeObject): boolean {
  const p = dSpec(d).progressDeadlineSeconds;
  return typeof p === 'number' && p !== MAX_INT32;
}
export function hasRevisionHistoryLimit(d: KubeObject): boolean {
  const l = dSpec(d).revisionHistoryLimit;
  return typeof l === 'number' && l !== MAX_INT32;
}

/** DeploymentComplete. */
export function deploymentComplete(d: KubeObject, st: DeploymentStatus): boolean {
  const r = specReplicas(d);
  return (st.updatedReplicas ?? 0) === r && (st.replicas ?? 0) === r && (st.availableReplicas ?? 0) === r && (st.observedGeneration ?? 0) >= (meta(d).generation ?? 0);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available pods than before. */
export function deploymentProgressing(d: KubeObject, st: DeploymentStatus): boolean {
  const old = dStatus(d);
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (st.replicas ?? 0) - (st.updatedReplicas ?? 0);
  return (st.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld || (st.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (st.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/** DeploymentTimedOut. */
export function deploymentTimedOut(d: KubeObject, st: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(st, 'Progressing');
  if (!c) return false;
  if (c.reason === NEW_RS_AVAILABLE_REASON) return false;
  if (c.reason === TIMED_OUT_REASON) return true;
  const from = timeMs(c.lastUpdateTime);
  return from + (dSpec(d).progressDeadlineSeconds ?? 0) * 1000 < now;
}

/** IsSaturated: the new replica set runs all desired pods, available. */
export function isSaturated(d: KubeObject, rs: KubeObject | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasAnnotation(rs);
  if (desired === undefined) return false;
  const r = specReplicas(d);
  return desired === r && specReplicas(rs) === r && (rsStatusOf(rs).availableReplicas ?? 0) === r;
}

/** NewRSNewReplicas: how far the new replica set may scale up now. */
export function newRSNewReplicas(d: KubeObject, allRSs: RSs, newRS: KubeObject): number {
  if (isRollingUpdate(d)) {
    const surge = scaledValue(rollingParams(d).maxSurge ?? 0, specReplicas(d), true);
    const current = replicaCount(allRSs);
    const maxTotal = specReplicas(d) + surge;
    if (current >= maxTotal) return specReplicas(newRS);
    const up = Math.min(maxTotal - current, specReplicas(d) - specReplicas(newRS));
    return specReplicas(newRS) + up;
  }
  return specReplicas(d);
}

/** Go's math.Round (half away from zero). */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function replicaSetFraction(rs: KubeObject, d: KubeObject): number {
  if (specReplicas(d) === 0) return -specReplicas(rs);
  const deploymentMax = specReplicas(d) + maxSurge(d);
  let before = maxReplicasAnnotation(rs);
  if (before === undefined || before === 0) {
    before = dStatus(d).replicas ?? 0;
    if (before === 0) return 0;
  }
  return roundHalfAway((specReplicas(rs) * deploymentMax) / before) - specReplicas(rs);
}

/** GetProportion. */
export function getProportion(rs: KubeObject | undefined, d: KubeObject, toAdd: number, added: number): number {
  if (!rs || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** FindActiveOrLatest. */
export function findActiveOrLatest(newRS: KubeObject | undefined, oldRSs: KubeObject[]): KubeObject | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const sortedOld = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = filterActiveReplicaSets([...sortedOld, newRS]);
  if (active.length === 0) return newRS ?? sortedOld[0];
  if (active.length === 1) return active[0];
  return undefined;
}
