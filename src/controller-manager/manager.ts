// The controller manager daemon: serves /healthz /metrics /configz /debug/pprof/, waits for the
// API server (retrying with back-off; /healthz reports it meanwhile), campaigns for leadership
// (unless --leader-elect=false), and once leading starts the enabled controllers with their
// --concurrent-*-syncs workers, --controller-start-interval apart, then the shared informers.
// Losing leadership stops the controllers and ends the daemon with a non-zero code (as
// kube-controller-manager's "leaderelection lost"); stop() (SIGTERM) stops them cleanly and
// releases the lock so a standby takes over at once.
import { setMaxListeners } from 'node:events';
import * as prom from 'prom-client';
import { Gauge, Registry } from 'prom-client';
import { realClock, type Clock } from '../client/clock.js';
import { isConnectionRefused, LISTEN_POLL_MS } from '../client/server-listening.js';
import type { Clientset, Controller, ControllerContext, EventRecorder, KubeObject } from '../client/types.js';
import { buildClients, type ClientBundle } from './clients.js';
import { CONTROLLERS, resolveControllers, type ControllerEntry } from './controllers.js';
import { LeaderElector, newIdentity, newResourceLock, sleep } from './leader-election.js';
import { optionsForConfigz, type ControllerManagerOptions } from './options.js';
import { registerNodeCollectorMetrics, registerWorkQueueMetrics } from './metrics.js';
import { registeringWorkQueuesIn, type WorkQueueMetricsSet } from '../client/workqueue.js';
import { registeringNodeCollectorMetricsIn, type NodeCollectorMetricsSet } from '../controllers/nodelifecycle/metrics.js';
import { registerProcessMetrics } from '../machinery/process-metrics.js';
import { startServer, type HealthCheck, type RunningServer } from './server.js';
import { ContentionProfile } from './contention.js';

export interface ManagerDeps {
  /** The clients to use; default: built from --kubeconfig / --master by `buildClients`. */
  clients?: ClientBundle;
  /** Builds the clients from the options (default: src/client's REST client, informers, events). */
  buildClients?: (options: ControllerManagerOptions, registry: Registry, log: (fields: Record<string, unknown>) => void) => Promise<ClientBundle> | ClientBundle;
  /** The controller table (default: CONTROLLERS). */
  controllers?: Record<string, ControllerEntry>;
  clock?: Clock;
  log?: (fields: Record<string, unknown>) => void;
  /** The leader-election identity (default hostname_uuid). */
  identity?: string;
  /** Serve HTTP on options.address:options.port (default: when port ≠ 0). Tests pass { port: 0 } to pick one. */
  serve?: boolean | { port: number };
  random?: () => number;
}

export interface ControllerManagerHandle {
  readonly registry: Registry;
  readonly server: RunningServer | undefined;
  readonly identity: string;
  readonly elector: LeaderElector | undefined;
  /** Names of the controllers running now. */
  running(): string[];
  isLeader(): boolean;
  /** Resolves with the exit code when the daemon ends by itself (1: leadership lost) or 0 after stop(). */
  readonly done: Promise<number>;
  stop(): Promise<void>;
}

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
/** kube-controller-manager: the leader is unhealthy when it has not renewed for lease duration + 20 s. */
const LEADER_HEALTHZ_TOLERANCE_MS = 20_000;
const PROBE_TIMEOUT_MS = 5_000;
/** The key kube-controller-manager's /configz serves its configuration under. */
const CONFIGZ_NAME = 'kubecontrollermanager.config.k8s.io';

/** One JSON line per event on `write` (the process's standard error unless the component has its own). */
export function defaultLog(fields: Record<string, unknown>, write: (text: string) => void = (text) => void process.stderr.write(text)): void {
  const { level = 'info', msg, ...rest } = fields;
  write(`${JSON.stringify({ ts: new Date().toISOString(), level, component: 'controller-manager', msg, ...rest })}\n`);
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message && !err.message.includes(cause.message) ? `${err.message}: ${cause.message}` : err.message;
  }
  return String(err);
}

