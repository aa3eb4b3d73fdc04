// The credentials of a `kubelite up` cluster, as kubeadm makes them: the CA and the API server's
// serving certificate in <data-dir>/pki (made on first start, reused after — the API server
// process finds and uses the same files), and one client certificate per identity (CN = user,
// O = groups), each in a kubeconfig that verifies the CA (no insecure-skip-tls-verify). Client
// certificates are issued anew at every start (a few milliseconds each); older ones stay valid
// until they expire since the CA does not change.
//
//   <data-dir>/kubeconfig                      kubernetes-admin in system:masters (the user's)
//   <data-dir>/controller-manager.kubeconfig   system:kube-controller-manager
//   <data-dir>/scheduler.kubeconfig            system:kube-scheduler
//   <data-dir>/nodes.kubeconfig                system:kubelite-node-lifecycle
//
// The simulated nodes are kubelets as far as the API server's authorizer and admission can tell:
// the nodes process sends each node's requests as `system:node:<name>` in `system:nodes` by
// impersonation (nodes/identity.ts) and the API server runs with the Node authorizer first
// (`--authorization-mode Node,RBAC`, as kubeadm), so each node may write only itself, its Lease
// and its pods. nodes.kubeconfig is the process's own identity: it may impersonate exactly the
// nodes of this start (the ClusterRole kubelite:node-impersonator, rewritten at each start with
// their names) and nothing else of the kind; its shared informers (pods and nodes of all its nodes)
// and the one thing a kubelet may not do and Kubernetes' node lifecycle controller does: remove
// the not-ready taint once a node is Ready (and delete a Node for the Gone fault). It is bound to
// that controller's role, which reads pods and nodes too — see COMPONENT_BINDINGS. It never holds
// the CA's key.
import { join } from 'node:path';
import { stringify } from 'yaml';
import { NODE_IMPERSONATOR_ROLE, nodeImpersonatorRole } from '../nodes/identity.js';
import { ensureServingPki, issueCertificate, servingNames, writeSecureFile, type KeyPair } from '../apiserver/tls/pki.js';

export interface Identity {
  commonName: string;
  organizations: readonly string[];
}

