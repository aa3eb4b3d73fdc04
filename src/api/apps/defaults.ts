// Server-side defaults of the apps kinds, per version (Kubernetes' pkg/apis/apps/<version>
// SetDefaults_* followed by the pod template's defaults, as SetObjectDefaults_<Kind> runs them).
// The versions differ; the differences are parameters of one defaulter per kind:
//
// | | apps/v1, apps/v1beta2 | apps/v1beta1 | extensions/v1beta1 (../extensions/defaults.ts) |
// |---|---|---|---|
// | selector, metadata.labels from template labels | no | yes | yes |
// | Deployment maxUnavailable / maxSurge | 25% / 25% | 25% / 25% | 1 / 1 |
// | Deployment revisionHistoryLimit | 10 | 2 | MaxInt32 |
// | Deployment progressDeadlineSeconds | 600 | 600 | MaxInt32 |
// | DaemonSet updateStrategy.type | RollingUpdate (1 / 0) | - | OnDelete |
// | StatefulSet updateStrategy.type | RollingUpdate (partition 0) | OnDelete | - |
import { defaultPersistentVolumeClaimSpec, defaultPodTemplateSpec } from '../core/v1/defaults.js';
import type { KubeObject } from '../schema/kind.js';
import { KUBERNETES_1_34, type WorkloadFeatures } from '../features.js';
import { child, defaultSelectorAndLabelsFromTemplate, isObj, objects, orDefault, unset, type Obj } from '../go-json.js';

export type Defaulter = (obj: KubeObject, features?: WorkloadFeatures) => void;

/** The pod template is a non-pointer struct in every workload: it is always defaulted. */
function defaultTemplate(spec: Obj): void {
  defaultPodTemplateSpec(child(spec, 'template'));
}

export interface DeploymentDefaults {
  selectorFromTemplate: boolean;
  maxUnavailable: number | string;
  maxSurge: number | string;
  revisionHistoryLimit: number;
  progressDeadlineSeconds: number;
  /** extensions/v1beta1 also fills rollingUpdate when it is set with another strategy type. */
  rollingUpdateWhenSet: boolean;
}

export function deploymentDefaulter(d: DeploymentDefaults): Defaulter {
  return (obj) => {
    const spec = child(obj, 'spec');
    if (d.selectorFromTemplate) defaultSelectorAndLabelsFromTemplate(obj, spec);
    orDefault(spec, 'replicas', 1);
    const strategy = child(spec, 'strategy');
    if (unset(strategy.type)) strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate' || (d.rollingUpdateWhenSet && isObj(strategy.rollingUpdate))) {
      const ru = child(strategy, 'rollingUpdate');
      orDefault(ru, 'maxUnavailable', d.maxUnavailable);
      orDefault(ru, 'maxSurge', d.maxSurge);
    }
    orDefault(spec, 'revisionHistoryLimit', d.revisionHistoryLimit);
    orDefault(spec, 'progressDeadlineSeconds', d.progressDeadlineSeconds);
    defaultTemplate(spec);
  };
}

export interface DaemonSetDefaults {
  selectorFromTemplate: boolean;
  updateStrategyType: 'RollingUpdate' | 'OnDelete';
}

export function daemonSetDefaulter(d: DaemonSetDefaults): Defaulter {
  return (obj) => {
    const spec = child(obj, 'spec');
    if (d.selectorFromTemplate) defaultSelectorAndLabelsFromTemplate(obj, spec);
    const strategy = child(spec, 'updateStrategy');
    if (unset(strategy.type)) strategy.type = d.updateStrategyType;
    if (strategy.type === 'RollingUpdate') {
      const ru = child(strategy, 'rollingUpdate');
      orDefault(ru, 'maxUnavailable', 1);
      orDefault(ru, 'maxSurge', 0);
    }
    orDefault(spec, 'revisionHistoryLimit', 10);
    defaultTemplate(spec);
  };
}

