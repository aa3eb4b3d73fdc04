// `kubelite scheduler`: the default scheduler against an API server (--kubeconfig or --master),
// until SIGINT/SIGTERM. One JSON log line per notable event on stderr.
import { hostname } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { parseChoice, parseOrExit, program } from './flags.js';

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

export async function schedulerMain(argv: string[]): Promise<number> {
  const cmd = program('scheduler', 'The default scheduler: binds pending pods to nodes (filters and scores of kube-scheduler\'s default profile).')
    .option('--kubeconfig <path>', 'path to a kubeconfig file (server and credentials)')
    .option('--master <url>', 'the API server URL (overrides the kubeconfig\'s server)')
    .option('--scheduler-name <name>', 'schedule the pods whose spec.schedulerName is this', 'default-scheduler')
    .option('--kube-api-qps <qps>', 'requests per second to the API server (0: unlimited)', parseNumber(0), 0)
    .option('--kube-api-burst <n>', 'burst of requests to the API server', parseInteger(1), 1000)
    .option('--kube-api-content-type <type>', 'content type of requests sent to the API server', parseChoice(['application/vnd.kubernetes.protobuf', 'application/json'] as const), 'application/vnd.kubernetes.protobuf')
    .option('--parallel-binds <n>', 'pod bindings in flight at once', parseInteger(1), 64);
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<{ kubeconfig?: string; master?: string; schedulerName: string; kubeApiQps: number; kubeApiBurst: number; kubeApiContentType: string; parallelBinds: number }>();
  if (!o.kubeconfig && !o.master) {
    process.stderr.write('kubelite scheduler: neither --kubeconfig nor --master was specified\n');
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
    process.stderr.write(`kubelite scheduler: ${(err as Error).message}\n`);
    return 2;
  }
  const log = (fields: Record<string, unknown>) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), component: 'scheduler', ...fields })}\n`);
  const clientset = newClientset({
    config,
    userAgent: `kube-scheduler/${KUBERNETES_CLIENT_VERSION} (${process.platform}/${process.arch}) kubernetes/kubelite`,
    contentType: o.kubeApiContentType,
    qps: o.kubeApiQps,
    burst: o.kubeApiBurst,
    log,
  });
  const handle = startScheduler({ clientset, schedulerName: o.schedulerName, parallelBinds: o.parallelBinds, log });
  void handle.ready.then(() => log({ msg: 'scheduler ready', schedulerName: o.schedulerName, host: hostname(), server: config.server }));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await handle.stop();
  clientset.close();
  log({ msg: 'scheduler stopped', ...handle.stats });
  return 0;
}