export const ADMIN: Identity = { commonName: 'kubernetes-admin', organizations: ['system:masters'] };
export const CONTROLLER_MANAGER: Identity = { commonName: 'system:kube-controller-manager', organizations: [] };
export const SCHEDULER: Identity = { commonName: 'system:kube-scheduler', organizations: [] };
export const NODE_LIFECYCLE: Identity = { commonName: 'system:kubelite-node-lifecycle', organizations: [] };
/** What the API server presents to kubelets (kubeadm's apiserver-kubelet-client certificate). */
export const APISERVER_KUBELET_CLIENT: Identity = { commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'] };
/**
 * Where earlier versions of `up` kept a client certificate per node, under <data-dir>: removed at
 * start, so a data directory carried over keeps no credential nobody uses (they stay valid a year).
 */
export const OBSOLETE_NODE_CERT_DIR = join('pki', 'nodes');

/**
 * ClusterRoleBindings `up` creates for its components beyond Kubernetes' bootstrap policy (which
 * already binds system:kube-scheduler and system:kube-controller-manager to their roles): the
 * nodes process's own identity gets the node lifecycle controller's role (its nodes, each
 * `system:node:<name>`, need none: the Node authorizer grants kubelets theirs). The controller
 * manager needs none: it runs with --use-service-account-credentials, as kubeadm runs it, so each
 * controller acts as its own service account under its `system:controller:<name>` role and the
 * daemon's own identity only lists, watches, elects a leader and issues their tokens.
 */
export const COMPONENT_BINDINGS: ReadonlyArray<{ name: string; role: string; user?: string; group?: string }> = [
  { name: 'kubelite:node-lifecycle', role: 'system:controller:node-controller', user: NODE_LIFECYCLE.commonName },
  // acting as each of its nodes (the role lists them: nodes/identity.ts)
  { name: NODE_IMPERSONATOR_ROLE, role: NODE_IMPERSONATOR_ROLE, user: NODE_LIFECYCLE.commonName },
  { name: 'kubelite:csi-driver', role: 'kubelite:csi-driver', user: NODE_LIFECYCLE.commonName },
  // the nodes request their serving certificates (kubelet --rotate-server-certificates), as kubeadm lets kubelets do
  { name: 'kubelite:node-certificate-requests', role: 'system:node-bootstrapper', group: 'system:nodes' },
  { name: 'kubelite:kubelet-serving-approver', role: 'kubelite:kubelet-serving-approver', user: NODE_LIFECYCLE.commonName },
];

const rule = (apiGroups: string[], resources: string[], verbs: string[]) => ({ apiGroups, resources, verbs });

/**
 * ClusterRoles `up` creates for its components: the nodes process's simulated CSI driver gets what
 * a CSI driver deployment's sidecars get (csi-attacher, csi-provisioner, csi-resizer) and the
 * claims, volumes and drivers its kubelets read to wait for attachment.
 */
export const COMPONENT_ROLES: ReadonlyArray<Record<string, unknown>> = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'kubelite:csi-driver', labels: { 'app.kubernetes.io/managed-by': 'kubelite-up' } },
    rules: [
      rule([''], ['persistentvolumes'], ['get', 'list', 'watch', 'create', 'delete', 'patch', 'update']),
      rule([''], ['persistentvolumeclaims'], ['get', 'list', 'watch', 'patch', 'update']),
      rule([''], ['persistentvolumeclaims/status'], ['patch', 'update']),
      rule([''], ['events'], ['create', 'patch', 'update']),
      rule(['storage.k8s.io'], ['storageclasses', 'csinodes'], ['get', 'list', 'watch']),
      rule(['storage.k8s.io'], ['csidrivers'], ['get', 'list', 'watch', 'create']),
      rule(['storage.k8s.io'], ['volumeattachments'], ['get', 'list', 'watch', 'patch', 'update']),
      rule(['storage.k8s.io'], ['volumeattachments/status'], ['patch', 'update']),
    ],
  },
  {
    // what kubelet-csr-approver's deployment gets: approve kubelet serving requests (the agent approves its own nodes')
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'kubelite:kubelet-serving-approver', labels: { 'app.kubernetes.io/managed-by': 'kubelite-up' } },
    rules: [
      rule(['certificates.k8s.io'], ['certificatesigningrequests'], ['get', 'list', 'watch']),
      rule(['certificates.k8s.io'], ['certificatesigningrequests/approval'], ['update']),
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kubelet-serving'], verbs: ['approve'] },
    ],
  },
];

/**
 * Bindings earlier versions of `up` made that no component uses any more, deleted at start so a
 * data directory carried over keeps no grant behind: `kubelite:nodes` gave the nodes' shared
 * identity the kubelet role before each node had its own.
 */
export const OBSOLETE_BINDINGS: readonly string[] = ['kubelite:nodes'];

export function clusterRoleBinding(b: { name: string; role: string; user?: string; group?: string }): Record<string, unknown> {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: b.name, labels: { 'app.kubernetes.io/managed-by': 'kubelite-up' } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: b.role },
    subjects: [b.group !== undefined ? { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: b.group } : { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: b.user ?? '' }],
  };
}

/**
 * Every ClusterRole and ClusterRoleBinding of the components, as the API server's
 * --bootstrap-policy-file List: it keeps them as given and has them in place before it is ready,
 * so the components start together with it. The role letting the nodes process impersonate its
 * nodes names this start's nodes (an earlier start's others lose the grant).
 */
export function componentPolicy(nodeNames: readonly string[]): { apiVersion: 'v1'; kind: 'List'; items: unknown[] } {
  const impersonator = nodeImpersonatorRole(nodeNames, { 'app.kubernetes.io/managed-by': 'kubelite-up' });
  return { apiVersion: 'v1', kind: 'List', items: [...COMPONENT_ROLES, impersonator, ...COMPONENT_BINDINGS.map(clusterRoleBinding)] };
}

