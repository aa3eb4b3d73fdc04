// A Deployment's replica sets (deploymentutil): replica counts over them, their orderings, which
// is the new one and which are old, and how many replicas each gets when the Deployment scales
// (the new one's surge, proportional scaling).
import { creationTimestampOf, nameOf, uidOf } from '../../api/meta/object.js';
import type { Deployment, ReplicaSet, ReplicaSetStatus } from '../../api/types.js';
import { timeMs } from '../common/time.js';
import { specReplicas } from '../replicaset/spec.js';
import { desiredReplicasAnnotation, maxReplicasAnnotation, present, revision, type RSs } from './revisions.js';
import { dSpec, dStatus, isRollingUpdate, maxSurge, rollingParams, scaledValue } from './spec.js';
import { equalIgnoreHash } from './templates.js';

const rsStatusOf = (rs: ReplicaSet): ReplicaSetStatus => rs.status ?? {};

export const replicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + specReplicas(rs), 0);
export const actualReplicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + (rsStatusOf(rs).replicas ?? 0), 0);
export const readyReplicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + (rsStatusOf(rs).readyReplicas ?? 0), 0);
export const availableReplicaCount = (rss: RSs): number => present(rss).reduce((n, rs) => n + (rsStatusOf(rs).availableReplicas ?? 0), 0);
export const filterActiveReplicaSets = (rss: RSs): ReplicaSet[] => present(rss).filter((rs) => specReplicas(rs) > 0);

/** controller.ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
  const ta = timeMs(creationTimestampOf(a));
  const tb = timeMs(creationTimestampOf(b));
  if (ta === tb) return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
  return ta - tb;
}
/** ReplicaSetsBySizeNewer: larger first, then newer first. */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(b, a);
}
/** ReplicaSetsBySizeOlder: larger first, then older first. */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(a, b);
}
/** ReplicaSetsByRevision: lower revision first, then older first. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revision(a);
  const rb = revision(b);
  if (ra === rb) return byCreationTimestamp(a, b);
  return ra - rb;
}

/** FindNewReplicaSet: the oldest replica set whose template equals the deployment's. */
export function findNewReplicaSet(d: Deployment, rss: ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec?.template, dSpec(d).template));
}

/** FindOldReplicaSets: [old with pods, all old]. */
export function findOldReplicaSets(d: Deployment, rss: ReplicaSet[]): [ReplicaSet[], ReplicaSet[]] {
  const newRS = findNewReplicaSet(d, rss);
  const all = rss.filter((rs) => !newRS || uidOf(rs) !== uidOf(newRS));
  return [all.filter((rs) => specReplicas(rs) !== 0), all];
}

/** IsSaturated: the new replica set runs all desired pods, available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasAnnotation(rs);
  if (desired === undefined) return false;
  const r = specReplicas(d);
  return desired === r && specReplicas(rs) === r && (rsStatusOf(rs).availableReplicas ?? 0) === r;
}

/** NewRSNewReplicas: how far the new replica set may scale up now. */
export function newRSNewReplicas(d: Deployment, allRSs: RSs, newRS: ReplicaSet): number {
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

function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
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
export function getProportion(rs: ReplicaSet | undefined, d: Deployment, toAdd: number, added: number): number {
  if (!rs || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** FindActiveOrLatest. */
export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const sortedOld = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = filterActiveReplicaSets([...sortedOld, newRS]);
  if (active.length === 0) return newRS ?? sortedOld[0];
  if (active.length === 1) return active[0];
  return undefined;
}
