// The PriorityClasses every Kubernetes cluster has (pkg/apis/scheduling SystemPriorityClasses): the
// API server creates them at start, validation reserves the `system-` prefix for them, and they
// cannot be deleted.
import type { PriorityClass } from '../../../api/types.js';

export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** The highest value a class not named `system-...` may have (scheduling.HighestUserDefinablePriority). */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2_000_000_000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** IsKnownSystemPriorityClass: whether name, value and globalDefault are those of a system class, and why not. */
export function knownSystemPriorityClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const spc = SYSTEM_PRIORITY_CLASSES.find((c) => c.metadata?.name === name);
  if (!spc) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${name} PriorityClass must be ${spc.value}`;
  if ((spc.globalDefault ?? false) !== globalDefault) return `globalDefault of ${name} PriorityClass must be ${spc.globalDefault ?? false}`;
  return undefined;
}

export function isSystemPriorityClassName(name: string): boolean {
  return SYSTEM_PRIORITY_CLASSES.some((c) => c.metadata?.name === name);
}
