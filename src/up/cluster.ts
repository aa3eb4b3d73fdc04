// A whole cluster in one call: the API server, the controller manager, the scheduler and the
// simulated nodes, each a child process (so they use both cores, not one event loop) or, with
// `singleProcess`, a worker thread of this process (component-runner.ts), supervised
// (a crashed component restarts with back-off), with a kubeconfig written for clients, ready when
// /readyz is ok, every node is Ready, the system namespaces exist and `default` has its service
// account. `kubelite up` is this with flags; test suites use startCluster() directly — several
// clusters at once in one process, each on its own free port and data directory.
//
// Security as kubeadm sets it up: the CA and the API server's serving certificate in
// <data-dir>/pki (the API server reuses them), and one client certificate per identity, each in
// its own kubeconfig that verifies the CA — see credentials.ts.
import { restoreSnapshotFile } from '../storage/snapshot-file.js';
import { assertWritableDataDir } from '../storage/lmdb/disk-space.js';
import { restoreClusterSnapshot, takeClusterSnapshot, type RestoreSummary, type SnapshotHandle } from './snapshots.js';
import { DEFAULT_PROCESS_POD_CIDR, rootRefusal } from '../nodes/process/runtime.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get as httpsGet, request as httpsRequest } from 'node:https';
import { freeListenPort } from '../machinery/listen-port.js';
import { createSecureContext } from 'node:tls';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { componentPolicy, OBSOLETE_BINDINGS, OBSOLETE_NODE_CERT_DIR, writeClusterCredentials } from './credentials.js';
import { nodeNamesOf } from './node-names.js';
import { clusterCIDRFor } from './cluster-cidr.js';
import { NodeReadiness } from './node-readiness.js';
import { ensureSigningKey } from '../machinery/jwt/keys.js';
import { launchChildProcess, launchWorkerThread, liveChildren, type ComponentLauncher, type RunningComponent } from './component-runner.js';
import { launchInLoop } from './in-loop.js';
import { installObjects, type ObjectSource } from './install.js';
import { componentArgsOf, type ComponentFlagOptions } from './flag-options.js';
import { loadClientNodeConfig, type KubeConfig } from './client-node.js';
import { apiserverAddresses, replicaName, replicasProblem } from './replicas.js';

/**
 * The bundled CLI (scripts/bundle.mjs), package.json's `bin`: a component starts from it with half
 * the CPU tsc's module tree takes. The same relative path holds from tsc's output
 * (dist/src/up/cluster.js) and from the bundle (dist/bundle/cli/kubelite.cjs), both two levels
 * under dist/.
 */
const KUBELITE_BIN = fileURLToPath(new URL('../../bundle/cli/kubelite.js', import.meta.url));
/** The component log lines a library start-up failure quotes. */
const LOG_TAIL_LINES = 80;

/** How a single-process cluster runs its components (ClusterOptions.singleProcess). */
export type SingleProcessMode = 'event-loop' | 'worker-threads';
export const SINGLE_PROCESS_MODES: readonly SingleProcessMode[] = ['event-loop', 'worker-threads'];

/** The launcher of a cluster's components: a child process each unless `singleProcess`. */
function launcherOf(singleProcess: ClusterOptions['singleProcess']): ComponentLauncher {
  if (!singleProcess) return launchChildProcess;
  return singleProcess === 'worker-threads' ? launchWorkerThread : launchInLoop;
}

