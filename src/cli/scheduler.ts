// `kubelite scheduler`: the default scheduler against an API server (--kubeconfig or --master),
// until SIGINT/SIGTERM. One JSON log line per notable event on stderr.
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../machinery/codec/time.js';
import { parseChoice, parseOrExit, parsePort, program } from '../machinery/flags.js';
import { processMetricsText } from '../machinery/process-metrics.js';
import { jsonLog, processContext, type ComponentContext } from '../machinery/component-context.js';

function parseBool(v: string): boolean {
  if (v === 'true' || v === '1' || v === 't' || v === 'T' || v === 'TRUE' || v === 'True') return true;
  if (v === 'false' || v === '0' || v === 'f' || v === 'F' || v === 'FALSE' || v === 'False') return false;
  throw new InvalidArgumentError('must be true or false');
}

function parseDurationMs(v: string): number {
  let ns: bigint;
  try {
    ns = parseDuration(v);
  } catch {
    throw new InvalidArgumentError('must be a duration such as 15s or 1m0s');
  }
  const ms = Number(ns / 1_000_000n);
  if (ms <= 0) throw new InvalidArgumentError('must be positive');
  return ms;
}

function parseNumber(min: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min) throw new InvalidArgumentError(`must be a number ≥ ${min}`);
    return n;
  };
}

function parseInteger(min: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!/^-?\d+$/.test(v.trim()) || n < min) throw new InvalidArgumentError(`must be an integer ≥ ${min}`);
    return n;
  };
}

