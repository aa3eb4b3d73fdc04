// The default roles and bindings kube-apiserver's rbac/bootstrap-roles post-start hook keeps in
// place (Kubernetes' bootstrappolicy): the user-facing roles (cluster-admin, admin, edit, view,
// aggregated from the system:aggregate-to-* roles), discovery and health for everybody, the
// control-plane components, nodes, and one role per controller the server is given
// (`system:controller:<name>`, bound to the service account `kube-system/<name>` that
// `--use-service-account-credentials` gives each controller). Rules are listed as Kubernetes
// lists them, so `kubectl get clusterrole -o yaml` reads the same.
import type { PolicyRule } from '../../../api/types.js';
import { ruleOf, type Rule } from './rules.js';

type Obj = Record<string, unknown>;

const words = (s: string) => (s === '' ? [] : s.split(' '));

/** A resource rule: API groups, space-separated resources and verbs, optional resource names. */
function res(apiGroups: string[], resources: string, verbs: string, resourceNames?: string): Rule {
  return { verbs: words(verbs), apiGroups, resources: words(resources), resourceNames: resourceNames ? words(resourceNames) : [], nonResourceURLs: [] };
}

/** A non-resource rule. */
function urls(nonResourceURLs: string, verbs: string): Rule {
  return { verbs: words(verbs), apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: words(nonResourceURLs) };
}

const CORE = [''];
const READ = 'get list watch';
const WRITE = 'create delete deletecollection patch update';
const EVENTS = res(['', 'events.k8s.io'], 'events', 'create patch update');

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const ANNOTATIONS = { [AUTOUPDATE_ANNOTATION]: 'true' };

/** A rule as stored (JSON: empty lists left out, verbs always present). */
export function ruleJson(r: Rule): Obj {
  const o: Obj = { verbs: [...r.verbs] };
  if (r.apiGroups.length > 0) o.apiGroups = [...r.apiGroups];
  if (r.resources.length > 0) o.resources = [...r.resources];
  if (r.resourceNames.length > 0) o.resourceNames = [...r.resourceNames];
  if (r.nonResourceURLs.length > 0) o.nonResourceURLs = [...r.nonResourceURLs];
  return o;
}

