// Who each simulated node is to the API server: the kubelet's identity, `system:node:<name>` in
// `system:nodes`, which the Node authorizer and NodeRestriction admission hold to its own Node,
// Lease and pods. The nodes process authenticates once, as itself, and sends each node's requests
// as that node by impersonation (Impersonate-User / Impersonate-Group) over one shared connection
// pool: 10,000 nodes then cost one TLS context and a few dozen sockets, where a credential of
// their own costs each node a context (~1.2 ms to make) and connections (~175 KiB).
//
// The API server authorizes the impersonation itself — `impersonate` on users "system:node:<name>"
// and on groups "system:nodes" — and then judges the request as the node's. The role below grants
// exactly that for the named nodes: the agent cannot become any other user (a user name may be
// bound to anything), nor join any other group (system:masters); `system:authenticated` needs no
// grant, as the API server adds it to every impersonated user.
import type { ClusterRole } from '../api/types.js';
import type { Impersonation } from '../client/kubeconfig.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
/** The ClusterRole (and its binding) that lets the nodes process act as its nodes. */
export const NODE_IMPERSONATOR_ROLE = 'kubelite:node-impersonator';

/** What node `name`'s requests act as: its kubelet's user and group. */
export function nodeIdentity(name: string): Impersonation {
  return { userName: `${NODE_USER_PREFIX}${name}`, groups: [NODES_GROUP] };
}

/** A ClusterRole allowing to impersonate exactly these nodes (each one's user, and the nodes' group). */
export function nodeImpersonatorRole(nodeNames: readonly string[], labels: Record<string, string> = {}): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: NODE_IMPERSONATOR_ROLE, labels },
    rules: [
      { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: nodeNames.map((n) => `${NODE_USER_PREFIX}${n}`) },
      { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: [NODES_GROUP] },
    ],
  };
}
