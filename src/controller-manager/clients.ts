// The API clients of the daemon, built from --kubeconfig / --master, --kube-api-qps/-burst and
// --kube-api-content-type with src/client's REST client and shared informers.
import type { Registry } from 'prom-client';
import { loadRestConfig, type RestConfig } from '../client/kubeconfig.js';
import { ServiceAccountClients } from './service-account-clients.js';
import { KUBERNETES_CLIENT_VERSION, newAgent, newClientset } from '../client/rest.js';
import type { Agent } from 'node:http';
import { hostname } from 'node:os';
import { EventBroadcaster } from '../client/events.js';
import { SharedInformerFactory } from '../client/informers.js';
import type { Clientset, EventRecorder, InformerFactory } from '../client/types.js';
import { registerRestClientMetrics } from './metrics.js';
import type { ControllerManagerOptions } from './options.js';

/** What the controllers are given to talk to the API server with. */
export interface ClientBundle {
  clientset: Clientset;
  informers: InformerFactory;
  recorder?: (component: string) => EventRecorder;
  /**
   * --use-service-account-credentials: the clientset a controller writes with (its own service
   * account's), or undefined for the daemon's own. Absent: every controller uses `clientset`.
   */
  controllerClientset?: (controller: string) => Promise<Clientset | undefined>;
  /**
   * The clientset of leader election, with a rate limiter of its own (kube-controller-manager's
   * "leader-election" client): the controllers' informers listing ~60 resources at start must not
   * queue the lease's renewal, or its release on a clean stop, behind them. Absent: `clientset`.
   */
  leaderElectionClientset?: Clientset;
  /** Called once the daemon has stopped (closes connections). */
  close?: () => void;
}

/** Connections of the controllers' shared pool; more add TLS handshakes, not throughput (one API server). */
const CONTROLLER_CONNECTIONS = 32;

export async function buildClients(options: ControllerManagerOptions, registry: Registry, log?: (fields: Record<string, unknown>) => void): Promise<ClientBundle> {
  const config = loadRestConfig({ kubeconfig: options.kubeconfig, master: options.master });
  const userAgent = `kube-controller-manager/${KUBERNETES_CLIENT_VERSION} (${process.platform}/${process.arch}) kubernetes/kubelite`;
  const clientsetOf = (c: RestConfig, suffix = '', agent?: Agent) =>
    newClientset({
      config: c,
      ...(agent ? { agent } : {}),
      // kube-controller-manager's client builder appends the controller's name: `.../deployment-controller`
      userAgent: suffix === '' ? userAgent : `${userAgent}/${suffix}`,
      contentType: options.kubeApiContentType,
      qps: options.kubeApiQps,
      burst: options.kubeApiBurst,
      // the daemon waits for the API server itself (with back-off and a log line per attempt)
      maxRetries: 0,
      log,
    });
  const clientset = clientsetOf(config);
  const leaderElectionClientset = clientsetOf(config, 'leader-election');
  let controllersAgent: Agent | undefined;
  const serviceAccounts = new ServiceAccountClients({
    root: clientset,
    config,
    // The controllers' clientsets differ in their tokens only: one connection pool for them all, as
    // client-go's transport cache shares one (a TLS handshake per controller was a sixth of the
    // daemon's CPU to ready). The pool carries requests only (the informers watch through
    // `clientset`), so it is capped: a ReplicaSet's burst of creates queues for a connection
    // instead of opening one per request (~200 TLS connections for 2,000 pods), as client-go's
    // requests share one HTTP/2 connection.
    newClientset: (c, name) => clientsetOf(c, name, (controllersAgent ??= newAgent(c, CONTROLLER_CONNECTIONS))),
    log: (fields) => log?.(fields),
  });
  registerRestClientMetrics(registry, clientset.metrics, new URL(config.server).host);
  // Caches without managedFields, as kube-controller-manager's: no controller reads them.
  const informers = new SharedInformerFactory(clientset, { resyncPeriodMs: options.minResyncPeriod, log, dropManagedFields: true });
  const broadcaster = new EventBroadcaster({ clientset, host: hostname(), log });
  return {
    clientset,
    informers,
    recorder: (component) => broadcaster.newRecorder(component),
    controllerClientset: (controller) => serviceAccounts.clientsetFor(controller),
    leaderElectionClientset,
    close: () => {
      serviceAccounts.close();
      controllersAgent?.destroy();
      leaderElectionClientset.close();
      broadcaster.shutDown();
      clientset.close();
    },
  };
}
