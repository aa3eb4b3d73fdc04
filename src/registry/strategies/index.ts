// The strategy of every served kind, by its storage group and resource, plus the strategies of the
// subresources that replace part of an object (namespaces/finalize, pods/ephemeralcontainers).
import type { ResourceStrategy } from '../strategy.js';
import { configMapStrategy } from './configmap.js';
import { controllerRevisionStrategy } from './controllerrevision.js';
import { endpointsStrategy } from './endpoints.js';
import { eventStrategy } from './event.js';
import { cronJobStrategy, jobStrategy } from './job.js';
import { leaseStrategy } from './lease.js';
import { namespaceFinalizeStrategy, namespaceStrategy } from './namespace.js';
import { nodeStrategy } from './node.js';
import { replicationControllerStrategy } from './replicationcontroller.js';
import { clusterRoleBindingStrategy, clusterRoleStrategy, roleBindingStrategy, roleStrategy } from './rbac.js';
import { podEphemeralContainersStrategy, podResizeStrategy, podStrategy } from './pod.js';
import { secretStrategy } from './secret.js';
import { serviceStrategy } from './service.js';
import { serviceAccountStrategy } from './serviceaccount.js';
import { daemonSetStrategy, deploymentStrategy, replicaSetStrategy, statefulSetStrategy } from './workloads.js';

const strategies: Record<string, ResourceStrategy> = {
  '/pods': podStrategy,
  '/namespaces': namespaceStrategy,
  '/nodes': nodeStrategy,
  '/events': eventStrategy,
  '/configmaps': configMapStrategy,
  '/endpoints': endpointsStrategy,
  '/services': serviceStrategy,
  '/serviceaccounts': serviceAccountStrategy,
  '/secrets': secretStrategy,
  '/replicationcontrollers': replicationControllerStrategy,
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/controllerrevisions': controllerRevisionStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'coordination.k8s.io/leases': leaseStrategy,
  'rbac.authorization.k8s.io/roles': roleStrategy,
  'rbac.authorization.k8s.io/clusterroles': clusterRoleStrategy,
  'rbac.authorization.k8s.io/rolebindings': roleBindingStrategy,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingStrategy,
};

/**
 * The strategy of a kind, by the group and resource of its storage version (`apps`,
 * `deployments`). Throws for a resource kubelite does not serve.
 */
export function strategyFor(group: string, resource: string): ResourceStrategy {
  const s = strategies[`${group}/${resource}`];
  if (!s) throw new Error(`no strategy for ${group === '' ? 'core' : group}/${resource}`);
  return s;
}

/** Whether a strategy exists (for callers that fall back to a generic one). */
export function hasStrategy(group: string, resource: string): boolean {
  return `${group}/${resource}` in strategies;
}

/**
 * The strategy of a subresource whose PUT replaces only part of the object: `finalize` of
 * namespaces (spec.finalizers), `ephemeralcontainers` of pods (spec.ephemeralContainers) and
 * `resize` of pods (the containers' resources and resize policies).
 * `status` is not one of these: the store handles it with the main strategy's status functions.
 */
const podBindingStrategy: ResourceStrategy = { ...podStrategy, hasStatus: false, prepareForUpdate: undefined, validateUpdate: () => [] };

export function subresourceStrategyFor(group: string, resource: string, subresource: string): ResourceStrategy | undefined {
  if (group === '' && resource === 'namespaces' && subresource === 'finalize') return namespaceFinalizeStrategy;
  if (group === '' && resource === 'pods' && subresource === 'ephemeralcontainers') return podEphemeralContainersStrategy;
  if (group === '' && resource === 'pods' && subresource === 'resize') return podResizeStrategy;
  // pods/binding writes spec.nodeName, annotations and the PodScheduled condition directly, as
  // Kubernetes' binding REST does: not through the pod update rules that forbid those changes.
  if (group === '' && resource === 'pods' && subresource === 'binding') return podBindingStrategy;
  return undefined;
}

export { needsClusterIP, needsHealthCheckNodePort, needsNodePort } from './service.js';
export { podGracePeriodSeconds, computePodQOS, validateBinding } from './pod.js';
export { validateScale } from './workloads.js';

/** The default grace period of a pod delete (CheckGracefulDelete without gracePeriodSeconds). */
export function defaultGracePeriodSeconds(pod: Record<string, unknown>): number {
  return podStrategy.defaultGracePeriodSeconds!(pod) ?? 0;
}