export interface StatefulSetDefaults {
  selectorFromTemplate: boolean;
  /** apps/v1beta1 defaults to OnDelete (without rollingUpdate); later versions to RollingUpdate with an empty rollingUpdate. */
  updateStrategyType: 'RollingUpdate' | 'OnDelete';
}

export function statefulSetDefaulter(d: StatefulSetDefaults): Defaulter {
  return (obj, features = KUBERNETES_1_34) => {
    const spec = child(obj, 'spec');
    if (unset(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
    const strategy = child(spec, 'updateStrategy');
    if (unset(strategy.type)) {
      strategy.type = d.updateStrategyType;
      if (d.updateStrategyType === 'RollingUpdate') orDefault(strategy, 'rollingUpdate', {});
    }
    if (d.selectorFromTemplate) defaultSelectorAndLabelsFromTemplate(obj, spec);
    if (strategy.type === 'RollingUpdate' && isObj(strategy.rollingUpdate)) {
      orDefault(strategy.rollingUpdate, 'partition', 0);
      if (features.maxUnavailableStatefulSet) orDefault(strategy.rollingUpdate, 'maxUnavailable', 1);
    }
    if (features.statefulSetAutoDeletePVC) {
      const policy = child(spec, 'persistentVolumeClaimRetentionPolicy');
      if (unset(policy.whenDeleted)) policy.whenDeleted = 'Retain';
      if (unset(policy.whenScaled)) policy.whenScaled = 'Retain';
    }
    orDefault(spec, 'replicas', 1);
    orDefault(spec, 'revisionHistoryLimit', 10);
    defaultTemplate(spec);
    for (const claim of objects(spec, 'volumeClaimTemplates')) defaultClaimTemplate(claim);
  };
}

/**
 * A volume claim template: the PersistentVolumeClaim defaults (SetDefaults_PersistentVolumeClaim:
 * status.phase Pending; the spec's: volumeMode Filesystem, resource lists), and the kind/apiVersion that every Kubernetes version writes into
 * each template when converting from its internal form (kubernetes#87583).
 */
export function defaultClaimTemplate(claim: Obj): void {
  claim.kind = 'PersistentVolumeClaim';
  claim.apiVersion = 'v1';
  defaultPersistentVolumeClaimSpec(child(claim, 'spec'));
  const status = child(claim, 'status');
  if (unset(status.phase)) status.phase = 'Pending';
}

export function replicaSetDefaulter(d: { selectorFromTemplate: boolean }): Defaulter {
  return (obj) => {
    const spec = child(obj, 'spec');
    if (d.selectorFromTemplate) defaultSelectorAndLabelsFromTemplate(obj, spec);
    orDefault(spec, 'replicas', 1);
    defaultTemplate(spec);
  };
}

/** apps/v1 (and apps/v1beta2, which defaults identically). */
export const appsV1Defaults = {
  deployment: deploymentDefaulter({
    selectorFromTemplate: false,
    maxUnavailable: '25%',
    maxSurge: '25%',
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
    rollingUpdateWhenSet: false,
  }),
  daemonSet: daemonSetDefaulter({ selectorFromTemplate: false, updateStrategyType: 'RollingUpdate' }),
  statefulSet: statefulSetDefaulter({ selectorFromTemplate: false, updateStrategyType: 'RollingUpdate' }),
  replicaSet: replicaSetDefaulter({ selectorFromTemplate: false }),
} as const;

export const appsV1beta2Defaults = appsV1Defaults;

export const appsV1beta1Defaults = {
  deployment: deploymentDefaulter({
    selectorFromTemplate: true,
    maxUnavailable: '25%',
    maxSurge: '25%',
    revisionHistoryLimit: 2,
    progressDeadlineSeconds: 600,
    rollingUpdateWhenSet: false,
  }),
  statefulSet: statefulSetDefaulter({ selectorFromTemplate: true, updateStrategyType: 'OnDelete' }),
} as const;
