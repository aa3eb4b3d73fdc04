// --authorization-mode=Node: what a node (user `system:node:<name>` in group `system:nodes`) may do,
// after Kubernetes' node authorizer:
// - secrets and config maps: get/list/watch of one named object, persistent volume claims: get
//   (and update/patch of their status), service accounts: create of a `token` — each only while a
//   pod bound to the node references the object (the graph, node-graph.ts); persistent volumes
//   are reached through claims bound to them, which kubelite does not serve, so never;
// - nodes and pods as with Kubernetes' AuthorizeNodeWithSelectors (beta and on since 1.32): a node
//   reads only its own Node (get/list/watch by name, also by a metadata.name field selector) and
//   only the pods bound to it (get by name; list/watch with the field selector
//   spec.nodeName=<itself>); it may create, update and patch Nodes and their status, create and
//   delete pods, write pods' status and evict pods — NodeRestriction admission then holds those
//   writes to itself and its pods;
// - leases: only in kube-node-lease and only the lease named after the node (create: any name);
// - everything else the `system:node` ClusterRole's rules allow (events create/patch/update,
//   services get/list/watch, ...), as Kubernetes' authorizer embeds them.
// The decisions' reasons are Kubernetes' words.
import { parseFieldSelector } from '../../machinery/selectors/fields.js';
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
    if (attrs.resourceRequest && attrs.apiGroup === 'coordination.k8s.io' && attrs.resource === 'leases') return this.lease(node, attrs);
    if (attrs.resourceRequest && attrs.apiGroup === '') {
      switch (attrs.resource) {
        case 'nodes':
          return this.nodes(node, attrs);
        case 'pods':
          return this.podRequest(node, attrs);
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
    if (attrs.subresource === '') {
      // Writes: NodeRestriction limits a node to its own Node.
      if (['create', 'update', 'patch'].includes(attrs.verb)) return allow;
      if (['get', 'list', 'watch'].includes(attrs.verb)) {
        // The name, not the graph: a kubelet may read its Node before creating it.
        if (attrs.name === node) return allow;
        if (attrs.name === '') return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${node}' cannot read '${attrs.name}', only its own Node object`);
      }
    }
    if (attrs.subresource === 'status' && (attrs.verb === 'update' || attrs.verb === 'patch')) return allow;
    return noOpinion('');
  }

  /** Pods: reads of those bound to the node; writes are NodeRestriction's to limit. */
  private podRequest(node: string, attrs: Attributes): Result {
    switch (attrs.subresource) {
      case '':
        switch (attrs.verb) {
          case 'get':
            return this.boundPod(node, attrs);
          case 'list':
          case 'watch':
            if (selectsNode(attrs.fieldSelector, node)) return allow;
            if (attrs.name !== '') return this.boundPod(node, attrs);
            return noOpinion('can only list/watch pods with spec.nodeName field selector');
          case 'create':
          case 'delete':
            return allow;
        }
        break;
      case 'status':
        if (attrs.verb === 'update' || attrs.verb === 'patch') return allow;
        break;
      case 'eviction':
        if (attrs.verb === 'create') return allow;
        break;
    }
    return noOpinion('');
  }

  /** A named pod bound to the node (the graph's pod → node edge, from the watch cache). */
  private boundPod(node: string, attrs: Attributes): Result {
    if (attrs.name === '') return noOpinion('No Object name found');
    return this.pods.nodeNameOf(attrs.namespace, attrs.name) === node ? allow : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  private lease(node: string, attrs: Attributes): Result {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (attrs.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    if (attrs.verb !== 'create' && attrs.name !== node) return noOpinion('can only access node lease with the same name as the requesting node');
    return allow;
  }
}

/** Whether a list or watch's field selector requires spec.nodeName=<node>. */
function selectsNode(fieldSelector: string | undefined, node: string): boolean {
  if (fieldSelector === undefined || fieldSelector === '') return false;
  try {
    return parseFieldSelector(fieldSelector).requirements.some((r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node);
  } catch {
    return false;
  }
}