function clusterRole(name: string, rules: Rule[], opts: { labels?: Record<string, string>; aggregateFrom?: string } = {}): Obj {
  const role: Obj = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { ...LABELS, ...opts.labels }, annotations: { ...ANNOTATIONS } },
    rules: rules.map(ruleJson),
  };
  if (opts.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${opts.aggregateFrom}`]: 'true' } }] };
  return role;
}

type SubjectSpec = { kind: 'User' | 'Group'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

function clusterRoleBinding(name: string, role: string, subjects: SubjectSpec[], namespace?: string): Obj {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: namespace === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
    metadata: { name, ...(namespace === undefined ? {} : { namespace }), labels: { ...LABELS }, annotations: { ...ANNOTATIONS } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: namespace === undefined ? 'ClusterRole' : 'Role', name: role },
    subjects: subjects.map((s) => (s.kind === 'ServiceAccount' ? { kind: s.kind, name: s.name, namespace: s.namespace } : { apiGroup: 'rbac.authorization.k8s.io', kind: s.kind, name: s.name })),
  };
}

function role(namespace: string, name: string, rules: Rule[]): Obj {
  return { ...clusterRole(name, rules), kind: 'Role', metadata: { name, namespace, labels: { ...LABELS }, annotations: { ...ANNOTATIONS } } };
}

const sa = (name: string): SubjectSpec => ({ kind: 'ServiceAccount', name, namespace: 'kube-system' });

const group = (name: string): SubjectSpec => ({ kind: 'Group', name });
const user = (name: string): SubjectSpec => ({ kind: 'User', name });

/** The rules of the system:node ClusterRole (the Node authorizer applies them too). */
export function nodeRules(): Rule[] {
  return [
    res(['authentication.k8s.io'], 'tokenreviews', 'create'),
    res(['authorization.k8s.io'], 'localsubjectaccessreviews subjectaccessreviews', 'create'),
    res(CORE, 'services', READ),
    res(CORE, 'nodes', 'create get list watch'),
    res(CORE, 'nodes/status', 'patch update'),
    res(CORE, 'nodes', 'patch update'),
    res(CORE, 'events', 'create patch update'),
    res(CORE, 'pods', READ),
    res(CORE, 'pods', 'create delete'),
    res(CORE, 'pods/status', 'patch update'),
    res(CORE, 'pods/eviction', 'create'),
    res(CORE, 'configmaps secrets', READ),
    res(CORE, 'persistentvolumeclaims persistentvolumes', 'get'),
    res(CORE, 'endpoints', 'get'),
    res(['certificates.k8s.io'], 'certificatesigningrequests', 'create get list watch'),
    res(['coordination.k8s.io'], 'leases', 'create delete get patch update'),
    res(['storage.k8s.io'], 'volumeattachments', 'get'),
    res(CORE, 'serviceaccounts/token', 'create'),
    res(CORE, 'persistentvolumeclaims/status', 'get patch update'),
    res(['storage.k8s.io'], 'csidrivers', READ),
    res(['storage.k8s.io'], 'csinodes', 'create delete get patch update'),
    res(['node.k8s.io'], 'runtimeclasses', READ),
  ];
}

function clusterRoles(): Obj[] {
  return [
    clusterRole('cluster-admin', [res(['*'], '*', '*'), urls('*', '*')]),
    clusterRole('admin', [], { aggregateFrom: 'admin' }),
    clusterRole('edit', [], { aggregateFrom: 'edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }),
    clusterRole('view', [], { aggregateFrom: 'view', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }),
    clusterRole('system:aggregate-to-admin', [
      res(['authorization.k8s.io'], 'localsubjectaccessreviews', 'create'),
      res(['rbac.authorization.k8s.io'], 'rolebindings roles', 'create delete deletecollection get list patch update watch'),
    ], { labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }),
    clusterRole('system:aggregate-to-edit', [
      res(CORE, 'pods/attach pods/exec pods/portforward pods/proxy secrets services/proxy', READ),
      res(CORE, 'serviceaccounts', 'impersonate'),
      res(CORE, 'pods pods/attach pods/exec pods/portforward pods/proxy', WRITE),
      res(CORE, 'pods/eviction', 'create'),
      res(CORE, 'configmaps events persistentvolumeclaims replicationcontrollers replicationcontrollers/scale secrets serviceaccounts services services/proxy', WRITE),
      res(CORE, 'serviceaccounts/token', 'create'),
      res(['apps'], 'daemonsets deployments deployments/rollback deployments/scale replicasets replicasets/scale statefulsets statefulsets/scale', WRITE),
      res(['autoscaling'], 'horizontalpodautoscalers', WRITE),
      res(['batch'], 'cronjobs jobs', WRITE),
      res(['extensions'], 'daemonsets deployments deployments/rollback deployments/scale ingresses networkpolicies replicasets replicasets/scale replicationcontrollers/scale', WRITE),
      res(['policy'], 'poddisruptionbudgets', WRITE),
      res(['networking.k8s.io'], 'ingresses networkpolicies', WRITE),
      res(['coordination.k8s.io'], 'leases', 'create delete deletecollection get list patch update watch'),
    ], { labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }),
    clusterRole('system:aggregate-to-view', [
      res(CORE, 'configmaps endpoints persistentvolumeclaims persistentvolumeclaims/status pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status', READ),
      res(CORE, 'bindings events limitranges namespaces/status pods/log pods/status replicationcontrollers/status resourcequotas resourcequotas/status', READ),
      res(CORE, 'namespaces', READ),
      res(['discovery.k8s.io'], 'endpointslices', READ),
      res(['apps'], 'controllerrevisions daemonsets daemonsets/status deployments deployments/scale deployments/status replicasets replicasets/scale replicasets/status statefulsets statefulsets/scale statefulsets/status', READ),
      res(['autoscaling'], 'horizontalpodautoscalers horizontalpodautoscalers/status', READ),
      res(['batch'], 'cronjobs cronjobs/status jobs jobs/status', READ),
      res(['extensions'], 'daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status networkpolicies replicasets replicasets/scale replicasets/status replicationcontrollers/scale', READ),
      res(['policy'], 'poddisruptionbudgets poddisruptionbudgets/status', READ),
      res(['networking.k8s.io'], 'ingresses ingresses/status networkpolicies', READ),
    ], { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }),
    clusterRole('system:auth-delegator', [res(['authentication.k8s.io'], 'tokenreviews', 'create'), res(['authorization.k8s.io'], 'subjectaccessreviews', 'create')]),
    clusterRole('system:basic-user', [
      res(['authorization.k8s.io'], 'selfsubjectaccessreviews selfsubjectrulesreviews', 'create'),
      res(['authentication.k8s.io'], 'selfsubjectreviews', 'create'),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [res(['certificates.k8s.io'], 'certificatesigningrequests/nodeclient', 'create')]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [res(['certificates.k8s.io'], 'certificatesigningrequests/selfnodeclient', 'create')]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeserver', [res(['certificates.k8s.io'], 'certificatesigningrequests/selfnodeserver', 'create')]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', [res(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/kube-apiserver-client')]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [res(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/kube-apiserver-client-kubelet')]),
    clusterRole('system:certificates.k8s.io:kubelet-serving-approver', [res(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/kubelet-serving')]),
    clusterRole('system:certificates.k8s.io:legacy-unknown-approver', [res(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/legacy-unknown')]),
    clusterRole('system:discovery', [urls('/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/', 'get')]),
    clusterRole('system:kube-controller-manager', [
      EVENTS,
      res(['coordination.k8s.io'], 'leases', 'create'),
      res(['coordination.k8s.io'], 'leases', 'get update', 'kube-controller-manager'),
      res(CORE, 'secrets serviceaccounts', 'create'),
      res(CORE, 'secrets', 'delete'),
      res(CORE, 'configmaps namespaces secrets serviceaccounts', 'get'),
      res(CORE, 'secrets serviceaccounts', 'update'),
      res(['authentication.k8s.io'], 'tokenreviews', 'create'),
      res(['authorization.k8s.io'], 'subjectaccessreviews', 'create'),
      res(['*'], '*', 'list watch'),
      res(CORE, 'serviceaccounts/token', 'create'),
    ]),
    clusterRole('system:kube-scheduler', [
      EVENTS,
      res(['coordination.k8s.io'], 'leases', 'create'),
      res(['coordination.k8s.io'], 'leases', 'get update', 'kube-scheduler'),
      res(CORE, 'nodes', READ),
      res(CORE, 'pods', 'delete get list watch'),
      res(CORE, 'bindings pods/binding', 'create'),
      res(CORE, 'pods/status', 'patch update'),
      res(CORE, 'replicationcontrollers services', READ),
      res(['apps', 'extensions'], 'replicasets', READ),
      res(['apps'], 'statefulsets', READ),
      res(['policy'], 'poddisruptionbudgets', READ),
      res(CORE, 'persistentvolumeclaims persistentvolumes', READ),
      res(['authentication.k8s.io'], 'tokenreviews', 'create'),
      res(['authorization.k8s.io'], 'subjectaccessreviews', 'create'),
      res(['storage.k8s.io'], 'csinodes', READ),
      res(CORE, 'namespaces', READ),
      res(['storage.k8s.io'], 'csidrivers', READ),
      res(['storage.k8s.io'], 'csistoragecapacities', READ),
    ]),
    clusterRole('system:monitoring', [urls('/healthz /healthz/* /livez /livez/* /metrics /metrics/slis /readyz /readyz/*', 'get')]),
    clusterRole('system:node', nodeRules()),
    clusterRole('system:node-bootstrapper', [res(['certificates.k8s.io'], 'certificatesigningrequests', 'create get list watch')]),
    clusterRole('system:node-proxier', [
      res(CORE, 'endpoints services', 'list watch'),
      res(CORE, 'nodes', READ),
      EVENTS,
      res(['discovery.k8s.io'], 'endpointslices', 'list watch'),
    ]),
    // For an out-of-tree provisioner; Kubernetes binds it to no one.
    clusterRole('system:persistent-volume-provisioner', [
      res(CORE, 'persistentvolumes', 'create delete get list watch'),
      res(CORE, 'persistentvolumeclaims', 'get list update watch'),
      res(['storage.k8s.io'], 'storageclasses', READ),
      res(CORE, 'events', 'watch'),
      EVENTS,
    ]),
    clusterRole('system:public-info-viewer', [urls('/healthz /livez /readyz /version /version/', 'get')]),
    clusterRole('system:service-account-issuer-discovery', [urls('/.well-known/openid-configuration /openid/v1/jwks', 'get')]),
    clusterRole('system:volume-scheduler', [
      res(CORE, 'persistentvolumes', 'get list patch update watch'),
      res(['storage.k8s.io'], 'storageclasses', READ),
      res(CORE, 'persistentvolumeclaims', 'get list patch update watch'),
    ]),
  ];
}

function clusterRoleBindings(): Obj[] {
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [group('system:masters')]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    clusterRoleBinding('system:discovery', 'system:discovery', [group('system:authenticated')]),
    clusterRoleBinding('system:kube-controller-manager', 'system:kube-controller-manager', [user('system:kube-controller-manager')]),
    clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', [user('system:kube-scheduler')]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    // Nodes are authorized by the Node authorizer: Kubernetes keeps this binding without subjects.
    clusterRoleBinding('system:node', 'system:node', []),
    clusterRoleBinding('system:node-proxier', 'system:node-proxier', [user('system:kube-proxy')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
    clusterRoleBinding('system:volume-scheduler', 'system:volume-scheduler', [user('system:kube-scheduler')]),
  ];
}

/**
 * A controller's role: the ClusterRole `system:controller:<serviceAccount>` with these rules, bound
 * to the service account `kube-system/<serviceAccount>` that `--use-service-account-credentials`
 * gives the controller. The controllers declare them (their descriptors); whoever starts the API
 * server passes them in, as the API server knows no controller.
 */
export interface ControllerRole {
  readonly serviceAccount: string;
  readonly rules: readonly PolicyRule[];
}

/** The Roles and RoleBindings Kubernetes keeps in kube-system and kube-public (leader election, the authentication config reader, token controllers). */
function namespacedPolicy(): { roles: Obj[]; roleBindings: Obj[] } {
  const leaderLocking = [res(['coordination.k8s.io'], 'leases', 'create get list update watch'), res(['coordination.k8s.io'], 'leasecandidates', 'create get list update watch')];
  const roles = [
    role('kube-public', 'system:controller:bootstrap-signer', [res(CORE, 'configmaps', READ), res(CORE, 'configmaps', 'update', 'cluster-info'), EVENTS]),
    role('kube-system', 'extension-apiserver-authentication-reader', [res(CORE, 'configmaps', READ, 'extension-apiserver-authentication')]),
    role('kube-system', 'system::leader-locking-kube-controller-manager', leaderLocking),
    role('kube-system', 'system::leader-locking-kube-scheduler', leaderLocking),
    role('kube-system', 'system:controller:bootstrap-signer', [res(CORE, 'secrets', READ)]),
    role('kube-system', 'system:controller:cloud-provider', [res(CORE, 'configmaps', 'create get list watch')]),
    role('kube-system', 'system:controller:token-cleaner', [res(CORE, 'secrets', 'delete get list watch'), EVENTS]),
  ];
  const roleBindings = [
    clusterRoleBinding('system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('bootstrap-signer')], 'kube-public'),
    clusterRoleBinding('system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [user('system:kube-controller-manager'), user('system:kube-scheduler')], 'kube-system'),
    clusterRoleBinding('system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [user('system:kube-controller-manager'), sa('kube-controller-manager'), sa('leader-election-controller')], 'kube-system'),
    clusterRoleBinding('system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [user('system:kube-scheduler'), sa('kube-scheduler')], 'kube-system'),
    clusterRoleBinding('system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('bootstrap-signer')], 'kube-system'),
    clusterRoleBinding('system:controller:cloud-provider', 'system:controller:cloud-provider', [sa('cloud-provider')], 'kube-system'),
    clusterRoleBinding('system:controller:token-cleaner', 'system:controller:token-cleaner', [sa('token-cleaner')], 'kube-system'),
  ];
  return { roles, roleBindings };
}

export interface BootstrapPolicy {
  clusterRoles: Obj[];
  clusterRoleBindings: Obj[];
  /** Namespaced, in kube-system and kube-public. */
  roles: Obj[];
  roleBindings: Obj[];
}

/**
 * Every default ClusterRole and ClusterRoleBinding, with those of `controllerRoles` (in the order of
 * their service accounts), freshly built (callers may mutate them).
 */
export function bootstrapPolicy(controllerRoles: readonly ControllerRole[] = []): BootstrapPolicy {
  const roles = clusterRoles();
  const bindings = clusterRoleBindings();
  const byName = [...controllerRoles].sort((a, b) => (a.serviceAccount < b.serviceAccount ? -1 : a.serviceAccount > b.serviceAccount ? 1 : 0));
  for (const { serviceAccount: name, rules } of byName) {
    roles.push(clusterRole(`system:controller:${name}`, rules.map(ruleOf)));
    bindings.push(clusterRoleBinding(`system:controller:${name}`, `system:controller:${name}`, [sa(name)]));
  }
  return { clusterRoles: roles, clusterRoleBindings: bindings, ...namespacedPolicy() };
}