export interface Credential {
  /** The kubeconfig file. */
  path: string;
  /** PEM client certificate and key. */
  cert: string;
  key: string;
}

export interface ClusterCredentials {
  /** PEM CA certificate (it signed the serving and client certificates). */
  ca: string;
  /** The CA's files (the controller manager signs certificate requests with them). */
  caCertFile: string;
  caKeyFile: string;
  admin: Credential;
  controllerManager: Credential;
  scheduler: Credential;
  nodes: Credential;
  /** The API server's kubelet client certificate and the nodes' kubelet serving certificate (PEM files). */
  kubeletClient: CertificateFiles;
  kubeletServing: CertificateFiles;
}

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

/** Issues a certificate and writes it and its key (0600) as <dir>/<name>.crt and .key. */
async function writeCertificate(dir: string, name: string, ca: KeyPair, req: Parameters<typeof issueCertificate>[1]): Promise<CertificateFiles> {
  const pair = await issueCertificate(ca, req);
  const files = { certFile: join(dir, `${name}.crt`), keyFile: join(dir, `${name}.key`) };
  writeSecureFile(files.certFile, pair.cert, 0o644);
  writeSecureFile(files.keyFile, pair.key, 0o600);
  return files;
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/** A kubeconfig (cluster, user and context named `kubelite`) with the CA and a client certificate embedded. */
export function kubeconfigYaml(server: string, caPem: string, client: KeyPair): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kubelite', cluster: { server, 'certificate-authority-data': b64(caPem) } }],
    users: [{ name: 'kubelite', user: { 'client-certificate-data': b64(client.cert), 'client-key-data': b64(client.key) } }],
    contexts: [{ name: 'kubelite', context: { cluster: 'kubelite', user: 'kubelite' } }],
    'current-context': 'kubelite',
  });
}

/** Issues a client certificate for `who` and writes its kubeconfig (0600: it holds the key). */
export async function writeClientKubeconfig(path: string, server: string, ca: KeyPair, who: Identity): Promise<Credential> {
  const client = await issueCertificate(ca, { commonName: who.commonName, organizations: who.organizations, usage: 'client' });
  writeSecureFile(path, kubeconfigYaml(server, ca.cert, client), 0o600);
  return { path, ...client };
}

/** `otherServerIPs`: the addresses of further API servers (several on one host), which the serving certificate covers too. */
export async function writeClusterCredentials(dataDir: string, server: string, bindAddress: string, otherServerIPs: readonly string[] = []): Promise<ClusterCredentials> {
  const { ca, caCertFile, caKeyFile } = await ensureServingPki(join(dataDir, 'pki'), servingNames(bindAddress, otherServerIPs));
  const pki = join(dataDir, 'pki');
  const [admin, controllerManager, scheduler, nodes] = await Promise.all([
    writeClientKubeconfig(join(dataDir, 'kubeconfig'), server, ca, ADMIN),
    writeClientKubeconfig(join(dataDir, 'controller-manager.kubeconfig'), server, ca, CONTROLLER_MANAGER),
    writeClientKubeconfig(join(dataDir, 'scheduler.kubeconfig'), server, ca, SCHEDULER),
    writeClientKubeconfig(join(dataDir, 'nodes.kubeconfig'), server, ca, NODE_LIFECYCLE),
  ]);
  // The nodes' kubelet API is reached on the bind address (apiserver --kubelet-address-override).
  const kubeletHost = bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
  const kubeletClient = await writeCertificate(pki, 'apiserver-kubelet-client', ca, { ...APISERVER_KUBELET_CLIENT, usage: 'client' });
  const kubeletServing = await writeCertificate(pki, 'kubelet-serving', ca, { commonName: 'kubelite-nodes', usage: 'server', ...servingNames(kubeletHost) });
  return { ca: ca.cert, caCertFile, caKeyFile, admin: admin!, controllerManager: controllerManager!, scheduler: scheduler!, nodes: nodes!, kubeletClient, kubeletServing };
}
