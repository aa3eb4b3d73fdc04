// `kubelite nodes`: the simulated node agent — registers N nodes and runs the pods bound to them,
// until SIGINT/SIGTERM. How pods behave: src/nodes/README.md.
//
// Each node acts as its kubelet would, `system:node:<name>` in `system:nodes`, so that the API
// server's Node authorizer and NodeRestriction admission judge every node's writes as a kubelet's,
// in one of two ways:
//   --impersonate-nodes: the agent authenticates once (--kubeconfig) and sends each node's
//     requests as that node by impersonation, over one shared connection pool (nodes/identity.ts;
//     what `kubelite up` does). The kubeconfig's user needs `impersonate` on the nodes' users and
//     the system:nodes group (the ClusterRole of nodeImpersonatorRole) and nothing of the CA.
//   --cluster-signing-cert-file/--cluster-signing-key-file: each node gets a client certificate
//     of its own (node-certificates.ts) and its own small connection pool — as a kubelet
//     authenticates, for an agent that may not impersonate or an audit log that must show each
//     node as the authenticated user; each node then costs a TLS context and its connections.
// --kubeconfig is also the agent's own credential: the shared pod and node informers (one
// list+watch for all nodes), and what a node may not do and kubelite's missing node lifecycle
// controller would (the not-ready taint, the Gone fault's Node delete). With neither, every node
// acts as --kubeconfig's user.
import { InvalidArgumentError } from 'commander';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeconfigError, loadRestConfig } from '../client/kubeconfig.js';
import { KUBERNETES_CLIENT_VERSION, newClientset } from '../client/rest.js';
import { TokenBucket } from '../client/rate-limit.js';
import { untilListening } from '../client/server-listening.js';
import { NodeClients, nodeClientCertificates } from './node-certificates.js';
import { nodeIdentity } from '../nodes/identity.js';
import type { RestClientset } from '../client/rest.js';
import { kubeletServing, type KubeletServing } from './kubelet-serving.js';
import { ServingCertificateManager } from '../nodes/kubelet/serving-certificate.js';
import { realClock } from '../client/clock.js';
import { parseDuration } from '../machinery/codec/time.js';
import { parseOrExit, program } from '../machinery/flags.js';
import { LogRing } from '../nodes/logs/ring.js';
import { parseLoopbackCIDR } from '../nodes/process/loopback-ips.js';
import { DEFAULT_PROCESS_POD_CIDR, rootRefusal } from '../nodes/process/runtime.js';
import { DEFAULT_EVICTION_HARD, parseThresholds } from '../nodes/eviction.js';
import { processContext, type ComponentContext } from '../machinery/component-context.js';
import { limitHeapGrowth } from './heap-growth.js';
import { capYoungGeneration } from './young-generation.js';

function durationMs(min: number): (value: string) => number {
  return (value) => {
    let ns: bigint;
    try {
      ns = parseDuration(/^\d+(\.\d+)?$/.test(value) ? `${value}s` : value);
    } catch {
      throw new InvalidArgumentError('must be a duration such as 500ms, 10s or 5m');
    }
    const ms = Number(ns / 1_000_000n);
    if (ms < min) throw new InvalidArgumentError(`must be at least ${min}ms`);
    return ms;
  };
}

function integer(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`must be an integer ≥ ${min}`);
    return n;
  };
}

function number(min: number): (value: string) => number {
  return (value) => {
    const n = value === 'inf' || value === 'infinity' ? Infinity : Number(value);
    if (value.trim() === '' || Number.isNaN(n) || n < min) throw new InvalidArgumentError(`must be a number ≥ ${min}`);
    return n;
  };
}

function bool(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('must be true or false');
}

function quantity(value: string): string {
  if (!/^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.test(value)) throw new InvalidArgumentError('must be a quantity such as 4, 500m, 8Gi');
  return value;
}

