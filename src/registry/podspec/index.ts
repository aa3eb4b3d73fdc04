// Pod spec validation, as the Pod strategy, the workloads' pod templates and the Node strategy
// use it. The folder follows the schema's own split (api/core/v1: container, volume, probe,
// affinity, security, pod); pod-spec.ts holds the PodSpec-level checks and the entry points.
// diff/ renders the go-cmp diff Kubernetes appends when it refuses a pod update.
export type { PodValidationOptions } from './options.js';
export { validatePodCreate, validatePodMetadataAndSpec, validatePodTemplateSpec } from './pod-spec.js';
export { validatePodSpecificAnnotations } from './annotations.js';
export { validateEphemeralContainers } from './containers.js';
export { validateVolumes } from './volumes.js';
export { validateTaintEffect, validateTolerations } from './affinity.js';
export { resourceEntries, validateResourceQuantityValue } from './resource-names.js';
export { ephemeralContainerDiff, podSpecDiff } from './diff/pod-spec-diff.js';
