// `kubelite up`: a whole local cluster (API server, controller manager, scheduler, simulated
// nodes) until SIGINT/SIGTERM; prints `ready: kubeconfig=<path> server=<url>` once it is usable.
import { rootRefusal } from '../nodes/process/runtime.js';
import { InvalidArgumentError } from 'commander';
import { parseEtcdServers } from '../storage/open.js';
import { SINGLE_PROCESS_MODES, startCluster, type SingleProcessMode } from '../up/cluster.js';
import { provideComponentMain } from '../up/in-loop.js';
import { runComponent } from './commands.js';
import { replicasProblem } from '../up/replicas.js';
import { parseChoice, parseOrExit, parsePort, program } from '../machinery/flags.js';
import { mergeContext, removeContext, userKubeconfigPath } from '../up/kubeconfig-context.js';
import { readPidFile, removePidFile, writePidFile } from '../up/pid-file.js';
import { componentLogFilter, stageWriter } from './up-output.js';
import { portInUse } from './port-check.js';

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10_000) throw new InvalidArgumentError('must be an integer from 0 to 10000');
  return n;
}

function parseRate(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of requests per second, 0 or more');
  return n;
}

function parseBurst(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number of requests, 0 or more');
  return n;
}

export async function upMain(argv: string[]): Promise<number> {
  const cmd = program('up', 'Run a whole local cluster: API server, controller manager, scheduler and simulated nodes.')
    .option('--data-dir <dir>', 'where the cluster keeps its state and kubeconfig', './.kubelite')
    .option('--port <port>', 'API server port (0 picks a free one)', parsePort, 6443)
    .option('--bind-address <ip>', 'API server address', '127.0.0.1')
    .option('--nodes <n>', 'simulated nodes', parseCount, 3)
    .option('--storage <backend>', 'lmdb (durable, in --data-dir), memory or etcd', parseChoice(['lmdb', 'memory', 'etcd'] as const), 'lmdb')
    .option('--etcd-servers <urls>', 'etcd client URLs (with --storage etcd)', (v: string) => {
      try {
        return parseEtcdServers(v);
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
    })
    .option('--apiservers <n>', 'API servers on one etcd (with --storage etcd), each on its own loopback address from --bind-address on, all on --port', parseCount, 1)
    .option('--controller-manager-replicas <n>', 'controller managers in leader election (one leads, the others stand by)', parseCount, 1)
    .option('--scheduler-replicas <n>', 'schedulers in leader election (one leads, the others stand by)', parseCount, 1)
    .option('--controllers <list>', "controllers to run, as kube-controller-manager's --controllers ('*,-name,name')")
    .option('--feature-gates <gates>', 'feature gates for the controller manager (Name=bool,...)')
    .option('--kube-api-qps <qps>', "the controller manager's requests per second to the API server (default 1000: no shared API server to protect)", parseRate)
    .option('--kube-api-burst <n>', "the controller manager's request burst (default 2000)", parseBurst)
    .option('--zones <zones>', 'comma-separated zones the simulated nodes are spread over')
    .option('--node-cpu <cpu>', 'CPU capacity of each simulated node')
    .option('--node-memory <memory>', 'memory capacity of each simulated node')
    .option('--from-snapshot <file>', 'bring the data dir back to a snapshot file (kubelite snapshot save) before starting')
    .option('--audit-policy-file <file>', 'audit.k8s.io/v1 Policy of the API server (with --audit-log-path)')
    .option('--audit-log-path <file>', 'where the API server writes audit events, one JSON line each (- : its output)')
    .option('--runtime <runtime>', 'simulated, or process: containers of the host-image allow-list (node:*, busybox, alpine, absolute host commands) run as real processes, without isolation', parseChoice(['simulated', 'process'] as const), 'simulated')
    .option('--process-pod-cidr <cidr>', 'with --runtime process: the loopback range of the pods\' IPs (default 127.64.0.0/16)')
    .option('--allow-root', 'with --runtime process: run pods\' processes even as root')
    .option('--image-pull-time <duration>', 'how long an image pull takes on the simulated nodes (default 0: at once)')
    .option('--image-pull-failures <globs>', 'comma-separated globs of images whose pulls fail on the simulated nodes')
    .option('--eviction-hard <thresholds>', "the simulated nodes' hard eviction thresholds (default the kubelet's)")
    .option('--eviction-monitoring-interval <duration>', "how often the simulated nodes' eviction managers run (default 10s)")
    .option('--single-process [mode]', `run every component in this one process instead of a process each (for test suites: less memory, a faster start; slower on a busy machine): event-loop (the default: all in one event loop and heap) or worker-threads (each on a thread of its own)`, parseChoice(SINGLE_PROCESS_MODES))
    .option('--quiet', 'print only the ready line: no start stages, no hints, no component logs')
    .option('--verbose', 'print every line the components log (default: only errors, and the last lines of a component that exits)')
    .option('--kubeconfig-context', `merge a "kubelite" context into $KUBECONFIG or ~/.kube/config and select it; removed when the cluster stops`);
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<{
    dataDir: string; port: number; bindAddress: string; nodes: number; storage: 'lmdb' | 'memory' | 'etcd'; etcdServers?: string[];
    apiservers: number; controllerManagerReplicas: number; schedulerReplicas: number;
    controllers?: string; featureGates?: string; kubeApiQps?: number; kubeApiBurst?: number; zones?: string; nodeCpu?: string; nodeMemory?: string; quiet?: boolean;
    verbose?: boolean; kubeconfigContext?: boolean; singleProcess?: true | SingleProcessMode;
    runtime: 'simulated' | 'process'; processPodCidr?: string; allowRoot?: boolean; auditPolicyFile?: string; auditLogPath?: string; fromSnapshot?: string;
    imagePullTime?: string; imagePullFailures?: string; evictionHard?: string; evictionMonitoringInterval?: string;
  }>();
  if (o.storage === 'etcd' && !o.etcdServers) {
    process.stderr.write('kubelite up: --storage etcd needs --etcd-servers\n');
    return 2;
  }
  const replicasRefusal = replicasProblem({ apiservers: o.apiservers, controllerManagers: o.controllerManagerReplicas, schedulers: o.schedulerReplicas }, o.storage, o.bindAddress);
  if (replicasRefusal) {
    process.stderr.write(`kubelite up: ${replicasRefusal}\n`);
    return 2;
  }
  const refusal = o.runtime === 'process' ? rootRefusal(o.allowRoot === true) : undefined;
  if (refusal) {
    process.stderr.write(`kubelite up: ${refusal}\n`);
    return 2;
  }
  const running = readPidFile(o.dataDir);
  if (running?.running) {
    process.stderr.write(`kubelite up: a cluster is already running on ${o.dataDir} (pid ${running.up.pid}): stop it with kubelite down --data-dir ${o.dataDir}, or pass another --data-dir\n`);
    return 1;
  }
  if (o.port !== 0 && (await portInUse(o.bindAddress, o.port))) {
    process.stderr.write(`kubelite up: port ${o.port} is in use: pass --port 0 or stop the process holding it\n`);
    return 1;
  }
  const stderr = stageWriter(process.stderr);
  const say = o.quiet ? () => {} : (line: string) => stderr.stage(`[up] ${line}`);
  const componentLog = componentLogFilter(o.quiet ? 'none' : o.verbose ? 'all' : 'errors', stderr.line);
  // SIGINT/SIGTERM are caught before anything starts: without a listener Node exits at once and
  // orphans the components — during the start, or when a signal sent on seeing the ready line
  // arrives before a listener registered after printing it would be (seen on a loaded machine).
  // Repeats are ignored: the stop under way SIGKILLs components that do not exit within 10 s.
  const stopping = new AbortController();
  const onSignal = () => {
    componentLog.stopping();
    stopping.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let cluster;
  try {
    // A single-process cluster's components run from this very bundle, not from a second copy of it.
    provideComponentMain(runComponent);
    cluster = await startCluster({
      dataDir: o.dataDir,
      port: o.port,
      bindAddress: o.bindAddress,
      nodes: o.nodes,
      storage: o.storage,
      etcdServers: o.etcdServers,
      apiservers: o.apiservers,
      controllerManagerReplicas: o.controllerManagerReplicas,
      schedulerReplicas: o.schedulerReplicas,
      runtime: o.runtime,
      ...(o.processPodCidr !== undefined ? { processPodCIDR: o.processPodCidr } : {}),
      allowRoot: o.allowRoot === true,
      controllers: o.controllers,
      featureGates: o.featureGates,
      kubeApiQPS: o.kubeApiQps,
      kubeApiBurst: o.kubeApiBurst,
      zones: o.zones?.split(','),
      nodeCPU: o.nodeCpu,
      nodeMemory: o.nodeMemory,
      auditPolicyFile: o.auditPolicyFile,
      auditLogPath: o.auditLogPath,
      imagePullTime: o.imagePullTime,
      imagePullFailures: o.imagePullFailures?.split(','),
      evictionHard: o.evictionHard,
      evictionMonitoringInterval: o.evictionMonitoringInterval,
      ...(o.fromSnapshot !== undefined ? { fromSnapshot: o.fromSnapshot } : {}),
      singleProcess: o.singleProcess ?? false,
      log: componentLog.line,
      progress: say,
      signal: stopping.signal,
    });
  } catch (e) {
    if (stopping.signal.aborted) return 0;
    throw e;
  }
  const mergedInto = o.kubeconfigContext ? userKubeconfigPath() : undefined;
  try {
    if (!stopping.signal.aborted) {
      if (mergedInto) mergeContext(mergedInto, cluster.kubeconfigYaml);
      writePidFile(o.dataDir, { pid: process.pid, server: cluster.server, kubeconfig: cluster.kubeconfig, ...(mergedInto ? { mergedInto } : {}) });
      stderr.endProgress();
      process.stdout.write(`ready: kubeconfig=${cluster.kubeconfig} server=${cluster.server}\n`);
      if (!o.quiet) {
        stderr.line(`[up] the cluster is ready in ${(cluster.readyAfterMs / 1000).toFixed(1)}s; to use it:`);
        stderr.line(mergedInto ? `    kubectl get nodes                  # context "kubelite" of ${mergedInto}` : `    export KUBECONFIG=${cluster.kubeconfig}\n    kubectl get nodes`);
        stderr.line(`  stop it with Ctrl-C, or kubelite down --data-dir ${o.dataDir}`);
      }
      await new Promise((resolve) => stopping.signal.addEventListener('abort', resolve, { once: true }));
    }
  } finally {
    if (mergedInto) removeContext(mergedInto);
    await cluster.stop();
    removePidFile(o.dataDir);
  }
  return 0;
}
