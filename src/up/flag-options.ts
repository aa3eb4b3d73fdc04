// The options of startCluster that are `kubelite up`'s flags for one component, typed, and the
// component flags they become (before the caller's own `args`, which may still add any flag).
import { resolve } from 'node:path';

export interface ComponentFlagOptions {
  /** The controller manager's controllers, kube-controller-manager's --controllers syntax ('*,-name,name'). */
  controllers?: string;
  /** The controller manager's --feature-gates (Name=bool,...). */
  featureGates?: string;
  /** The controller manager's requests per second to the API server (default 1000) and burst (default 2000). */
  kubeApiQPS?: number;
  kubeApiBurst?: number;
  /** Zones the simulated nodes are spread over. */
  zones?: readonly string[];
  /** CPU and memory capacity of each simulated node (quantities: '4', '8Gi'). */
  nodeCPU?: string;
  nodeMemory?: string;
  /** The API server's audit.k8s.io/v1 Policy file and where it writes the events ('-': its stdout). */
  auditPolicyFile?: string;
  auditLogPath?: string;
  /** The simulated nodes' image pulls: how long one takes ('200ms'), the globs of images whose pulls fail. */
  imagePullTime?: string;
  imagePullFailures?: readonly string[];
  /** The simulated nodes' eviction manager: --eviction-hard thresholds, how often it runs ('10s'). */
  evictionHard?: string;
  evictionMonitoringInterval?: string;
}

export interface ComponentArgs {
  apiserver: string[];
  controllerManager: string[];
  nodes: string[];
}

export function componentArgsOf(o: ComponentFlagOptions): ComponentArgs {
  const pass = (flag: string, value: string | number | undefined) => (value === undefined ? [] : [flag, String(value)]);
  // the components run in the same directory, but a path in a kubeconfig-like place is best absolute
  const absolute = (path: string | undefined) => (path === undefined || path === '-' ? path : resolve(path));
  return {
    apiserver: [...pass('--audit-policy-file', absolute(o.auditPolicyFile)), ...pass('--audit-log-path', absolute(o.auditLogPath))],
    controllerManager: [...pass('--controllers', o.controllers), ...pass('--feature-gates', o.featureGates), ...pass('--kube-api-qps', o.kubeApiQPS), ...pass('--kube-api-burst', o.kubeApiBurst)],
    nodes: [
      ...pass('--zones', o.zones?.join(',')), ...pass('--node-cpu', o.nodeCPU), ...pass('--node-memory', o.nodeMemory),
      ...pass('--image-pull-time', o.imagePullTime), ...pass('--image-pull-failures', o.imagePullFailures?.join(',')),
      ...pass('--eviction-hard', o.evictionHard), ...pass('--eviction-monitoring-interval', o.evictionMonitoringInterval),
    ],
  };
}
