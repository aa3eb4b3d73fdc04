// The controllers the controller manager knows: seed 001's list plus the ones kube-controller-manager
// runs today. A controller that is not implemented yet has no `constructor`: it can be named in
// `--controllers` (so Kubernetes command lines keep working) but the daemon logs that it is not
// available and skips it. To plug a controller in, import its ControllerConstructor and set it as
// `ctor` on its line — one line per controller, keep the table sorted by name:
//   'deployment': { ctor: newDeploymentController, enabledByDefault: true, workersOption: ... },
// (the field is `ctor`, not `constructor`: every object literal already has a `constructor`.)
//
// `workersOption` names the option (as the camelCase key of the options record, e.g.
// `concurrentDeploymentSyncs` for `--concurrent-deployment-syncs`) holding its worker count;
// controllers without one run `workers` (default 1) workers.
import type { ControllerConstructor } from '../client/types.js';
import { newClusterRoleAggregationController } from '../controllers/clusterroleaggregation/index.js';
import { newGarbageCollectorController } from '../controllers/garbagecollector/index.js';
import { newNamespaceController } from '../controllers/namespace/index.js';
import { newPodGCController } from '../controllers/podgc/index.js';
import { newServiceAccountsController } from '../controllers/serviceaccount/index.js';
import { newTokensController } from '../controllers/serviceaccounttoken/index.js';
import { newRootCACertPublisher } from '../controllers/rootcacertpublisher/index.js';
import { newTTLController } from '../controllers/ttl/index.js';
import { newDaemonSetController } from '../controllers/daemonset/index.js';
import { newDeploymentController } from '../controllers/deployment/index.js';
import { newReplicaSetController, newReplicationControllerController } from '../controllers/replicaset/index.js';
import { newJobController } from '../controllers/job/index.js';
import { newCronJobController } from '../controllers/cronjob/index.js';
import { newTTLAfterFinishedController } from '../controllers/ttlafterfinished/index.js';

export interface ControllerEntry {
  ctor?: ControllerConstructor;
  enabledByDefault: boolean;
  workersOption?: string;
  /** Workers when there is no workersOption (default 1). */
  workers?: number;
  /** Names the controller goes by in Kubernetes ≥ 1.28 (`deployment-controller`), also accepted by --controllers. */
  aliases?: string[];
}

