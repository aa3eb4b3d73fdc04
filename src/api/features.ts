// The feature gates and release differences that change how the workload kinds are defaulted.
// Defaults functions take a `WorkloadFeatures` (default: KUBERNETES_1_34, what kubelite serves);
// tests pass KUBERNETES_1_26 to compare with the golden vectors recorded from v1.26.1.

export interface WorkloadFeatures {
  /**
   * StatefulSetAutoDeletePVC (alpha 1.23, beta and on 1.27, GA 1.32): spec.persistentVolumeClaimRetentionPolicy
   * defaults to Retain/Retain. Off, the field is not defaulted (and Kubernetes drops it on write).
   */
  readonly statefulSetAutoDeletePVC: boolean;
  /** MaxUnavailableStatefulSet (alpha, off through 1.34): rollingUpdate.maxUnavailable defaults to 1. */
  readonly maxUnavailableStatefulSet: boolean;
  /** JobPodReplacementPolicy (beta and on 1.29, GA 1.34): Job spec.podReplacementPolicy is defaulted. */
  readonly jobPodReplacementPolicy: boolean;
  /** Job spec.manualSelector defaults to false (current releases; v1.26 left it unset). */
  readonly jobManualSelectorDefault: boolean;
}

export const KUBERNETES_1_34: WorkloadFeatures = Object.freeze({
  statefulSetAutoDeletePVC: true,
  maxUnavailableStatefulSet: false,
  jobPodReplacementPolicy: true,
  jobManualSelectorDefault: true,
});

/** The behaviour of the v1.26.1 server the golden vectors were recorded from (see testdata/README.md). */
export const KUBERNETES_1_26: WorkloadFeatures = Object.freeze({
  statefulSetAutoDeletePVC: false,
  maxUnavailableStatefulSet: false,
  jobPodReplacementPolicy: false,
  jobManualSelectorDefault: false,
});
