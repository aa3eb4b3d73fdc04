// The options ValidatePodSpec takes from its caller: whether the spec is a real pod's, and what
// an update may keep because the old object already had it.
export interface PodValidationOptions {
  /** The PodSpec is a Pod's (not a template's): hostPort must equal containerPort with host networking, image volumes need a reference. */
  resourceIsPod?: boolean;
  /** Tolerate an invalid pod-deletion-cost annotation (when the old object already had one). */
  allowInvalidPodDeletionCost?: boolean;
  /** Tolerate invalid label values in pod (anti-)affinity selectors (when the old object already had them). */
  allowInvalidLabelValueInSelector?: boolean;
}