// prettier-ignore
export const CONTROLLERS: Record<string, ControllerEntry> = {
  'attachdetach':                     { enabledByDefault: true, aliases: ['persistentvolume-attach-detach-controller'] },
  'bootstrapsigner':                  { enabledByDefault: false, aliases: ['bootstrap-signer-controller'] },
  'cloud-node-lifecycle':             { enabledByDefault: true, aliases: ['cloud-node-lifecycle-controller'] },
  'clusterrole-aggregation':          { ctor: newClusterRoleAggregationController, enabledByDefault: true, aliases: ['clusterrole-aggregation-controller'] },
  'cronjob':                          { ctor: newCronJobController, enabledByDefault: true, workersOption: 'concurrentCronJobSyncs', aliases: ['cronjob-controller'] },
  'csrapproving':                     { enabledByDefault: true, aliases: ['certificatesigningrequest-approving-controller'] },
  'csrcleaner':                       { enabledByDefault: true, aliases: ['certificatesigningrequest-cleaner-controller'] },
  'csrsigning':                       { enabledByDefault: true, aliases: ['certificatesigningrequest-signing-controller'] },
  'daemonset':                        { ctor: newDaemonSetController, enabledByDefault: true, workersOption: 'concurrentDaemonsetSyncs', aliases: ['daemonset-controller'] },
  'deployment':                       { ctor: newDeploymentController, enabledByDefault: true, workersOption: 'concurrentDeploymentSyncs', aliases: ['deployment-controller'] },
  'disruption':                       { enabledByDefault: true, aliases: ['disruption-controller'] },
  'endpoint':                         { enabledByDefault: true, workersOption: 'concurrentEndpointSyncs', aliases: ['endpoints-controller'] },
  'endpointslice':                    { enabledByDefault: true, workersOption: 'concurrentServiceEndpointSyncs', aliases: ['endpointslice-controller'] },
  'endpointslicemirroring':           { enabledByDefault: true, workersOption: 'mirroringConcurrentServiceEndpointSyncs', aliases: ['endpointslice-mirroring-controller'] },
  'ephemeral-volume':                 { enabledByDefault: true, workersOption: 'concurrentEphemeralvolumeSyncs', aliases: ['ephemeral-volume-controller'] },
  'garbagecollector':                 { ctor: newGarbageCollectorController, enabledByDefault: true, workersOption: 'concurrentGcSyncs', aliases: ['garbage-collector-controller'] },
  'horizontalpodautoscaling':         { enabledByDefault: true, workersOption: 'concurrentHorizontalPodAutoscalerSyncs', aliases: ['horizontal-pod-autoscaler-controller'] },
  'job':                              { ctor: newJobController, enabledByDefault: true, workersOption: 'concurrentJobSyncs', aliases: ['job-controller'] },
  'legacy-serviceaccount-token-cleaner': { enabledByDefault: true, aliases: ['legacy-serviceaccount-token-cleaner-controller'] },
  'namespace':                        { ctor: newNamespaceController, enabledByDefault: true, workersOption: 'concurrentNamespaceSyncs', aliases: ['namespace-controller'] },
  'node':                             { enabledByDefault: true },
  'nodeipam':                         { enabledByDefault: true, aliases: ['node-ipam-controller'] },
  'nodelifecycle':                    { enabledByDefault: true, aliases: ['node-lifecycle-controller'] },
  'persistentvolume-binder':          { enabledByDefault: true, aliases: ['persistentvolume-binder-controller'] },
  'persistentvolume-expander':        { enabledByDefault: true, aliases: ['persistentvolume-expander-controller'] },
  'podgc':                            { ctor: newPodGCController, enabledByDefault: true, aliases: ['pod-garbage-collector-controller'] },
  'pv-protection':                    { enabledByDefault: true, aliases: ['persistentvolume-protection-controller'] },
  'pvc-protection':                   { enabledByDefault: true, aliases: ['persistentvolumeclaim-protection-controller'] },
  'replicaset':                       { ctor: newReplicaSetController, enabledByDefault: true, workersOption: 'concurrentReplicasetSyncs', aliases: ['replicaset-controller'] },
  'replicationcontroller':            { ctor: newReplicationControllerController, enabledByDefault: true, workersOption: 'concurrentRcSyncs', aliases: ['replicationcontroller-controller'] },
  'resourcequota':                    { enabledByDefault: true, workersOption: 'concurrentResourceQuotaSyncs', aliases: ['resourcequota-controller'] },
  'root-ca-cert-publisher':           { ctor: newRootCACertPublisher, enabledByDefault: true, aliases: ['root-ca-certificate-publisher-controller'] },
  'route':                            { enabledByDefault: true, aliases: ['node-route-controller'] },
  'service':                          { enabledByDefault: true, workersOption: 'concurrentServiceSyncs', aliases: ['service-lb-controller'] },
  'serviceaccount':                   { ctor: newServiceAccountsController, enabledByDefault: true, workers: 1, aliases: ['serviceaccount-controller'] },
  'serviceaccount-token':             { ctor: newTokensController, enabledByDefault: true, workersOption: 'concurrentServiceaccountTokenSyncs', aliases: ['serviceaccount-token-controller'] },
  'statefulset':                      { enabledByDefault: true, workersOption: 'concurrentStatefulsetSyncs', aliases: ['statefulset-controller'] },
  'taint-eviction':                   { enabledByDefault: true, aliases: ['taint-eviction-controller'] },
  'tokencleaner':                     { enabledByDefault: false, aliases: ['token-cleaner-controller'] },
  'ttl':                              { ctor: newTTLController, enabledByDefault: true, workers: 5, aliases: ['ttl-controller'] },
  'ttl-after-finished':               { ctor: newTTLAfterFinishedController, enabledByDefault: true, workersOption: 'concurrentTtlAfterFinishedSyncs', aliases: ['ttl-after-finished-controller'] },
};

/** The canonical name of a controller named on the command line (its table name or an alias), or undefined. */
export function canonicalControllerName(name: string, table: Record<string, ControllerEntry> = CONTROLLERS): string | undefined {
  if (Object.hasOwn(table, name)) return name;
  for (const [canonical, entry] of Object.entries(table)) if (entry.aliases?.includes(name)) return canonical;
  return undefined;
}

/**
 * Resolves `--controllers` as kube-controller-manager's IsControllerEnabled: for each controller
 * the first of `name` / `-name` in the list decides; otherwise `*` turns on the controllers that
 * are on by default; without `*`, only the named controllers run. Throws on an unknown name.
 * Returns the enabled canonical names, sorted.
 */
export function resolveControllers(spec: readonly string[], table: Record<string, ControllerEntry> = CONTROLLERS): string[] {
  const decided = new Map<string, boolean>();
  let star = false;
  for (const raw of spec) {
    const item = raw.trim();
    if (item === '') continue;
    if (item === '*') {
      star = true;
      continue;
    }
    const neg = item.startsWith('-');
    const name = neg ? item.slice(1) : item;
    const canonical = canonicalControllerName(name, table);
    if (canonical === undefined) {
      throw new Error(`"${name}" is not in the list of known controllers (${Object.keys(table).join(', ')})`);
    }
    if (!decided.has(canonical)) decided.set(canonical, !neg);
  }
  const enabled: string[] = [];
  for (const [name, entry] of Object.entries(table)) {
    const d = decided.get(name);
    if (d ?? (star && entry.enabledByDefault)) enabled.push(name);
  }
  return enabled.sort();
}