/** What `kubelite up`'s flags set; `args` adds any other component flag. */
export interface ClusterOptions extends ComponentFlagOptions {
  /** Where state and the kubeconfig live; default: a fresh temporary directory (removed by stop()). */
  dataDir?: string;
  /** API server port; 0 (the default for the library) picks a free one. */
  port?: number;
  bindAddress?: string;
  /** Simulated nodes (default 3). */
  nodes?: number;
  storage?: 'lmdb' | 'memory' | 'etcd';
  etcdServers?: readonly string[];
  /** API servers on the etcd storage, each on its own loopback address (replicas.ts); default 1. */
  apiservers?: number;
  /** Controller managers and schedulers in leader election (one leads, the others stand by); default 1 each. */
  controllerManagerReplicas?: number;
  schedulerReplicas?: number;
  /**
   * `process`: the nodes run the containers of the host-image allow-list as real processes
   * (src/nodes/process/README.md), each pod with a loopback IP from `processPodCIDR`; refused as
   * root unless `allowRoot`. Default `simulated`.
   */
  runtime?: 'simulated' | 'process';
  processPodCIDR?: string;
  allowRoot?: boolean;
  /** A file of `kubelite snapshot save` (or a downloaded snapshot): the data dir is brought back to it before the start (lmdb storage). */
  fromSnapshot?: string;
  /**
   * Every component in this process instead of a child process of its own (what test suites want:
   * less memory, a faster start; but one process's share of a busy machine's CPU instead of five):
   * `true` or `'event-loop'` runs them all in this process's own event loop, one heap and one copy
   * of the code for all (in-loop.ts); `'worker-threads'` runs each on a worker thread, an isolate
   * of its own (bench/NOTES.md sessions 15 and 18 measure both). A component that exits is
   * restarted as in a process of its own, but one that crashes the process (a native fault, or in
   * the event loop an exception nothing catches) takes the whole cluster with it. Default false.
   */
  singleProcess?: boolean | SingleProcessMode;
  /** Extra flags per component. */
  args?: { apiserver?: string[]; controllerManager?: string[]; scheduler?: string[]; nodes?: string[] };
  /** One line per notable event (component output is prefixed with its name). */
  log?: (line: string) => void;
  readyTimeoutMs?: number;
  /** Aborting it before the cluster is ready stops the components and rejects (SIGTERM during a start). */
  signal?: AbortSignal;
  /** One line per start stage ("starting the components", "waiting for 3 of 3 nodes", ...), for a person watching. */
  progress?: (stage: string) => void;
  /**
   * CustomResourceDefinitions installed and Established before the cluster is ready (envtest's
   * CRDDirectoryPaths): objects, or paths of YAML/JSON files or of directories holding them.
   */
  crds?: readonly ObjectSource[];
  /** Objects (or files/directories of them) server-side applied before the cluster is ready, after `crds`. */
  manifests?: readonly ObjectSource[];
}

export interface Cluster {
  /** Path of the kubeconfig (cluster, user and context named `kubelite`). */
  kubeconfig: string;
  /** The API server URL. */
  server: string;
  dataDir: string;
  /** Milliseconds from startCluster() to ready. */
  readyAfterMs: number;
  /** The kubeconfig's text (the admin's client certificate, the CA). */
  kubeconfigYaml: string;
  /** A @kubernetes/client-node KubeConfig of the cluster (client-node is an optional peer dependency). */
  kubeConfig(): Promise<KubeConfig>;
  /**
   * Takes a snapshot of every object (the API server keeps the 32 newest); `restore(handle)` puts
   * them back. For resetting a cluster between tests.
   */
  snapshot(): Promise<SnapshotHandle>;
  /**
   * Puts every object back as it was at `snapshot`: what was created since is deleted, what changed
   * is written back, what was deleted is created again — as writes with new resourceVersions, so
   * informers and watches see it as events; controllers converge from there.
   */
  restore(snapshot: SnapshotHandle): Promise<RestoreSummary>;
  /** Every component process now running (name and pid), for tests that kill one; none in single-process mode. */
  processes(): Array<{ name: string; pid: number }>;
  /** The URL of every API server (the first is `server`). */
  servers: string[];
  /** Stops every component; removes the data dir when startCluster made it. Repeated calls are one stop. */
  stop(): Promise<void>;
  /** stop(): `await using cluster = await startCluster()`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Temporary data dirs of clusters not stopped yet, removed when the process exits without stop(). */
const temporaryDirs = new Set<string>();
let exitHookInstalled = false;
function cleanUpOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of liveChildren) child.kill('SIGKILL');
    for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** One supervised component: restarted with back-off (1 s doubling to 30 s) when it exits on its own. */
