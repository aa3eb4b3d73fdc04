// Server-side defaults of extensions/v1beta1's workload kinds (Kubernetes'
// pkg/apis/extensions/v1beta1 SetDefaults_*): selectors and labels come from the template labels,
// Deployment rolls 1 / 1 and keeps every revision with no progress deadline (MaxInt32), DaemonSet
// updates OnDelete. See ../apps/defaults.ts for the other versions.
import { daemonSetDefaulter, deploymentDefaulter, replicaSetDefaulter } from '../apps/defaults.js';

const MAX_INT32 = 2147483647;

export const extensionsV1beta1Defaults = {
  deployment: deploymentDefaulter({
    selectorFromTemplate: true,
    maxUnavailable: 1,
    maxSurge: 1,
    revisionHistoryLimit: MAX_INT32,
    progressDeadlineSeconds: MAX_INT32,
    rollingUpdateWhenSet: true,
  }),
  daemonSet: daemonSetDefaulter({ selectorFromTemplate: true, updateStrategyType: 'OnDelete' }),
  replicaSet: replicaSetDefaulter({ selectorFromTemplate: true }),
} as const;
