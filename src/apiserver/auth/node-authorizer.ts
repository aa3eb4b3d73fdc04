// --authorization-mode=Node: what a node (user `system:node:<name>` in group `system:nodes`) may do,
// after Kubernetes' node authorizer:
// - secrets and config maps: get/list/watch of one named object, persistent volume claims: get
//   (and update/patch of their status), service accounts: create of a `token` — each only while a
//   pod bound to the node references the object (the graph, node-graph.ts); persistent volumes
//   are reached through claims bound to them, which kubelite does not serve, so never;
// - nodes: read all; create (the name is checked by admission in Kubernetes); update/patch, also of
//   the status, only of its own Node;
// - leases: only in kube-node-lease and only the lease named after the node (create: any name);
// - pods/status: update/patch only of pods bound to the node (spec.nodeName, from the watch cache);
// - everything else the `system:node` ClusterRole's rules allow (pods get/list/watch/create/delete,
//   events create/patch/update, services get/list/watch, ...), as Kubernetes' authorizer embeds them.
// The decisions' reasons are Kubernetes' words.
import { nodeRules } from './rbac/bootstrap-policy.js';
import { rulesAllow } from './rbac/rules.js';
import type { RelatedResource } from './node-graph.js';
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

/** The graph: whether a pod bound to the node references the object. */
export interface Relationships {
  related(node: string, resource: RelatedResource, namespace: string, name: string): boolean;
}

const allow: Result = Object.freeze({ decision: 'allow', reason: '' });
const noOpinion = (reason: string): Result => ({ decision: 'no-opinion', reason });
const RULES = nodeRules();

export class NodeAuthorizer implements Authorizer {
  constructor(
    private readonly pods: PodLookup,
    private readonly graph: Relationships,
  ) {}

  authorize(attrs: Attributes): Result {
    const node = nodeIdentity(attrs.user);
    if (node === undefined) return noOpinion('');
    if (node === '') return noOpinion('unknown node');
    if (attrs.resourceRequest && attrs.apiGroup === '' && attrs.resource === 'nodes') return this.nodes(node, attrs);
    if (attrs.resourceRequest && attrs.apiGroup === 'coordination.k8s.io' && attrs.resource === 'leases') return this.lease(node, attrs);
    if (attrs.resourceRequest && attrs.apiGroup === '' && attrs.resource === 'pods' && attrs.subresource === 'status') return this.podStatus(node, attrs);
    if (attrs.resourceRequest && attrs.apiGroup === '') {
      switch (attrs.resource) {
        case 'secrets':
        case 'configmaps':
          return this.readNamespacedObject(node, attrs.resource, attrs);
        case 'persistentvolumeclaims':
          return attrs.subresource === 'status' ? this.statusUpdate(node, attrs) : this.get(node, 'persistentvolumeclaims', attrs);
        case 'persistentvolumes':
          return this.get(node, undefined, attrs);
        case 'serviceaccounts':
          return this.createToken(node, attrs);
      }
    }
    return rulesAllow(attrs, RULES) ? allow : noOpinion('');
  }

  /** The graph's answer for a named object (`resource` undefined: a kind no path reaches). */
  private related(node: string, resource: RelatedResource | undefined, attrs: Attributes): Result {
    if (attrs.name === '') return noOpinion('No Object name found');
    if (resource !== undefined && this.graph.related(node, resource, attrs.namespace, attrs.name)) return allow;
    return noOpinion(`no relationship found between node '${node}' and this object`);
  }

  private readNamespacedObject(node: string, resource: 'secrets' | 'configmaps', attrs: Attributes): Result {
    if (!['get', 'list', 'watch'].includes(attrs.verb)) return noOpinion('can only read resources of this type');
    if (attrs.subresource !== '') return noOpinion('cannot read subresource');
    if (attrs.namespace === '') return noOpinion('can only read namespaced object of this type');
    return this.related(node, resource, attrs);
  }

  private get(node: string, resource: RelatedResource | undefined, attrs: Attributes): Result {
    if (attrs.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (attrs.subresource !== '') return noOpinion('cannot get subresource');
    return this.related(node, resource, attrs);
  }

  private statusUpdate(node: string, attrs: Attributes): Result {
    if (attrs.verb !== 'update' && attrs.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    return this.related(node, 'persistentvolumeclaims', attrs);
  }

  private createToken(node: string, attrs: Attributes): Result {
    if (attrs.verb !== 'create' || attrs.name === '') return noOpinion('can only create tokens for individual service accounts');
    if (attrs.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.related(node, 'serviceaccounts', attrs);
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
