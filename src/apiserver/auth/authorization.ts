// Builds the authorizer of `--authorization-mode` over the registry: the RBAC authorizer reads the
// roles and bindings from the watch cache (and its start reconciles the default policy first), the
// Node authorizer looks pods up there. Also answers "which rules does this user have" for
// SelfSubjectRulesReview and the escalation check.
import type { Registry } from '../../registry/registry.js';
import { alwaysAllow } from './always-allow.js';
import { alwaysDeny, UnionAuthorizer, type AuthorizationMode } from './modes.js';
import { NodeAuthorizer, nodeIdentity } from './node-authorizer.js';
import { feedNodeGraph, NodeGraph } from './node-graph.js';
import type { CacheFollow } from './follow-cache.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { feedPolicy, type PolicyFeed } from './rbac/feed.js';
import { PolicyIndex } from './rbac/policy.js';
import { checkEscalation, type RoleSource } from './rbac/escalation.js';
import type { ControllerRole } from './rbac/bootstrap-policy.js';
import { reconcileBootstrapPolicy, type DeploymentPolicy } from './rbac/reconcile.js';
import type { Rule } from './rbac/rules.js';
import { SYSTEM_MASTERS, type Authorizer, type UserInfo } from './types.js';

export interface UserRules {
  rules: Rule[];
  /** True when some authorizer could not list everything the user may do. */
  incomplete: boolean;
  evaluationError: string;
}

export interface Authorization {
  authorizer: Authorizer;
  /** Every rule the user holds in `namespace` ('' = cluster-wide), across the configured modes. */
  rulesFor(user: UserInfo, namespace: string): UserRules;
  /**
   * RBAC's escalation check for a write of a Role, ClusterRole, RoleBinding or ClusterRoleBinding
   * (stored form); throws 403. Other kinds pass.
   */
  checkWrite(user: UserInfo, group: string, resource: string, namespace: string, object: Record<string, unknown>): Promise<void>;
  /** Reconciles the default policy (RBAC) and waits until the policy cache holds it. */
  start(): Promise<void>;
  stop(): void;
}

const STAR_RULES: Rule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [], nonResourceURLs: [] },
  { verbs: ['*'], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ['*'] },
];

/** Roles as the watch cache holds them (whatever the authorization modes). */
function rolesOf(registry: Registry): RoleSource {
  return {
    get(resource, namespace, name) {
      const store = registry.store(RBAC_GROUP, resource);
      const cached = store?.cache.get(store.key(namespace, name));
      return cached === undefined ? undefined : (JSON.parse(decoder.decode(cached.json)) as Record<string, unknown>);
    },
  };
}

const decoder = new TextDecoder();
const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * Without --authorization-mode (in-process servers): the given authorizer, or AlwaysAllow; the
 * rules of a user cannot be listed (`incomplete`).
 */
export function fixedAuthorization(registry: Registry, authorizer: Authorizer | undefined): Authorization {
  if (authorizer === undefined) return buildAuthorization(registry, ['AlwaysAllow']);
  const self: Authorization = {
    authorizer,
    rulesFor: () => ({ rules: [], incomplete: true, evaluationError: '' }),
    checkWrite: (user, group, resource, namespace, object) => (group === RBAC_GROUP ? checkEscalation(self, rolesOf(registry), user, resource, namespace, object) : Promise.resolve()),
    start: async () => {},
    stop: () => {},
  };
  return self;
}

/**
 * `controllerRoles`: the controllers' roles the RBAC mode keeps in place beside the default policy;
 * `deploymentPolicy`: roles and bindings kept as given (the components' of `kubelite up`).
 */
export function buildAuthorization(registry: Registry, modes: readonly AuthorizationMode[], controllerRoles: readonly ControllerRole[] = [], deploymentPolicy?: DeploymentPolicy): Authorization {
  const members: Authorizer[] = [];
  let rbac: RbacAuthorizer | undefined;
  let feed: PolicyFeed | undefined;
  let graph: NodeGraph | undefined;
  let graphFeed: CacheFollow | undefined;
  for (const mode of modes) {
    switch (mode) {
      case 'AlwaysAllow':
        members.push(alwaysAllow);
        break;
      case 'AlwaysDeny':
        members.push(alwaysDeny);
        break;
      case 'Node': {
        const pods = registry.store('', 'pods')!;
        graph = new NodeGraph();
        members.push(new NodeAuthorizer({ nodeNameOf: (ns, name) => pods.cache.get(pods.key(ns, name))?.fields['spec.nodeName'] }, graph));
        break;
      }
      case 'RBAC':
        rbac = new RbacAuthorizer(new PolicyIndex());
        members.push(rbac);
        break;
    }
  }
  const rbacAuthorizer = rbac;
  const nodeGraph = graph;
  const roles = rolesOf(registry);
  const self: Authorization = {
    authorizer: new UnionAuthorizer(members),
    checkWrite: (user, group, resource, namespace, object) => (group === RBAC_GROUP ? checkEscalation(self, roles, user, resource, namespace, object) : Promise.resolve()),
    rulesFor(user, namespace) {
      if (user.groups.includes(SYSTEM_MASTERS)) return { rules: [...STAR_RULES], incomplete: false, evaluationError: '' };
      const rules: Rule[] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const mode of modes) {
        if (mode === 'AlwaysAllow') rules.push(...STAR_RULES);
        if (mode === 'RBAC' && rbacAuthorizer) {
          const r = rbacAuthorizer.rulesFor(user, namespace);
          rules.push(...r.rules);
          if (r.errors.length > 0) {
            incomplete = true;
            errors.push(...r.errors);
          }
        }
        if (mode === 'Node' && nodeIdentity(user) !== undefined) {
          incomplete = true;
          errors.push('node authorizer does not support user rule resolution');
        }
      }
      return { rules, incomplete, evaluationError: errors.length === 0 ? '' : errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    },
    async start() {
      // The graph fills from the pods' watch cache alongside the policy (the server is ready once
      // both are in, as kube-apiserver waits for its informers).
      if (nodeGraph) graphFeed = feedNodeGraph(registry, nodeGraph);
      if (rbacAuthorizer) {
        await reconcileBootstrapPolicy(registry, controllerRoles, deploymentPolicy);
        // The watch cache holds the reconciled policy before the feed takes its first snapshot.
        await registry.cacher.waitUntilFresh();
        feed = feedPolicy(registry, rbacAuthorizer.policy);
        await feed.synced;
      }
      await graphFeed?.synced;
    },
    stop() {
      feed?.stop();
      graphFeed?.stop();
    },
  };
  return self;
}