class Component {
  private running: RunningComponent | undefined;
  private exitedCode: string | undefined;
  private stopping = false;
  private restarts = 0;
  private timer: NodeJS.Timeout | undefined;

  /** The pid of its process while it runs (none in a single-process cluster). */
  get pid(): number | undefined {
    return this.exitedCode === undefined ? this.running?.pid : undefined;
  }

  constructor(
    readonly name: string,
    private readonly argv: string[],
    private readonly log: (line: string) => void,
    private readonly launch: ComponentLauncher,
  ) {}

  start(): void {
    const running = this.launch(KUBELITE_BIN, this.argv);
    this.running = running;
    this.exitedCode = undefined;
    const forward = (stream: NodeJS.ReadableStream) => {
      let buffered = '';
      stream.on('data', (d: Buffer) => {
        buffered += d.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          this.log(`[${this.name}] ${buffered.slice(0, nl)}`);
          buffered = buffered.slice(nl + 1);
        }
      });
    };
    forward(running.stdout);
    forward(running.stderr);
    const started = Date.now();
    void running.exited.then((code) => {
      this.exitedCode = code;
      if (this.stopping) return;
      // A component that ran for a minute starts its back-off anew.
      if (Date.now() - started > 60_000) this.restarts = 0;
      const delay = Math.min(30_000, 1000 * 2 ** this.restarts++);
      this.log(`[up] ${this.name} exited (${code}); restarting in ${delay / 1000}s`);
      this.timer = setTimeout(() => this.start(), delay);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const running = this.running;
    if (!running || this.exitedCode !== undefined) return;
    running.terminate();
    const kill = setTimeout(() => running.kill(), 10_000);
    await running.exited;
    clearTimeout(kill);
  }
}

/** A GET as the admin (status 0 when the server does not answer within 2 s). */
function getJson(agent: Agent, url: string): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  return new Promise((resolveGet) => {
    const req = httpsGet(url, { agent, timeout: 2000, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => resolveGet({ status: 0, body: undefined }));
      res.on('end', () => {
        let body: Record<string, unknown> | undefined;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          body = undefined;
        }
        resolveGet({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolveGet({ status: 0, body: undefined }));
  });
}

/** POST, DELETE or server-side apply (PATCH) as the admin; resolves with the status (0 when the server does not answer). */
function postJson(agent: Agent, url: string, body: unknown, method: 'POST' | 'DELETE' | 'PATCH' = 'POST'): Promise<number> {
  return new Promise((resolvePost) => {
    const data = JSON.stringify(body);
    const contentType = method === 'PATCH' ? 'application/apply-patch+yaml' : 'application/json';
    const req = httpsRequest(url, { agent, method, timeout: 2000, headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => resolvePost(res.statusCode ?? 0));
      res.on('error', () => resolvePost(0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolvePost(0));
    req.end(data);
  });
}

/**
 * What `up` installs besides the components' grants (which the API server keeps itself:
 * componentPolicy): the default StorageClass, kept when it exists; bindings of earlier versions
 * deleted. Resolves whether all of it went through.
 */
async function installDefaults(agent: Agent, server: string): Promise<boolean> {
  const bindings = `${server}/apis/rbac.authorization.k8s.io/v1/clusterrolebindings`;
  const removed = Promise.all(OBSOLETE_BINDINGS.map((name) => postJson(agent, `${bindings}/${encodeURIComponent(name)}`, { kind: 'DeleteOptions', apiVersion: 'v1' }, 'DELETE')));
  const storageClass = await postJson(agent, `${server}/apis/storage.k8s.io/v1/storageclasses`, DEFAULT_STORAGE_CLASS);
  if (storageClass !== 201 && storageClass !== 409) return false;
  return (await removed).every((status) => status === 200 || status === 404);
}

/** What is still missing before the cluster is ready ('' when ready). */
async function missing(agent: Agent, servers: readonly string[], nodes: number, readiness: NodeReadiness, passed: Set<string>): Promise<string> {
  const server = servers[0]!;
  // A check that passed stays passed (the API server up, a namespace, the service account), so a
  // poll asks only for what is left: seven requests every 25 ms were most of the supervisor's CPU
  // and a good share of the API server's during a start.
  const ok = async (what: string, path: string) => {
    if (passed.has(what)) return true;
    if ((await getJson(agent, `${server}${path}`)).status !== 200) return false;
    passed.add(what);
    return true;
  };
  if (!(await ok('the API server', '/readyz'))) return 'the API server';
  for (const other of servers.slice(1)) {
    if (passed.has(other)) continue;
    if ((await getJson(agent, `${other}/readyz`)).status !== 200) return `the API server at ${other}`;
    passed.add(other);
  }
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    if (!(await ok(`namespace ${ns}`, `/api/v1/namespaces/${ns}`))) return `namespace ${ns}`;
  }
  if (!(await ok('the default service account', '/api/v1/namespaces/default/serviceaccounts/default'))) return 'the default service account';
  const ready = await readiness.count();
  if (ready < nodes) return `${nodes - ready} of ${nodes} nodes`;
  return '';
}

/**
 * The default StorageClass `kubelite up` installs, as kind installs one: claims without a class get
 * it and are provisioned at once by the controller manager's hostPath provisioner (kind's is
 * WaitForFirstConsumer with a local-path provisioner; Immediate here lets a claim bind before any
 * pod uses it, which tests of charts and operators often check; a class of your own may be
 * WaitForFirstConsumer, which the scheduler's VolumeBinding serves).
 */
export const DEFAULT_STORAGE_CLASS = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'kubernetes.io/host-path',
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'Immediate',
};

export { CLUSTER_CIDR } from './cluster-cidr.js';

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  // tsc alone does not make it: said at once rather than as components that never come up.
  if (!existsSync(KUBELITE_BIN)) throw new Error(`${KUBELITE_BIN} is missing: build it with npm run build`);
  const refusal = opts.runtime === 'process' ? rootRefusal(opts.allowRoot === true) : undefined;
  if (refusal) throw new Error(refusal);
  const started = performance.now();
  const startedAt = Date.now();
  const temporary = opts.dataDir === undefined;
  const dataDir = resolve(opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kubelite-cluster-')));
  mkdirSync(dataDir, { recursive: true });
  assertWritableDataDir(dataDir);
  cleanUpOnExit();
  if (temporary) temporaryDirs.add(dataDir);
  const progress = opts.progress ?? (() => {});
  if (opts.fromSnapshot !== undefined) {
    if ((opts.storage ?? 'lmdb') !== 'lmdb') throw new Error('a snapshot is restored into lmdb storage: --from-snapshot goes with --storage lmdb');
    progress(`restoring the objects of ${opts.fromSnapshot}`);
    await restoreSnapshotFile(dataDir, opts.fromSnapshot);
  }
  progress(`writing certificates and kubeconfigs to ${dataDir}`);
  const bind = opts.bindAddress ?? '127.0.0.1';
  const replicas = { apiservers: opts.apiservers ?? 1, controllerManagers: opts.controllerManagerReplicas ?? 1, schedulers: opts.schedulerReplicas ?? 1 };
  const replicasRefusal = replicasProblem(replicas, opts.storage ?? 'lmdb', bind);
  if (replicasRefusal) throw new Error(replicasRefusal);
  const apiserverHosts = apiserverAddresses(bind, replicas.apiservers);
  // Every port is chosen here, before the components start, because the kubeconfigs and the
  // API server's certificate name them.
  const taken = new Set<number>();
  const pickPort = async () => {
    const p = await freeListenPort(bind, taken);
    taken.add(p);
    return p;
  };
  const port = opts.port === undefined || opts.port === 0 ? await pickPort() : opts.port;
  taken.add(port);
  const host = bind === '0.0.0.0' ? '127.0.0.1' : bind;
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // The PKI and every component's kubeconfig exist before any component starts.
  const credentials = await writeClusterCredentials(dataDir, server, bind, apiserverHosts.slice(1));
  const servers = replicas.apiservers === 1 ? [server] : apiserverHosts.map((h) => `https://${h}:${port}`);
  const kubeconfig = credentials.admin.path;
  // Without a log of its own (the library), the components' last lines go into a start-up
  // failure's message: a cluster that never got ready in someone's CI says why.
  const logTail: string[] = [];
  const log = opts.log ?? ((line: string) => {
    logTail.push(line);
    if (logTail.length > LOG_TAIL_LINES) logTail.shift();
  });
  const nodes = opts.nodes ?? 3;
  const storageArgs = ['--storage', opts.storage ?? 'lmdb', '--data-dir', dataDir, ...(opts.etcdServers ? ['--etcd-servers', opts.etcdServers.join(',')] : [])];
  // One service account signing key for the API server (TokenRequest) and the controller manager
  // (legacy token Secrets), made before either starts; the cluster CA is what pods trust
  // (kube-root-ca.crt, ca.crt of token Secrets).
  const saKey = join(dataDir, 'pki', 'sa.key');
  ensureSigningKey(saKey, join(dataDir, 'pki', 'sa.pub'));
  const serviceAccountArgs = ['--service-account-private-key-file', saKey, '--root-ca-file', join(dataDir, 'pki', 'ca.crt')];
  // kube-controller-manager's default client limit (20 requests/s, burst 30) is sized for a shared
  // production API server; on a one-machine cluster it would be the bottleneck of every rollout
  // (a 10-replica image change takes seconds, 10,000 pods many minutes), so up raises it as the
  // scheduler and the nodes already are, unless the caller sets it.
  const flagArgs = componentArgsOf(opts);
  const cmArgs = [...flagArgs.controllerManager, ...(opts.args?.controllerManager ?? [])];
  const cmLimits = [...(cmArgs.includes('--kube-api-qps') ? [] : ['--kube-api-qps', '1000']), ...(cmArgs.includes('--kube-api-burst') ? [] : ['--kube-api-burst', '2000'])];
  // Pod CIDRs come from the controller manager's nodeipam, as kind and kubeadm clusters have them,
  // unless the caller configures allocation or the controllers itself (the nodes then keep their own).
  const ownIpam = !cmArgs.some((a) => /^--(allocate-node-cidrs|cluster-cidr|controllers)\b/.test(a));
  const ipamArgs = ownIpam ? ['--allocate-node-cidrs', `--cluster-cidr=${clusterCIDRFor(nodes)}`] : [];
  // CSRs are signed by the cluster CA, as kubeadm configures kube-controller-manager
  const signingArgs = cmArgs.some((a) => a.startsWith('--cluster-signing-')) ? [] : ['--cluster-signing-cert-file', credentials.caCertFile, '--cluster-signing-key-file', credentials.caKeyFile];
  // the default StorageClass's claims are provisioned by the hostPath provisioner
  const provisionerArgs = cmArgs.some((a) => a.startsWith('--enable-hostpath-provisioner')) ? [] : ['--enable-hostpath-provisioner'];
  // The components start at once: they find the API server on its known address and retry until
  // it answers (it holds their requests until its policy is in place, their grants included:
  // componentPolicy), which is what makes the whole cluster ready in about a second.
  // Each node acts as system:node:<name> by impersonation through the nodes process's own credential.
  rmSync(join(dataDir, OBSOLETE_NODE_CERT_DIR), { recursive: true, force: true });
  const nodeArgs = [...flagArgs.nodes, ...(opts.args?.nodes ?? [])];
  // One kubelet API listener for all the nodes, on a free port of the bind address; the API server
  // dials it there for every node (its addresses do not exist), with its own client certificate.
  const kubeletPort = await pickPort();
  const kubeletArgs = ['--kubelet-port', String(kubeletPort), '--kubelet-address', host, '--tls-cert-file', credentials.kubeletServing.certFile, '--tls-private-key-file', credentials.kubeletServing.keyFile, '--client-ca-file', credentials.caCertFile];
  const apiserverKubeletArgs = ['--kubelet-client-certificate', credentials.kubeletClient.certFile, '--kubelet-client-key', credentials.kubeletClient.keyFile, '--kubelet-certificate-authority', credentials.caCertFile, '--kubelet-address-override', host];
  const runtimeArgs = opts.runtime === 'process' ? ['--runtime', 'process', '--runtime-dir', join(dataDir, 'pods'), ...(opts.processPodCIDR ? ['--process-pod-cidr', opts.processPodCIDR] : []), ...(opts.allowRoot ? ['--allow-root'] : [])] : [];
  const launch = launcherOf(opts.singleProcess);
  const nodesComponent = nodes > 0 ? new Component('nodes', ['nodes', '--kubeconfig', credentials.nodes.path, '--impersonate-nodes', ...kubeletArgs, '--nodes', String(nodes), '--lifecycle-taints=false', '--rotate-server-certificates', ...(ownIpam ? ['--register-pod-cidr=false'] : []), ...runtimeArgs, ...nodeArgs], log, launch) : undefined;
  // kubeadm's authorizers: the Node authorizer (what kubelets may do, each only for itself) before RBAC.
  const apiserverArgs = [...flagArgs.apiserver, ...(opts.args?.apiserver ?? [])];
  // ... and kubeadm's bootstrap tokens (kubeadm token create / join flows)
  const authorizationArgs = [...(apiserverArgs.some((a) => a.startsWith('--authorization-mode')) ? [] : ['--authorization-mode', 'Node,RBAC']), '--enable-bootstrap-token-auth'];
  // ... and the components' grants, this start's nodes named
  const policyFile = join(dataDir, 'component-policy.json');
  writeFileSync(policyFile, JSON.stringify(componentPolicy(nodeNamesOf(nodes, nodeArgs))));
  authorizationArgs.push('--bootstrap-policy-file', policyFile);
  // The controller manager and the scheduler serve /healthz on free ports the API server is told
  // of, so that componentstatuses reports their real health.
  const cmPort = await pickPort();
  const schedulerPort = await pickPort();
  const healthURL = (p: number) => `http://${host.includes(':') ? `[${host}]` : host}:${p}/healthz`;
  const healthArgs = ['--component-health-url', `scheduler=${healthURL(schedulerPort)}`, '--component-health-url', `controller-manager=${healthURL(cmPort)}`];
  // Several API servers: each binds and advertises its own address; standby replicas of the
  // controller manager and the scheduler serve /healthz on ports of their own and each talks to
  // an API server in turn (--master), the first replica's ports being the ones componentstatuses asks.
  const several = replicas.apiservers > 1;
  const apiservers = apiserverHosts.map(
    (h, i) => new Component(replicaName('apiserver', i), ['apiserver', ...storageArgs, '--bind-address', several ? h : bind, ...(several ? ['--advertise-address', h] : []), '--port', String(port), ...authorizationArgs, ...healthArgs, ...apiserverKubeletArgs, ...(opts.runtime === 'process' ? ['--process-pod-cidr', opts.processPodCIDR ?? DEFAULT_PROCESS_POD_CIDR] : []), ...apiserverArgs], log, launch),
  );
  const replicaPort = async (i: number, first: number) => (i === 0 ? first : pickPort());
  const master = (i: number) => (several ? ['--master', servers[i % servers.length]!] : []);
  const controllerManagers = [];
  for (let i = 0; i < replicas.controllerManagers; i++) {
    const p = await replicaPort(i, cmPort);
    controllerManagers.push(new Component(replicaName('controller-manager', i), ['controller-manager', '--kubeconfig', credentials.controllerManager.path, ...master(i), '--address', host, '--port', String(p), '--leader-elect-resource-lock', 'leases', '--use-service-account-credentials', ...serviceAccountArgs, ...cmLimits, ...ipamArgs, ...signingArgs, ...provisionerArgs, ...cmArgs], log, launch));
  }
  const schedulers = [];
  for (let i = 0; i < replicas.schedulers; i++) {
    const p = await replicaPort(i, schedulerPort);
    schedulers.push(new Component(replicaName('scheduler', i), ['scheduler', '--kubeconfig', credentials.scheduler.path, ...master(i), '--bind-address', host, '--port', String(p), ...(opts.args?.scheduler ?? [])], log, launch));
  }
  const components = [...apiservers, ...controllerManagers, ...schedulers, ...(nodesComponent ? [nodesComponent] : [])];
  progress(`starting the API server on ${server}, the controller manager, the scheduler${nodes > 0 ? ` and ${nodes} simulated node${nodes === 1 ? '' : 's'}` : ''}`);
  for (const c of components) c.start();

  // One TLS context for every connection: https.Agent would make one per connection (~3 ms:
  // the key, certificate and CA parsed again), and until the API server listens each poll is one.
  const agent = new Agent({ keepAlive: true, secureContext: createSecureContext({ ca: credentials.ca, cert: credentials.admin.cert, key: credentials.admin.key }) });
  const readiness = new NodeReadiness(agent, server, startedAt, (url) => getJson(agent, url));
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopComponents());
  const stopComponents = async () => {
    readiness.close();
    agent.destroy();
    // The API server goes last, so that the controller manager and the scheduler can still release
    // their leader leases: otherwise the next `up` on this data dir waits out the lease (15 s).
    await Promise.all(components.filter((c) => !apiservers.includes(c)).map((c) => c.stop()));
    await Promise.all(apiservers.map((c) => c.stop()));
    if (temporary) {
      rmSync(dataDir, { recursive: true, force: true });
      temporaryDirs.delete(dataDir);
    }
  };
  // KWOK's CI gives 10,000 nodes 180 s: the default grows with the nodes past 60 s.
  const readyTimeoutMs = opts.readyTimeoutMs ?? Math.max(60_000, nodes * 18);
  const deadline = Date.now() + readyTimeoutMs;
  let bound = false;
  let pollMs = 25;
  const passed = new Set<string>();
  let reported: string | undefined;
  for (;;) {
    if (opts.signal?.aborted) {
      await stop();
      throw new Error('cluster start aborted');
    }
    if (!bound && (await getJson(agent, `${server}/readyz`)).status === 200 && (await installDefaults(agent, server))) bound = true;
    const polled = performance.now();
    const waiting = bound ? await missing(agent, servers, nodes, readiness, passed) : 'the API server';
    // A poll that lists the nodes (the first, or after their watch ended) grows with them (10,000
    // Nodes are ~30 MB of JSON): the next waits four times what it took, so that polls cost the API
    // server and this process at most a fifth; with the watch running a poll asks for nothing.
    pollMs = Math.max(25, 4 * (performance.now() - polled));
    if (waiting !== reported) progress(waiting === '' ? 'control plane and nodes ready' : `waiting for ${waiting}`);
    reported = waiting;
    if (waiting === '') break;
    if (Date.now() > deadline) {
      await stop();
      const tail = logTail.length > 0 ? `\nthe components' last log lines:\n${logTail.join('\n')}` : '';
      throw new Error(`cluster not ready after ${readyTimeoutMs} ms: waiting for ${waiting}${tail}`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  readiness.close();
  agent.destroy();
  if (opts.crds?.length || opts.manifests?.length) {
    progress('installing CRDs and manifests');
    try {
      await installObjects(kubeconfig, { crds: opts.crds ?? [], manifests: opts.manifests ?? [], deadline, signal: opts.signal });
    } catch (e) {
      await stop();
      throw e;
    }
  }
  const kubeconfigYaml = readFileSync(kubeconfig, 'utf8');
  const admin = { server, ca: credentials.ca, cert: credentials.admin.cert, key: credentials.admin.key };
  return {
    kubeconfig,
    kubeconfigYaml,
    server,
    servers,
    dataDir,
    readyAfterMs: performance.now() - started,
    kubeConfig: () => loadClientNodeConfig(kubeconfigYaml),
    snapshot: () => takeClusterSnapshot(admin),
    restore: (handle) => restoreClusterSnapshot(admin, handle),
    processes: () => components.flatMap((c) => (c.pid === undefined ? [] : [{ name: c.name, pid: c.pid }])),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
