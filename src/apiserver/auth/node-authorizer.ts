// --authorization-mode=Node: what a node (user `system:node:<name>` in group `system:nodes`) may do,
// after Kubernetes' node authorizer. Kubernetes decides the object reads of a node on a graph of
// pods and what they reference; kubelite's simulated nodes read no secrets or volumes, so this
// keeps the rules that matter for them:
// - nodes: read all; create (the name is checked by admission in Kubernetes); update/patch, also of
//   the status, only of its own Node;
// - leases: only in kube-node-lease and only the lease named after the node (create: any name);
// - pods/status: update/patch only of pods bound to the node (spec.nodeName, from the watch cache);
// - everything else the `system:node` ClusterRole's rules allow (pods get/list/watch/create/delete,
//   events create/patch/update, services get/list/watch, ...), as Kubernetes' authorizer embeds them.
// Left out (so not allowed to nodes here): secrets, configmaps, persistent volume (claims),
// resource claims, volume attachments and service account tokens, which Kubernetes allows only
// for objects its graph links to the node's pods.
import { nodeRules } from './rbac/bootstrap-policy.js';
import { rulesAllow } from './rbac/rules.js';
import type { Attributes, Authorizer, Decision, UserInfo } from './types.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

type Result = { decision: Decision; reason: string };

/** The node a user is, or undefined (Kubernetes' NodeIdentity: the prefix and the group). */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}

export interface PodLookup {
  /** spec.nodeName of a pod, '' if unscheduled, undefined if absent. */
  nodeNameOf(namespace: string, name: string): string | undefined;
}

const allow: Result = Object.freeze({ decision: 'allow', reason: '' });
const noOpinion = (reason: string): Result => ({ decision: 'no-opinion', reason });
const RULES = nodeRules();

export class NodeAuthorizer implements Authorizer {
  constructor(private readonly pods: PodLookup) {}

  authorize(attrs: Attributes): Result {
    const node = nodeIdentity(attrs.user);
    if (node === undefined) return noOpinion('');
    if (node === '') return noOpinion('unknown node');
    if (attrs.resourceRequest && attrs.apiGroup === '' && attrs.resource === 'nodes') return this.nodes(node, attrs);
    if (attrs.resourceRequest && attrs.apiGroup === 'coordination.k8s.io' && attrs.resource === 'leases') return this.lease(node, attrs);
    if (attrs.resourceRequest && attrs.apiGroup === '' && attrs.resource === 'pods' && attrs.subresource === 'status') return this.podStatus(node, attrs);
    if (attrs.resourceRequest && attrs.apiGroup === '' && ['secrets', 'configmaps', 'persistentvolumeclaims', 'persistentvolumes'].includes(attrs.resource)) {
      return noOpinion(`no relationship found between node '${node}' and this object`);
    }
    return rulesAllow(attrs, RULES) ? allow : noOpinion('');
  }

  private nodes(node: string, attrs: Attributes): Result {
    if (attrs.subresource === '' && ['get', 'list', 'watch', 'create'].includes(attrs.verb)) return allow;
    if ((attrs.subresource === '' || attrs.subresource === 'status') && (attrs.verb === 'update' || attrs.verb === 'patch')) {
      return attrs.name === node ? allow : noOpinion(`node '${node}' cannot modify node '${attrs.name}'`);
    }
    return noOpinion('');
  }

  private lease(node: string, attrs: Attributes): Result {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (attrs.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    if (attrs.verb !== 'create' && attrs.name !== node) return noOpinion('can only access node lease with the same name as the requesting node');
    return allow;
  }

  private podStatus(node: string, attrs: Attributes): Result {
    if (attrs.verb === 'get') return allow;
    if (attrs.verb !== 'update' && attrs.verb !== 'patch') return noOpinion('');
    const boundTo = this.pods.nodeNameOf(attrs.namespace, attrs.name);
    return boundTo === node ? allow : noOpinion(`node '${node}' can only update the status of pods bound to it`);
  }
}