export async function startControllerManager(options: ControllerManagerOptions, deps: ManagerDeps = {}): Promise<ControllerManagerHandle> {
  const log = deps.log ?? defaultLog;
  const clock = deps.clock ?? realClock;
  const table = deps.controllers ?? CONTROLLERS;
  const enabled = resolveControllers(options.controllers, table);
  const identity = deps.identity ?? newIdentity();
  const root = new AbortController();
  // every controller, worker and informer listens on it
  setMaxListeners(0, root.signal);

  const registry = new Registry();
  registerProcessMetrics(prom, registry);
  // This manager's own work queues and node lifecycle metrics, whoever else shares the process.
  const queues: WorkQueueMetricsSet = new Map();
  const nodeCollectors: NodeCollectorMetricsSet = new Set();
  registerWorkQueueMetrics(registry, queues);
  registerNodeCollectorMetrics(registry, nodeCollectors);
  const leaderGauge = new Gauge({
    name: 'leader_election_master_status',
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.',
    labelNames: ['name'],
    registers: [registry],
  });
  const apiGauge = new Gauge({
    name: 'kubelite_controller_manager_apiserver_reachable',
    help: '1 when the last request to the API server got an answer, 0 when it failed.',
    registers: [registry],
  });
  const runningGauge = new Gauge({
    name: 'kubelite_controller_manager_running_controllers',
    help: 'Number of controllers running.',
    registers: [registry],
  });
  const electionName = options.leaderElectResourceName;
  leaderGauge.set({ name: electionName }, 0);

  let apiError: string | undefined = 'not connected yet';
  /** Whether the last probe's connection was refused (nothing listens yet). */
  let refused = false;
  let elector: LeaderElector | undefined;
  const running = new Map<string, Promise<void>>();
  let leading = false;

  const checks = new Map<string, HealthCheck>([
    ['ping', () => undefined],
    ['apiserver', () => (apiError === undefined ? undefined : `API server unreachable: ${apiError}`)],
  ]);
  if (options.leaderElect) checks.set('leaderElection', () => elector?.check(LEADER_HEALTHZ_TOLERANCE_MS));

  let clients: ClientBundle;
  // configuration errors (kubeconfig) end the start before any port is bound
  if (deps.clients) clients = deps.clients;
  else clients = await (deps.buildClients ?? buildClients)(options, registry, log);

  const contention = options.profiling && options.contentionProfiling === true ? new ContentionProfile(queues) : undefined;
  if (contention) root.signal.addEventListener('abort', () => contention.stop(), { once: true });
  let server: RunningServer | undefined;
  const serve = deps.serve ?? options.port !== 0;
  if (serve !== false) {
    const port = typeof serve === 'object' ? serve.port : options.port;
    try {
      server = await startServer({
        address: options.address,
        port,
        profiling: options.profiling,
        ...(contention ? { contention } : {}),
        checks,
        registry,
        configz: () => ({ [CONFIGZ_NAME]: optionsForConfigz(options) }),
        log,
      });
    } catch (err) {
      clients.close?.();
      throw new Error(`cannot serve on ${options.address}:${port}: ${(err as Error).message}`);
    }
    log({ msg: 'serving', url: server.url });
  }
  if (options.securePort !== 0 && options.tlsCertFile && options.tlsPrivateKeyFile) {
    let secure: RunningServer;
    try {
      secure = await startServer({
        address: options.bindAddress,
        port: options.securePort,
        profiling: options.profiling,
        ...(contention ? { contention } : {}),
        checks,
        registry,
        configz: () => ({ [CONFIGZ_NAME]: optionsForConfigz(options) }),
        tls: { certFile: options.tlsCertFile, keyFile: options.tlsPrivateKeyFile },
        log,
      });
    } catch (err) {
      await server?.close();
      clients.close?.();
      throw new Error(`cannot serve securely on ${options.bindAddress}:${options.securePort}: ${(err as Error).message}`);
    }
    log({ msg: 'serving securely', url: secure.url });
    root.signal.addEventListener('abort', () => void secure.close(), { once: true });
  }

  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));

  const recorder = clients.recorder ?? ((): EventRecorder => ({ event: () => {} }));

  /** One request to the API server: updates the apiserver health check. */
  const probe = async (): Promise<boolean> => {
    try {
      await clients.clientset.resource(NAMESPACES).list('', { limit: 1 });
      if (apiError !== undefined) log({ msg: 'API server reachable' });
      apiError = undefined;
      apiGauge.set(1);
      return true;
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (typeof code === 'number' && code > 0 && code < 500 && code !== 429) {
        // the server answered (403 without list rights, ...): it is reachable
        apiError = undefined;
        apiGauge.set(1);
        return true;
      }
      apiError = errorMessage(err);
      refused = isConnectionRefused(err);
      apiGauge.set(0);
      return false;
    }
  };

  const runControllers = async (signal: AbortSignal): Promise<void> => {
    const ctxBase = {
      clientset: clients.clientset,
      informers: clients.informers,
      recorder,
      options: Object.freeze({ ...options }) as Readonly<Record<string, unknown>>,
      now: () => clock.now(),
    };
    // kube-controller-manager starts the service account token controller first
    const order = [...enabled].sort((a, b) => (a === 'serviceaccount-token' ? -1 : b === 'serviceaccount-token' ? 1 : a.localeCompare(b)));
    // --use-service-account-credentials: every controller's service account and token are asked
    // for at once (their writes share commits), not one controller after the other — a cluster's
    // start waits for the serviceaccount controller, which sorts late.
    const ownClientsets = new Map<string, Promise<Clientset | undefined>>();
    if (options.useServiceAccountCredentials === true && clients.controllerClientset) {
      for (const name of order) {
        if (!table[name]?.ctor) continue;
        const p = clients.controllerClientset(name);
        p.catch(() => undefined); // awaited (and reported) when the controller starts
        ownClientsets.set(name, p);
      }
    }
    const unavailable: string[] = [];
    let first = true;
    for (const name of order) {
      if (signal.aborted) return;
      const entry = table[name]!;
      if (!entry.ctor) {
        unavailable.push(name);
        continue;
      }
      if (name === 'garbagecollector' && options.enableGarbageCollector === false) {
        log({ msg: 'controller is disabled by --enable-garbage-collector=false', controller: name });
        continue;
      }
      if (!first && options.controllerStartInterval > 0) {
        // wait.Jitter(ControllerStartInterval, 1.0)
        await sleep(clock, options.controllerStartInterval * (1 + (deps.random ?? Math.random)()), signal);
        if (signal.aborted) return;
      }
      first = false;
      const workers = entry.workersOption ? Number(options[entry.workersOption] ?? 1) : (entry.workers ?? 1);
      let controller: Controller;
      try {
        const own = await ownClientsets.get(name);
        if (signal.aborted) return;
        const ctx: ControllerContext = { ...ctxBase, clientset: own ?? ctxBase.clientset, log: (fields) => log({ controller: name, ...fields }) };
        controller = registeringWorkQueuesIn(queues, () => registeringNodeCollectorMetricsIn(nodeCollectors, () => entry.ctor!(ctx)));
      } catch (err) {
        log({ msg: 'error starting controller', controller: name, error: errorMessage(err), level: 'error' });
        continue;
      }
      log({ msg: 'started controller', controller: name, workers });
      const p = Promise.resolve()
        .then(() => controller.run(workers, signal))
        .catch((err: unknown) => log({ msg: 'controller failed', controller: name, error: errorMessage(err), level: 'error' }))
        .finally(() => {
          running.delete(name);
          runningGauge.set(running.size);
        });
      running.set(name, p);
      runningGauge.set(running.size);
    }
    if (unavailable.length > 0) {
      log({ msg: 'controllers enabled but not available in kubelite (skipped)', controllers: unavailable, level: 'warning' });
    }
    clients.informers.start(signal);
    log({ msg: 'started informers', controllers: [...running.keys()] });
  };

  const stopControllers = async (): Promise<void> => {
    const pending = [...running.values()];
    if (pending.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(pending),
      new Promise<void>((r) => {
        timer = setTimeout(() => {
          log({ msg: 'controllers did not stop within 10 s', controllers: [...running.keys()], level: 'warning' });
          r();
        }, 10_000);
      }),
    ]);
    clearTimeout(timer);
  };

  const aborted = new Promise<false>((resolve) => root.signal.addEventListener('abort', () => resolve(false), { once: true }));
  /** A probe that a stop does not wait for, and that gives up after 5 s without an answer. */
  const probeUnlessStopped = async (): Promise<boolean> => {
    const timeout = new AbortController();
    const timedOut = sleep(clock, PROBE_TIMEOUT_MS, timeout.signal).then(() => {
      if (timeout.signal.aborted) return false;
      apiError = `no answer within ${PROBE_TIMEOUT_MS / 1000}s`;
      apiGauge.set(0);
      return false;
    });
    try {
      return await Promise.race([probe(), aborted, timedOut]);
    } finally {
      timeout.abort();
    }
  };

  /**
   * Probes again after `ms`, and every 25 ms meanwhile while the connection is refused: the API
   * server, started together with the manager, does not listen yet (client/server-listening.ts).
   * Resolves whether the API server answered.
   */
  const probeAfter = async (ms: number): Promise<boolean> => {
    const until = clock.now() + ms;
    while (refused && until - clock.now() > LISTEN_POLL_MS) {
      await sleep(clock, LISTEN_POLL_MS, root.signal);
      if (root.signal.aborted) return false;
      if (await probeUnlessStopped()) return true;
    }
    await sleep(clock, Math.max(0, until - clock.now()), root.signal);
    return !root.signal.aborted && (await probeUnlessStopped());
  };

  let stopping = false;
  const main = async (): Promise<number> => {
    // wait for the API server, with back-off from 100 ms: started together with the API server
    // (as `kubelite up` does), the controllers start as soon as it answers
    let backoff = 100;
    let reachable = await probeUnlessStopped();
    while (!root.signal.aborted && !reachable) {
      log({ msg: 'waiting for the API server', error: apiError, retryInMs: backoff, level: 'warning' });
      reachable = await probeAfter(backoff);
      backoff = Math.min(backoff * 2, 30_000);
    }
    if (root.signal.aborted) return 0;
    // keep the apiserver check current
    const prober = (async () => {
      while (!root.signal.aborted) {
        await sleep(clock, apiError === undefined ? 10_000 : 2_000, root.signal);
        if (!root.signal.aborted) await probeUnlessStopped();
      }
    })();

    if (!options.leaderElect) {
      leading = true;
      leaderGauge.set({ name: electionName }, 1);
      await runControllers(root.signal);
      await new Promise<void>((r) => root.signal.addEventListener('abort', () => r(), { once: true }));
      leading = false;
      await stopControllers();
      await prober;
      return 0;
    }

    let lost = false;
    elector = new LeaderElector({
      lock: newResourceLock(options.leaderElectResourceLock, clients.leaderElectionClientset ?? clients.clientset, options.leaderElectResourceNamespace, electionName),
      identity,
      leaseDurationMs: options.leaderElectLeaseDuration,
      renewDeadlineMs: options.leaderElectRenewDeadline,
      retryPeriodMs: options.leaderElectRetryPeriod,
      releaseOnCancel: true,
      clock,
      name: electionName,
      log,
      random: deps.random,
      callbacks: {
        onStartedLeading: (signal) => {
          leading = true;
          leaderGauge.set({ name: electionName }, 1);
          recordLeaderEvent(clients.clientset, options, identity, log);
          void runControllers(signal).catch((err: unknown) => log({ msg: 'starting controllers failed', error: errorMessage(err), level: 'error' }));
        },
        onStoppedLeading: () => {
          leading = false;
          leaderGauge.set({ name: electionName }, 0);
          if (!stopping) lost = true;
        },
        onNewLeader: (leader) => {
          if (leader !== identity) log({ msg: 'new leader elected', leader });
        },
      },
    });
    await elector.run(root.signal);
    await stopControllers();
    if (lost) {
      log({ msg: 'leaderelection lost', identity, level: 'error' });
      root.abort();
      await prober;
      return 1;
    }
    await prober;
    return 0;
  };

  const finished = main().then(
    async (code) => {
      if (code !== 0) await server?.close();
      resolveDone(code);
      return code;
    },
    async (err: unknown) => {
      log({ msg: 'controller manager failed', error: errorMessage(err), level: 'error' });
      await server?.close();
      resolveDone(1);
      return 1;
    },
  );

  return {
    registry,
    server,
    identity,
    get elector() {
      return elector;
    },
    running: () => [...running.keys()].sort(),
    isLeader: () => leading,
    done,
    async stop() {
      stopping = true;
      root.abort();
      await finished;
      clients.close?.();
      await server?.close();
    },
  };
}

/** The LeaderElection event on the lock object, as kube-controller-manager records it. */
function recordLeaderEvent(clientset: Clientset, options: ControllerManagerOptions, identity: string, log: (f: Record<string, unknown>) => void): void {
  const kind = options.leaderElectResourceLock.startsWith('configmaps') ? 'ConfigMap' : options.leaderElectResourceLock === 'leases' ? 'Lease' : 'Endpoints';
  const apiVersion = kind === 'Lease' ? 'coordination.k8s.io/v1' : 'v1';
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const ns = options.leaderElectResourceNamespace;
  const event: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { generateName: `${options.leaderElectResourceName}.`, namespace: ns },
    involvedObject: { apiVersion, kind, namespace: ns, name: options.leaderElectResourceName },
    reason: 'LeaderElection',
    message: `${identity} became leader`,
    source: { component: `${options.leaderElectResourceName}_${identity}` },
    type: 'Normal',
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  };
  clientset
    .resource({ group: '', version: 'v1', resource: 'events' })
    .create(ns, event)
    .catch((err: unknown) => log({ msg: 'could not record the LeaderElection event', error: errorMessage(err), level: 'warning' }));
}