function list(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function labels(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list(value)) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new InvalidArgumentError(`"${kv}" is not key=value`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

function thresholds(value: string): string {
  try {
    parseThresholds(value);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  return value;
}

function choice<T extends string>(values: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${values.join(', ')}`);
    return value as T;
  };
}

function loopbackCIDR(value: string): string {
  if (!parseLoopbackCIDR(value)) throw new InvalidArgumentError('must be a loopback range 127.x.0.0/16 to /24');
  return value;
}

function unready(value: string): number | string[] {
  return /^\d+$/.test(value) ? Number(value) : list(value);
}

interface NodesFlags {
  kubeconfig?: string;
  master?: string;
  kubeApiQps?: number;
  kubeApiBurst?: number;
  kubeApiContentType: string;
  nodes: number;
  nodeNamePrefix: string;
  firstNodeIndex: number;
  nodeCpu: string;
  nodeMemory: string;
  nodePods: number;
  nodeEphemeralStorage: string;
  nodeArch: string;
  nodeInstanceType: string;
  nodeLabels?: Record<string, string>;
  zones?: string[];
  region?: string;
  nodeLeaseRenewInterval: number;
  nodeLeaseDurationSeconds: number;
  nodeStatusUpdateFrequency: number;
  nodeStatusReportFrequency: number;
  podStartDelay: number;
  defaultRunSeconds: number;
  defaultExitCode: number;
  defaultReadyAfterSeconds: number;
  defaultStopSeconds?: number;
  unreadyNodes?: number | string[];
  imagePullTime: number;
  imagePullFailures?: string[];
  imagePullBackoff: number;
  evictionHard: string;
  evictionMonitoringInterval: number;
  evictionPressureTransitionPeriod: number;
  lifecycleTaints: boolean;
  registerPodCidr: boolean;
  csiDriver: boolean;
  eventQps: number;
  workers: number;
  impersonateNodes: boolean;
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
  certDir?: string;
  kubeletPort?: number;
  kubeletAddress: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  runtime: 'simulated' | 'process';
  runtimeDir?: string;
  processPodCidr: string;
  allowRoot: boolean;
  rotateServerCertificates: boolean;
}

/** The kubelet's port when --kubelet-port is not given. */
const DEFAULT_KUBELET_PORT = 10250;

/**
 * Connections the impersonated nodes share (HTTP/1.1 keep-alive): as many as the pod status
 * writers (--workers' default), so they never wait for a socket; registration and heartbeats of
 * 10,000 nodes queue behind one another on them as they do behind the request budget. No more:
 * the API server runs the nodes' requests in the `node-high` (Nodes, Leases) and `system`
 * priority levels, ~98 and ~74 of its 600 seats; with 250 connections for 10,000 nodes it refused 172,263 requests with 429 in six minutes
 * (each retried after a second), where 64 queue here and get none.
 */
const NODE_CONNECTIONS = 64;

/** One client per node, each acting as that node over `transport`'s connections (made on first use). */
function impersonatedNodeClients(transport: RestClientset): (name: string) => RestClientset {
  const clients = new Map<string, RestClientset>();
  return (name) => {
    let c = clients.get(name);
    if (c === undefined) clients.set(name, (c = transport.impersonating(nodeIdentity(name))));
    return c;
  };
}


export async function nodesMain(argv: string[], ctx: ComponentContext = processContext()): Promise<number> {
  const cmd = program('nodes', 'Simulated nodes: registers N Node objects, keeps them alive (Lease + NodeReady heartbeats) and runs the pods bound to them as a kubelet reports them, without a container runtime. Pod behaviour comes from kubelite.dev/* annotations (see src/nodes/README.md).', ctx)
    .option('--kubeconfig <path>', 'kubeconfig of the API server (with the signing flags: the agent\'s own credential for the not-ready taint and the Gone fault)')
    .option('--impersonate-nodes', 'each node acts as system:node:<name> in system:nodes by impersonation, through --kubeconfig\'s credential over one shared connection pool (that user needs impersonate on those users and that group)', false)
    .option('--cluster-signing-cert-file <file>', 'PEM CA certificate that signs each node\'s client certificate (system:node:<name> in system:nodes); without it or --impersonate-nodes every node acts as --kubeconfig\'s user')
    .option('--cluster-signing-key-file <file>', 'PEM private key of --cluster-signing-cert-file')
    .option('--cert-dir <dir>', 'where the nodes\' client certificates and their key are kept and reused (default: issued anew at each start)')
    .option('--kubelet-port <port>', `port of the nodes' kubelet HTTPS API, one listener for all of them (0: a free one; default ${DEFAULT_KUBELET_PORT}, or a free one when that is taken)`, integer(0))
    .option('--kubelet-address <ip>', 'address the kubelet API listens on (the API server reaches every node there: see apiserver --kubelet-address-override)', '127.0.0.1')
    .option('--tls-cert-file <file>', 'PEM serving certificate of the kubelet API (default: a self-signed one made at start)')
    .option('--tls-private-key-file <file>', 'PEM private key of --tls-cert-file')
    .option('--client-ca-file <file>', 'PEM CA bundle client certificates of the kubelet API must chain to (default: --cluster-signing-cert-file; none: only bearer tokens authenticate)')
    .option('--master <url>', 'the API server URL (overrides the kubeconfig\'s)')
    .option('--kube-api-qps <qps>', 'client requests per second to the API server, over all nodes (0: unlimited; default 1000, or 0.3 per node past 3,333 nodes: their leases alone take 0.1 per node)', number(0))
    .option('--kube-api-burst <n>', 'client request burst (default twice the qps)', integer(1))
    .option('--kube-api-content-type <type>', 'request/response content type', 'application/vnd.kubernetes.protobuf')
    .option('--nodes <n>', 'how many nodes to simulate', integer(0), 3)
    .option('--node-name-prefix <prefix>', 'node names are <prefix><index>', 'kubelite-node-')
    .option('--first-node-index <n>', 'the index of the first node (several agents side by side)', integer(0), 0)
    .option('--node-cpu <quantity>', 'capacity and allocatable cpu of each node', quantity, '4')
    .option('--node-memory <quantity>', 'capacity and allocatable memory of each node', quantity, '8Gi')
    .option('--node-pods <n>', 'capacity and allocatable pods of each node', integer(0), 110)
    .option('--node-ephemeral-storage <quantity>', 'capacity and allocatable ephemeral-storage of each node', quantity, '100Gi')
    .option('--node-arch <arch>', 'kubernetes.io/arch and nodeInfo.architecture', 'amd64')
    .option('--node-instance-type <type>', 'node.kubernetes.io/instance-type label', 'kubelite')
    .option('--node-labels <k=v,...>', 'extra labels of every node', labels)
    .option('--zones <a,b,c>', 'topology.kubernetes.io/zone labels, given round-robin', list)
    .option('--region <region>', 'topology.kubernetes.io/region label')
    .option('--node-lease-renew-interval <duration>', 'how often each node renews its Lease in kube-node-lease', durationMs(10), 10_000)
    .option('--node-lease-duration-seconds <n>', 'the Leases\' leaseDurationSeconds', integer(1), 40)
    .option('--node-status-update-frequency <duration>', 'how often each node computes its status (written when it changed)', durationMs(10), 10_000)
    .option('--node-status-report-frequency <duration>', 'how often each node writes its status when nothing changed', durationMs(10), 300_000)
    .option('--pod-start-delay <duration>', 'how long containers stay ContainerCreating', durationMs(0), 0)
    .option('--default-run-seconds <s>', 'run time of restartPolicy Never/OnFailure containers without annotations or a recognised command', number(0), 1)
    .option('--default-exit-code <n>', 'exit code of containers that end, without annotations or a recognised command', integer(0), 0)
    .option('--default-ready-after-seconds <s>', 'time to Ready of containers without a readiness probe or annotation', number(0), 0)
    .option('--default-stop-seconds <s>', 'time a container takes to exit after SIGTERM (default: shell forms such as sleep ignore SIGTERM and stop at the grace period\'s end, other commands exit at once)', number(0))
    .option('--image-pull-time <duration>', 'how long an image pull takes (an image not on the node, or imagePullPolicy Always; 0: at once, the pod reported Running in its first status write)', durationMs(0), 0)
    .option('--image-pull-failures <globs>', 'comma-separated globs (* and ?) of images whose every pull fails, matched against the image as written and as docker.io/library/name:tag', list)
    .option('--image-pull-backoff <duration>', 'the first wait of the image pull back-off after a failed pull (doubling up to 30 times as long; the kubelet\'s: 10s to 300s)', durationMs(10), 10_000)
    .option('--eviction-hard <thresholds>', 'hard eviction thresholds, as the kubelet\'s flag (signals memory.available, nodefs.available, imagefs.available, pid.available; a quantity or a percentage)', thresholds, DEFAULT_EVICTION_HARD)
    .option('--eviction-monitoring-interval <duration>', 'how often each node\'s eviction manager observes its signals and evicts (the kubelet\'s 10s)', durationMs(10), 10_000)
    .option('--eviction-pressure-transition-period <duration>', 'how long a pressure condition stays True after its threshold was last met', durationMs(0), 300_000)
    .option('--register-pod-cidr <bool>', 'whether each node registers with its own spec.podCIDR (false: it waits for the controller manager\'s nodeipam, --allocate-node-cidrs, to assign one, and starts no pod until then)', bool, true)
    .option('--csi-driver <bool>', 'whether the nodes run the simulated CSI driver csi.kubelite.dev (attach, provision, expand) and start a pod only once its volumes are attached', bool, true)
    .option('--lifecycle-taints <bool>', 'whether the agent keeps the node.kubernetes.io/not-ready:NoSchedule taint itself (for a cluster without a controller manager running nodelifecycle)', bool, true)
    .option('--unready-nodes <n|names>', 'nodes that stay NotReady: a count (the last ones) or comma-separated names', unready)
    .option('--event-qps <qps>', 'kubelet events per second over all nodes, beyond which they are dropped (0: no events)', number(0), 50)
    .option('--runtime <runtime>', 'simulated (every container simulated) or process (containers of the host-image allow-list run as real processes: src/nodes/process/README.md)', choice(['simulated', 'process'] as const), 'simulated')
    .option('--runtime-dir <dir>', 'with --runtime process: where the pods\' directories are kept (default: a temporary directory)')
    .option('--process-pod-cidr <cidr>', 'with --runtime process: the loopback range the pods\' IPs come from (127.x.0.0/16 to /24)', loopbackCIDR, DEFAULT_PROCESS_POD_CIDR)
    .option('--allow-root', 'with --runtime process: run pods\' processes even as root (no isolation: they have root\'s access to the host)', false)
    .option('--rotate-server-certificates', 'request the kubelet API\'s serving certificate through a CertificateSigningRequest (signer kubernetes.io/kubelet-serving), approve it when this agent may, serve it once issued and renew it before it expires (the --tls-cert-file or self-signed one serves meanwhile)', false)
    .option('--workers <n>', 'concurrent pod status writers (each a round trip to the API server; every kubelet has its own status manager, so 16 for 100 nodes left thousands of bound pods waiting to be reported Running)', integer(1), 64);
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<NodesFlags>();
  // What a node keeps is ~10 KiB (its Node in the informer's cache, its SimNode, client and
  // timers); what the process holds beyond that is garbage between collections — requests waiting
  // for a connection live long enough to reach the old generation. The API server's bounds (see
  // apiserver.ts) keep that garbage to half the live heap (64 MiB at least: heap-growth.ts) and the young generation to 16 MB, only
  // where the nodes have their process to themselves.
  if (ctx.ownsProcess) {
    capYoungGeneration(16 * 1024 * 1024);
    limitHeapGrowth(50, 64 * 1024 * 1024);
  }
  // The process's recent log lines are also served by the kubelet API (/logs/kubelite-nodes.log).
  const recent = new LogRing(256 * 1024);
  const log = (fields: Record<string, unknown>) => {
    const line = JSON.stringify({ time: new Date().toISOString(), component: 'nodes', ...fields });
    recent.append({ at: Date.now(), text: line });
    ctx.stderr(`${line}\n`);
  };
  let config;
  try {
    config = loadRestConfig({ kubeconfig: o.kubeconfig ?? process.env.KUBECONFIG, master: o.master });
  } catch (e) {
    if (e instanceof KubeconfigError) {
      ctx.stderr(`kubelite nodes: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if ((o.clusterSigningCertFile === undefined) !== (o.clusterSigningKeyFile === undefined)) {
    ctx.stderr('kubelite nodes: --cluster-signing-cert-file and --cluster-signing-key-file go together\n');
    return 2;
  }
  if (o.impersonateNodes && o.clusterSigningCertFile !== undefined) {
    ctx.stderr('kubelite nodes: --impersonate-nodes and --cluster-signing-cert-file are two ways of acting as the nodes: give one\n');
    return 2;
  }
  const refusal = o.runtime === 'process' ? rootRefusal(o.allowRoot) : undefined;
  if (refusal) {
    ctx.stderr(`kubelite nodes: ${refusal}\n`);
    return 2;
  }
  const prefix = o.nodeNamePrefix;
  const nodeNames = Array.from({ length: o.nodes }, (_, i) => `${prefix}${o.firstNodeIndex + i}`);
  let certificates: ReturnType<typeof nodeClientCertificates> | undefined;
  if (o.clusterSigningCertFile !== undefined && o.clusterSigningKeyFile !== undefined) {
    try {
      certificates = nodeClientCertificates({ caCertFile: o.clusterSigningCertFile, caKeyFile: o.clusterSigningKeyFile, ...(o.certDir !== undefined ? { certDir: o.certDir } : {}), nodeNames });
    } catch (e) {
      ctx.stderr(`kubelite nodes: ${(e as Error).message}\n`);
      return 2;
    }
  }
  if ((o.tlsCertFile === undefined) !== (o.tlsPrivateKeyFile === undefined)) {
    ctx.stderr('kubelite nodes: --tls-cert-file and --tls-private-key-file go together\n');
    return 2;
  }
  let serving: KubeletServing;
  try {
    serving = await kubeletServing({ certFile: o.tlsCertFile, keyFile: o.tlsPrivateKeyFile, clientCAFile: o.clientCaFile ?? o.clusterSigningCertFile, address: o.kubeletAddress, nodeNames });
  } catch (e) {
    ctx.stderr(`kubelite nodes: ${(e as Error).message}\n`);
    return 2;
  }
  if (serving.clientCA === undefined) log({ msg: 'kubelet API: no --client-ca-file, only bearer tokens (TokenReview) authenticate' });
  const userAgent = `kubelet/${KUBERNETES_CLIENT_VERSION} (${process.platform}/${process.arch}) kubernetes/kubelite`;
  // One request budget for the whole agent, whichever identity a request goes out as.
  const qps = o.kubeApiQps ?? Math.max(1000, o.nodes * 0.3);
  const limiter = new TokenBucket({ qps, burst: o.kubeApiBurst ?? Math.max(1, Math.round(2 * qps)) });
  const clientOptions = { userAgent, contentType: o.kubeApiContentType, limiter, log };
  const clientset = newClientset({ config, ...clientOptions });
  const nodeClients = certificates ? new NodeClients(config, certificates, clientOptions) : undefined;
  const nodeTransport = o.impersonateNodes ? newClientset({ config, ...clientOptions, maxSockets: NODE_CONNECTIONS }) : undefined;
  const nodeClientset = nodeClients?.forNode ?? (nodeTransport ? impersonatedNodeClients(nodeTransport) : undefined);
  const { startNodes } = await import('../nodes/index.js');
  // Started together with the API server (`kubelite up`), the nodes register as soon as it listens
  // rather than backing off from refused registrations; SIGTERM meanwhile stops the agent.
  const stopWaiting = new AbortController();
  const stopRequested = ctx.stopRequested();
  void stopRequested.then(() => stopWaiting.abort());
  await untilListening(config.server, stopWaiting.signal);
  if (stopWaiting.signal.aborted) return 0;
  const started = Date.now();
  const kubeletServer = { port: o.kubeletPort ?? DEFAULT_KUBELET_PORT, address: o.kubeletAddress, tls: serving, processLog: () => recent.linesFrom(recent.start).map((l) => `${l.text}\n`).join('') };
  const nodeOptions = {
    clientset,
    ...(nodeClientset ? { nodeClientset } : {}),
    nodes: o.nodes,
    namePrefix: o.nodeNamePrefix,
    firstIndex: o.firstNodeIndex,
    cpu: o.nodeCpu,
    memory: o.nodeMemory,
    pods: o.nodePods,
    ephemeralStorage: o.nodeEphemeralStorage,
    arch: o.nodeArch,
    instanceType: o.nodeInstanceType,
    ...(o.nodeLabels ? { labels: o.nodeLabels } : {}),
    ...(o.zones ? { zones: o.zones } : {}),
    ...(o.region ? { region: o.region } : {}),
    leaseRenewIntervalMs: o.nodeLeaseRenewInterval,
    leaseDurationSeconds: o.nodeLeaseDurationSeconds,
    statusUpdateFrequencyMs: o.nodeStatusUpdateFrequency,
    statusReportFrequencyMs: o.nodeStatusReportFrequency,
    podStartDelayMs: o.podStartDelay,
    behaviour: { jobRunSeconds: o.defaultRunSeconds, exitCode: o.defaultExitCode, readyAfterSeconds: o.defaultReadyAfterSeconds, ...(o.defaultStopSeconds !== undefined ? { stopSeconds: o.defaultStopSeconds } : {}) },
    ...(o.unreadyNodes !== undefined ? { unreadyNodes: o.unreadyNodes } : {}),
    imagePull: { pullMs: o.imagePullTime, failures: o.imagePullFailures ?? [], backoffInitialMs: o.imagePullBackoff },
    eviction: { hard: o.evictionHard, monitoringIntervalMs: o.evictionMonitoringInterval, pressureTransitionPeriodMs: o.evictionPressureTransitionPeriod },
    lifecycleTaints: o.lifecycleTaints,
    registerPodCIDR: o.registerPodCidr,
    csiDriver: o.csiDriver,
    events: o.eventQps > 0,
    eventQps: o.eventQps,
    workers: o.workers,
    ...(o.runtime === 'process' ? { processRuntime: processRuntimeOptions(o, config.server) } : {}),
    log: (f: Record<string, unknown>) => {
      if (f.msg !== 'node registered') log(f);
    },
  };
  let handle;
  try {
    handle = await startNodes({ ...nodeOptions, kubeletServer });
  } catch (e) {
    // The kubelet's default port taken (another agent, a real kubelet): a free one, unless the port was asked for.
    // The nodes report the port they are served on, so the API server finds them there.
    if (o.kubeletPort !== undefined || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    handle = await startNodes({ ...nodeOptions, kubeletServer: { ...kubeletServer, port: 0 } });
    log({ msg: `kubelet API: port ${DEFAULT_KUBELET_PORT} is in use, serving on ${handle.kubelet?.port} instead` });
  }
  // The serving certificate through the certificates API (the bootstrap one serves until it is issued).
  const firstNode = handle.nodeNames[0];
  const servingCertificates =
    o.rotateServerCertificates && firstNode !== undefined && handle.kubelet
      ? new ServingCertificateManager({
          node: firstNode,
          nodeClient: nodeClientset?.(firstNode) ?? clientset,
          approverClient: clientset,
          dnsNames: ['localhost', ...handle.nodeNames],
          ips: [...new Set([...(/^[\d.]+$|:/.test(o.kubeletAddress) && o.kubeletAddress !== '0.0.0.0' ? [o.kubeletAddress] : ['127.0.0.1']), ...handle.agent.nodeIPs()])],
          clock: realClock,
          log,
          serve: (cert, key) => handle.kubelet?.setServingCertificate(cert, key),
        })
      : undefined;
  servingCertificates?.start();
  log({ msg: 'nodes started', nodes: o.nodes, registered: handle.agent.registeredCount(), ms: Date.now() - started, ...(certificates ? { identities: 'system:node:<name>', certificatesIssued: certificates.issued } : {}), ...(nodeTransport ? { identities: 'system:node:<name> (impersonated)' } : {}) });
  await stopRequested;
  servingCertificates?.stop();
  await handle.stop();
  clientset.close();
  nodeClients?.close();
  nodeTransport?.close();
  return 0;
}

/** The process runtime's options: its directory, the pods' range, and where the pods reach the API server. */
function processRuntimeOptions(o: NodesFlags, server: string): { dir: string; podCIDR: string; apiServer?: { host: string; port: number } } {
  const url = new URL(server);
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { dir: o.runtimeDir ?? mkdtempSync(join(tmpdir(), 'kubelite-pods-')), podCIDR: o.processPodCidr, apiServer: { host, port } };
}
