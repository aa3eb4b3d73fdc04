// A Deployment's spec and status as the controller reads them, with the API's defaults: the
// rolling-update fenceposts (maxSurge and maxUnavailable resolved against the replicas), and
// whether a progress deadline and a revision history limit are set.
import type { Deployment, DeploymentSpec, DeploymentStatus, ReplicaSet, RollingUpdateDeployment } from '../../api/types.js';
import type { KubeObject } from '../../client/types.js';
import { specReplicas } from '../replicaset/spec.js';

/** Go's math.MaxInt32: the value meaning "no limit" for progressDeadlineSeconds and revisionHistoryLimit. */
const MAX_INT32 = 2147483647;

export type IntOrString = number | string;

// Informers and the API hand objects over as JSON the API server validated against the schema
// api/types.ts is derived from: these are the one place that JSON becomes typed.
export const asDeployment = (o: KubeObject): Deployment => o as Deployment;
export const asReplicaSet = (o: KubeObject): ReplicaSet => o as ReplicaSet;

export const dSpec = (d: Deployment): DeploymentSpec => d.spec ?? {};
export const dStatus = (d: Deployment): DeploymentStatus => d.status ?? {};

/** intstr.GetScaledValueFromIntOrPercent. Throws for a string that is not a percentage. */
export function scaledValue(v: IntOrString | undefined | null, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const n = Number.parseInt(v.slice(0, -1), 10);
  if (!/^-?\d+$/.test(v.slice(0, -1)) || Number.isNaN(n)) throw new Error(`invalid value for IntOrString: invalid value "${v}"`);
  return roundUp ? Math.ceil((n * total) / 100) : Math.floor((n * total) / 100);
}

export function isRollingUpdate(d: Deployment): boolean {
  return (dSpec(d).strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** ResolveFenceposts: surge rounds up, unavailable down; both 0 → unavailable 1. */
export function resolveFenceposts(maxSurge: IntOrString | undefined | null, maxUnavailable: IntOrString | undefined | null, desired: number): [number, number] {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

export function rollingParams(d: Deployment): RollingUpdateDeployment {
  return dSpec(d).strategy?.rollingUpdate ?? { maxSurge: '25%', maxUnavailable: '25%' };
}

export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const p = rollingParams(d);
  return resolveFenceposts(p.maxSurge, p.maxUnavailable, specReplicas(d))[0];
}

export function maxUnavailable(d: Deployment): number {
  const replicas = specReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const p = rollingParams(d);
  const u = resolveFenceposts(p.maxSurge, p.maxUnavailable, replicas)[1];
  return Math.min(u, replicas);
}

export function hasProgressDeadline(d: Deployment): boolean {
  const p = dSpec(d).progressDeadlineSeconds;
  return typeof p === 'number' && p !== MAX_INT32;
}
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = dSpec(d).revisionHistoryLimit;
  return typeof l === 'number' && l !== MAX_INT32;
}
