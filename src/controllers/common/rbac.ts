// Building the RBAC rules of a controller's role as Kubernetes' bootstrap policy writes them
// (rbacv1helpers.NewRule(verbs...).Groups(...).Resources(...)), so the role reads the same.
import type { PolicyRule } from '../../api/types.js';

const words = (s: string): string[] => s.split(' ').filter((w) => w !== '');

/** A resource rule: API groups, space-separated resources and verbs. */
export function rule(apiGroups: readonly string[], resources: string, verbs: string): PolicyRule {
  return { verbs: words(verbs), apiGroups: [...apiGroups], resources: words(resources) };
}

/** The core API group. */
export const CORE: readonly string[] = [''];
export const READ = 'get list watch';
/** Every controller that records events (eventsRule() in Kubernetes' controller policy). */
export const EVENTS_RULE: PolicyRule = rule(['', 'events.k8s.io'], 'events', 'create patch update');
/** Controllers that create and delete pods. */
export const PODS_WRITE_RULE: PolicyRule = rule(CORE, 'pods', 'create delete list patch watch');
