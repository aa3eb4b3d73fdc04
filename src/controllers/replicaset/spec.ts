// A ReplicaSet's spec and status as the controller reads them, with the API's defaults.
import type { KubeObject } from '../../client/types.js';

export interface RSSpec {
  replicas?: number;
  minReadySeconds?: number;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: unknown };
}
export interface RSCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}
export interface RSStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: RSCondition[];
}

export function rsSpec(rs: KubeObject): RSSpec {
  return (rs.spec ?? {}) as RSSpec;
}
export function rsStatus(rs: KubeObject): RSStatus {
  return (rs.status ?? {}) as RSStatus;
}
/** spec.replicas with its default of 1. */
export function specReplicas(obj: KubeObject): number {
  const r = (obj.spec as { replicas?: number } | undefined)?.replicas;
  return typeof r === 'number' ? r : 1;
}
