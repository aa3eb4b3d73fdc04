// flowcontrol.apiserver.k8s.io/v1: FlowSchema and PriorityLevelConfiguration (cluster-scoped, with
// a status subresource), with Kubernetes' defaults (pkg/apis/flowcontrol/v1/defaults.go).
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.k8s.io';

export const FlowSchemaDefaultMatchingPrecedence = 1000;
export const DefaultNominalConcurrencyShares = 30;
export const DefaultQueues = 64;
export const DefaultHandSize = 8;
export const DefaultQueueLengthLimit = 50;

const isObj = (v: unknown): v is KubeObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** SetDefaults_FlowSchemaSpec: matchingPrecedence 0 → 1000. */
export function defaultFlowSchema(obj: KubeObject): void {
  if (!isObj(obj.spec)) obj.spec = {};
  const spec = obj.spec as KubeObject;
  if (spec.matchingPrecedence === undefined || spec.matchingPrecedence === 0) spec.matchingPrecedence = FlowSchemaDefaultMatchingPrecedence;
}

/**
 * SetDefaults_LimitedPriorityLevelConfiguration, SetDefaults_ExemptPriorityLevelConfiguration and
 * SetDefaults_QueuingConfiguration, applied wherever those structs are present.
 */
export function defaultPriorityLevelConfiguration(obj: KubeObject): void {
  const spec = isObj(obj.spec) ? obj.spec : undefined;
  if (!spec) return;
  if (isObj(spec.exempt)) {
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
  if (isObj(spec.limited)) {
    const limited = spec.limited;
    // A pointer in v1 so that an explicit 0 (no seats of its own, only borrowed ones) stays 0.
    limited.nominalConcurrencyShares ??= DefaultNominalConcurrencyShares;
    limited.lendablePercent ??= 0;
    const response = isObj(limited.limitResponse) ? limited.limitResponse : undefined;
    if (response && isObj(response.queuing)) {
      const q = response.queuing;
      if (!q.handSize) q.handSize = DefaultHandSize;
      if (!q.queues) q.queues = DefaultQueues;
      if (!q.queueLengthLimit) q.queueLengthLimit = DefaultQueueLengthLimit;
    }
  }
}

export const flowcontrolKinds: readonly KindVersion[] = [
  { group: FLOWCONTROL_GROUP, version: 'v1', kind: 'FlowSchema', resource: 'flowschemas', singular: 'flowschema', namespaced: false, type: v1.FlowSchema, list: v1.FlowSchemaList, storage: true, defaults: defaultFlowSchema, subresources: { status: true } },
  { group: FLOWCONTROL_GROUP, version: 'v1', kind: 'PriorityLevelConfiguration', resource: 'prioritylevelconfigurations', singular: 'prioritylevelconfiguration', namespaced: false, type: v1.PriorityLevelConfiguration, list: v1.PriorityLevelConfigurationList, storage: true, defaults: defaultPriorityLevelConfiguration, subresources: { status: true } },
];