export async function schedulerMain(argv: string[], ctx: ComponentContext = processContext()): Promise<number> {
  const cmd = program('scheduler', 'The default scheduler: binds pending pods to nodes (filters and scores of kube-scheduler\'s default profile).', ctx)
    .option('--kubeconfig <path>', 'path to a kubeconfig file (server and credentials)')
    .option('--master <url>', 'the API server URL (overrides the kubeconfig\'s server)')
    .option('--scheduler-name <name>', 'schedule the pods whose spec.schedulerName is this', 'default-scheduler')
    .option('--kube-api-qps <qps>', 'requests per second to the API server (0: unlimited)', parseNumber(0), 0)
    .option('--kube-api-burst <n>', 'burst of requests to the API server', parseInteger(1), 1000)
    .option('--kube-api-content-type <type>', 'content type of requests sent to the API server', parseChoice(['application/vnd.kubernetes.protobuf', 'application/json'] as const), 'application/vnd.kubernetes.protobuf')
    .option('--parallel-binds <n>', 'pod bindings in flight at once', parseInteger(1), 64)
    .option('--bind-address <ip>', 'address of the HTTP service (/healthz, /readyz, /metrics)', '127.0.0.1')
    .option('--port <port>', 'port of the HTTP service; 0 disables it', parsePort, 10251)
    .option('--leader-elect [bool]', 'campaign for the lock before scheduling (for replicated schedulers)', parseBool, true)
    .option('--leader-elect-lease-duration <duration>', 'how long a non-leader waits before taking over an unrenewed lock', parseDurationMs, 15_000)
    .option('--leader-elect-renew-deadline <duration>', 'how long the leader retries renewing before giving up', parseDurationMs, 10_000)
    .option('--leader-elect-retry-period <duration>', 'how long clients wait between attempts', parseDurationMs, 2_000)
    .option('--leader-elect-resource-lock <kind>', 'the kind of lock object', parseChoice(['leases', 'endpoints', 'configmaps', 'endpointsleases', 'configmapsleases'] as const), 'leases')
    .option('--leader-elect-resource-name <name>', 'the name of the lock object', 'kube-scheduler')
    .option('--leader-elect-resource-namespace <ns>', 'the namespace of the lock object', 'kube-system');
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<{
    kubeconfig?: string;
    master?: string;
    schedulerName: string;
    kubeApiQps: number;
    kubeApiBurst: number;
    kubeApiContentType: string;
    parallelBinds: number;
    bindAddress: string;
    port: number;
    leaderElect: boolean;
    leaderElectLeaseDuration: number;
    leaderElectRenewDeadline: number;
    leaderElectRetryPeriod: number;
    leaderElectResourceLock: 'leases' | 'endpoints' | 'configmaps' | 'endpointsleases' | 'configmapsleases';
    leaderElectResourceName: string;
    leaderElectResourceNamespace: string;
  }>();
  if (o.leaderElect && (o.leaderElectRenewDeadline > o.leaderElectLeaseDuration || o.leaderElectRenewDeadline <= 1.2 * o.leaderElectRetryPeriod)) {
    ctx.stderr('kubelite scheduler: --leader-elect-lease-duration must be ≥ --leader-elect-renew-deadline, which must be > 1.2 × --leader-elect-retry-period\n');
    return 2;
  }
  if (!o.kubeconfig && !o.master) {
    ctx.stderr('kubelite scheduler: neither --kubeconfig nor --master was specified\n');
    return 2;
  }
  const [{ loadRestConfig }, { KUBERNETES_CLIENT_VERSION, newClientset }, { startScheduler }] = await Promise.all([
    import('../client/kubeconfig.js'),
    import('../client/rest.js'),
    import('../scheduler/index.js'),
  ]);
  let config;
  try {
    config = loadRestConfig({ kubeconfig: o.kubeconfig, master: o.master });
  } catch (err) {
    ctx.stderr(`kubelite scheduler: ${(err as Error).message}\n`);
    return 2;
  }
  const log = jsonLog(ctx, 'scheduler');
  const clientset = newClientset({
    config,
    userAgent: `kube-scheduler/${KUBERNETES_CLIENT_VERSION} (${process.platform}/${process.arch}) kubernetes/kubelite`,
    contentType: o.kubeApiContentType,
    qps: o.kubeApiQps,
    burst: o.kubeApiBurst,
    log,
  });
  type Handle = Awaited<ReturnType<typeof startScheduler>>;
  let handle: Handle | undefined;
  let ready = false;
  const start = () => {
    handle = startScheduler({ clientset, schedulerName: o.schedulerName, parallelBinds: o.parallelBinds, log });
    void handle.ready.then(() => {
      ready = true;
      log({ msg: 'scheduler ready', schedulerName: o.schedulerName, host: hostname(), server: config.server });
    });
  };
  let server: Server | undefined;
  if (o.port !== 0) {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/healthz' || path === '/livez') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (path === '/readyz') return void res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ok' : 'informers not synced');
      if (path === '/metrics') {
        const st = handle?.stats ?? { scheduled: 0, bound: 0, unschedulable: 0, bindErrors: 0 };
        const q = handle?.queue.stats() ?? { active: 0, backoff: 0, unschedulable: 0, inFlight: 0 };
        const lines = [
          '# TYPE scheduler_schedule_attempts_total counter',
          `scheduler_schedule_attempts_total{result="scheduled"} ${st.bound}`,
          `scheduler_schedule_attempts_total{result="unschedulable"} ${st.unschedulable}`,
          `scheduler_schedule_attempts_total{result="error"} ${st.bindErrors}`,
          '# TYPE scheduler_pending_pods gauge',
          `scheduler_pending_pods{queue="active"} ${q.active}`,
          `scheduler_pending_pods{queue="backoff"} ${q.backoff}`,
          `scheduler_pending_pods{queue="unschedulable"} ${q.unschedulable}`,
          '# TYPE scheduler_cache_size gauge',
          `scheduler_cache_size{type="nodes"} ${handle?.cache.nodes().length ?? 0}`,
          `scheduler_cache_size{type="pods"} ${handle?.cache.podCount() ?? 0}`,
        ];
        // Then the process's memory, CPU and event loop (as kube-scheduler serves Go's).
        return void processMetricsText().then((processText) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(`${lines.join('\n')}\n\n${processText}`));
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    const srv = server;
    try {
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(o.port, o.bindAddress, () => resolve());
      });
    } catch (err) {
      ctx.stderr(`kubelite scheduler: cannot listen on ${o.bindAddress}:${o.port}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
      clientset.close();
      return 1;
    }
  }
  const stopAll = new AbortController();
  const signalled = ctx.stopRequested().then(() => 'signal' as const);
  let outcome: 'signal' | 'lost' = 'signal';
  if (o.leaderElect) {
    const le = await import('../controller-manager/leader-election.js');
    const identity = le.newIdentity();
    let lost!: () => void;
    const lostLeadership = new Promise<'lost'>((resolve) => (lost = () => resolve('lost')));
    const elector = new le.LeaderElector({
      lock: le.newResourceLock(o.leaderElectResourceLock, clientset, o.leaderElectResourceNamespace, o.leaderElectResourceName),
      identity,
      leaseDurationMs: o.leaderElectLeaseDuration,
      renewDeadlineMs: o.leaderElectRenewDeadline,
      retryPeriodMs: o.leaderElectRetryPeriod,
      releaseOnCancel: true,
      name: 'kube-scheduler',
      log,
      callbacks: {
        onStartedLeading: () => {
          log({ msg: 'became leader', identity });
          start();
        },
        onStoppedLeading: () => {
          if (!stopAll.signal.aborted) log({ msg: 'leaderelection lost', identity });
          lost();
        },
      },
    });
    const electing = elector.run(stopAll.signal);
    outcome = await Promise.race([signalled, lostLeadership]);
    stopAll.abort();
    await handle?.stop();
    await electing;
  } else {
    start();
    await signalled;
    await handle?.stop();
  }
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  clientset.close();
  log({ msg: 'scheduler stopped', ...(handle?.stats ?? {}) });
  return outcome === 'lost' ? 1 : 0;
}
