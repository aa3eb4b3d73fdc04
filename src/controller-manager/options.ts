// Every option of the controller manager daemon (seed 001, Kubernetes spelling), with its type,
// default and validation. Flags are parsed the way kube-controller-manager's pflag does: `_` and
// `-` are the same in flag names (`--concurrent_rc_syncs`), booleans take `--flag` or
// `--flag=false`, durations are Go durations (`30s`, `5m0s`), string slices and the feature-gate
// map accumulate over repeated flags. Any bad flag or value is one line on stderr and exit code 2.
//
// The parsed options are a record keyed by each flag's camelCase name (`--kube-api-qps` →
// `kubeApiQps`); durations are numbers of milliseconds, `featureGates` is the full gate map with
// defaults applied, `controllers` the raw `--controllers` list (resolve it with
// controllers.ts' resolveControllers).
import { isIP } from 'node:net';
import { Option, InvalidArgumentError, type Command } from 'commander';
import { formatDuration, parseDuration } from '../machinery/codec/time.js';
import { program } from '../machinery/flags.js';
import { cloudOf } from '../controllers/cloud/provider.js';
import { ipamConfig } from '../controllers/nodeipam/config.js';
import { recyclerConfigs } from '../controllers/persistentvolume/recycler.js';
import { CONTROLLERS, resolveControllers } from './controllers.js';

export type OptionType = 'bool' | 'int32' | 'port' | 'float32' | 'duration' | 'string' | 'ip' | 'cidr' | 'stringSlice' | 'featureGates';

export interface OptionSpec {
  flag: string;
  type: OptionType;
  /** The default in flag syntax (durations as Go strings). undefined = unset. */
  def?: string | number | boolean | string[];
  help: string;
  choices?: readonly string[];
  /** Lower bound for numbers. */
  min?: number;
}

export const LOCK_TYPES = ['endpoints', 'configmaps', 'leases', 'endpointsleases', 'configmapsleases'] as const;
export type LockType = (typeof LOCK_TYPES)[number];

export interface FeatureGateSpec {
  stage: 'alpha' | 'beta' | 'ga' | 'unspecified';
  default: boolean;
}

/** Seed 001's feature gates (kubelet spelled out) and the kube-controller-manager 1.33 gates its controllers read, with their stages and defaults. */
export const FEATURE_GATES: Record<string, FeatureGateSpec> = {
  Accelerators: { stage: 'alpha', default: false },
  AdvancedAuditing: { stage: 'alpha', default: false },
  AffinityInAnnotations: { stage: 'alpha', default: false },
  AllAlpha: { stage: 'alpha', default: false },
  AllowExtTrafficLocalEndpoints: { stage: 'unspecified', default: true },
  AppArmor: { stage: 'beta', default: true },
  DynamicKubeletConfig: { stage: 'alpha', default: false },
  DynamicVolumeProvisioning: { stage: 'alpha', default: true },
  ExperimentalCriticalPodAnnotation: { stage: 'alpha', default: false },
  ExperimentalHostUserNamespaceDefaulting: { stage: 'beta', default: false },
  LocalStorageCapacityIsolation: { stage: 'alpha', default: false },
  // kube-controller-manager 1.33's, beyond the seed's: StatefulSet rollingUpdate.maxUnavailable
  MaxUnavailableStatefulSet: { stage: 'alpha', default: false },
  PersistentLocalVolumes: { stage: 'alpha', default: false },
  RotateKubeletClientCertificate: { stage: 'alpha', default: false },
  RotateKubeletServerCertificate: { stage: 'alpha', default: false },
  StreamingProxyRedirects: { stage: 'beta', default: true },
  TaintBasedEvictions: { stage: 'alpha', default: false },
};

/**
 * The options of seed 001 that change nothing in kubelite, and why (Kubernetes' reason where it has
 * one): `--help` says so beside each. Every other option is read by the daemon or a controller
 * (test/architecture/options-effect.test.ts checks both directions on the source).
 */
export const WITHOUT_EFFECT: Readonly<Record<string, string>> = {
  'horizontal-pod-autoscaler-use-rest-clients': 'the autoscaler always reads the metrics APIs through REST clients, as Kubernetes has since 1.12',
  'cloud-container-registry-config': 'no in-tree cloud provider reads registry credentials (removed from Kubernetes)',
  'cloud-service-account-json-key': 'no in-tree cloud provider reads service account keys (removed from Kubernetes)',
  'insecure-experimental-approve-all-kubelet-csrs-for-group': 'it does nothing, as the seed and Kubernetes say',
  'flex-volume-plugin-dir': 'FlexVolume plugins need a node that runs them; the simulated nodes do not',
};

// prettier-ignore
export const OPTION_SPECS: OptionSpec[] = [
  // General and connection
  { flag: 'address', type: 'ip', def: '0.0.0.0', help: 'The IP address to serve the HTTP service on (0.0.0.0 for all interfaces).' },
  { flag: 'port', type: 'port', def: 10252, help: 'The port of the HTTP service (/healthz, /metrics, /configz, /debug/pprof/); 0 disables it.' },
  { flag: 'bind-address', type: 'ip', def: '0.0.0.0', help: 'The IP address to serve HTTPS on with --secure-port.' },
  { flag: 'secure-port', type: 'port', def: 0, help: 'The port of the HTTPS service (needs --tls-cert-file and --tls-private-key-file); 0 disables it.' },
  { flag: 'tls-cert-file', type: 'string', help: 'PEM certificate (chain) of the HTTPS service.' },
  { flag: 'tls-private-key-file', type: 'string', help: 'PEM private key of the HTTPS service.' },
  { flag: 'master', type: 'string', help: 'The address of the Kubernetes API server (overrides any value in kubeconfig).' },
  { flag: 'kubeconfig', type: 'string', help: 'Path to kubeconfig file with authorization and master location information.' },
  { flag: 'kube-api-qps', type: 'float32', def: 20, min: 0, help: 'QPS to use while talking with the Kubernetes API server.' },
  { flag: 'kube-api-burst', type: 'int32', def: 30, min: 0, help: 'Burst to use while talking with the Kubernetes API server.' },
  { flag: 'kube-api-content-type', type: 'string', def: 'application/vnd.kubernetes.protobuf', choices: ['application/vnd.kubernetes.protobuf', 'application/json'], help: 'Content type of requests sent to the API server.' },
  { flag: 'controllers', type: 'stringSlice', def: ['*'], help: `A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.\nAll controllers: ${Object.keys(CONTROLLERS).join(', ')}\nDisabled-by-default controllers: ${Object.entries(CONTROLLERS).filter(([, e]) => !e.enabledByDefault).map(([n]) => n).join(', ')}` },
  { flag: 'controller-start-interval', type: 'duration', def: '0s', help: 'Interval between starting controller managers.' },
  { flag: 'min-resync-period', type: 'duration', def: '12h0m0s', help: 'The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod.' },
  { flag: 'profiling', type: 'bool', def: true, help: 'Enable profiling via web interface host:port/debug/pprof/.' },
  { flag: 'contention-profiling', type: 'bool', def: false, help: 'Enable lock contention profiling, if profiling is enabled. Node has no locks: /debug/pprof/block then shows what waited instead, each work queue (items and the time they waited for a worker) and the event loop (its delay).' },
  { flag: 'version', type: 'bool', def: false, help: 'Print version information and quit.' },
  { flag: 'feature-gates', type: 'featureGates', help: `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are: ${Object.entries(FEATURE_GATES).map(([n, g]) => `${n}=true|false (${g.stage.toUpperCase()} - default=${g.default})`).join(', ')}` },
  // Leader election
  { flag: 'leader-elect', type: 'bool', def: true, help: 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.' },
  { flag: 'leader-elect-lease-duration', type: 'duration', def: '15s', help: 'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot.' },
  { flag: 'leader-elect-renew-deadline', type: 'duration', def: '10s', help: 'The interval between attempts by the acting master to renew a leadership slot before it stops leading. Must be less than or equal to the lease duration.' },
  { flag: 'leader-elect-retry-period', type: 'duration', def: '2s', help: 'The duration the clients should wait between attempting acquisition and renewal of a leadership.' },
  { flag: 'leader-elect-resource-lock', type: 'string', def: 'endpoints', choices: LOCK_TYPES, help: `The type of resource object that is used for locking during leader election. Supported options are ${LOCK_TYPES.join(', ')}.` },
  { flag: 'leader-elect-resource-name', type: 'string', def: 'kube-controller-manager', help: 'The name of resource object that is used for locking during leader election.' },
  { flag: 'leader-elect-resource-namespace', type: 'string', def: 'kube-system', help: 'The namespace of resource object that is used for locking during leader election.' },
  // Synchronization concurrency and periods
  { flag: 'concurrent-deployment-syncs', type: 'int32', def: 5, min: 1, help: 'The number of deployment objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-endpoint-syncs', type: 'int32', def: 5, min: 1, help: 'The number of endpoint syncing operations that will be done concurrently.' },
  { flag: 'concurrent-gc-syncs', type: 'int32', def: 20, min: 1, help: 'The number of garbage collector workers that are allowed to sync concurrently.' },
  { flag: 'concurrent-namespace-syncs', type: 'int32', def: 10, min: 1, help: 'The number of namespace objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-replicaset-syncs', type: 'int32', def: 5, min: 1, help: 'The number of replica sets that are allowed to sync concurrently.' },
  { flag: 'concurrent-resource-quota-syncs', type: 'int32', def: 5, min: 1, help: 'The number of resource quotas that are allowed to sync concurrently.' },
  { flag: 'concurrent-service-syncs', type: 'int32', def: 1, min: 1, help: 'The number of services that are allowed to sync concurrently.' },
  { flag: 'concurrent-serviceaccount-token-syncs', type: 'int32', def: 5, min: 1, help: 'The number of service account token objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-rc-syncs', type: 'int32', def: 5, min: 1, help: 'The number of replication controllers that are allowed to sync concurrently (also --concurrent_rc_syncs).' },
  { flag: 'concurrent-daemonset-syncs', type: 'int32', def: 2, min: 1, help: 'The number of daemonset objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-job-syncs', type: 'int32', def: 5, min: 1, help: 'The number of job objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-cron-job-syncs', type: 'int32', def: 5, min: 1, help: 'The number of cron job objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-statefulset-syncs', type: 'int32', def: 5, min: 1, help: 'The number of statefulset objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-ttl-after-finished-syncs', type: 'int32', def: 5, min: 1, help: 'The number of TTL-after-finished controller workers that are allowed to sync concurrently.' },
  { flag: 'concurrent-horizontal-pod-autoscaler-syncs', type: 'int32', def: 5, min: 1, help: 'The number of horizontal pod autoscaler objects that are allowed to sync concurrently.' },
  { flag: 'concurrent-service-endpoint-syncs', type: 'int32', def: 5, min: 1, help: 'The number of service endpoint syncing operations (EndpointSlice controller) that will be done concurrently.' },
  { flag: 'mirroring-concurrent-service-endpoint-syncs', type: 'int32', def: 5, min: 1, help: 'The number of service endpoint syncing operations of the EndpointSliceMirroring controller done concurrently.' },
  { flag: 'endpoint-updates-batch-period', type: 'duration', def: '0s', help: 'The length of endpoint updates batching period. Processing of pod changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of endpoints updates.' },
  { flag: 'endpointslice-updates-batch-period', type: 'duration', def: '0s', help: 'The length of endpoint slice updates batching period. Processing of pod changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of endpoints updates.' },
  { flag: 'max-endpoints-per-slice', type: 'int32', def: 100, min: 1, help: 'The maximum number of endpoints that will be added to an EndpointSlice. More endpoints per slice will result in less endpoint slices, but larger resources.' },
  { flag: 'mirroring-max-endpoints-per-subset', type: 'int32', def: 1000, min: 1, help: 'The maximum number of endpoints that will be added to an EndpointSlice by the EndpointSliceMirroring controller.' },
  { flag: 'mirroring-endpointslice-updates-batch-period', type: 'duration', def: '0s', help: 'The length of EndpointSlice updates batching period for EndpointSliceMirroring controller. Processing of EndpointSlice changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of EndpointSlice updates.' },
  { flag: 'concurrent-ephemeralvolume-syncs', type: 'int32', def: 5, min: 1, help: 'The number of ephemeral volume syncing operations that will be done concurrently.' },
  { flag: 'deployment-controller-sync-period', type: 'duration', def: '30s', help: 'Period for syncing the deployments.' },
  { flag: 'namespace-sync-period', type: 'duration', def: '5m0s', help: 'The period for syncing namespace life-cycle updates.' },
  { flag: 'pvclaimbinder-sync-period', type: 'duration', def: '15s', help: 'The period for syncing persistent volumes and persistent volume claims.' },
  { flag: 'resource-quota-sync-period', type: 'duration', def: '5m0s', help: 'The period for syncing quota usage status in the system.' },
  { flag: 'service-sync-period', type: 'duration', def: '5m0s', help: 'The period for syncing services with their external load balancers.' },
  { flag: 'route-reconciliation-period', type: 'duration', def: '10s', help: 'The period for reconciling routes created for Nodes by cloud provider.' },
  { flag: 'attach-detach-reconcile-sync-period', type: 'duration', def: '1m0s', help: 'The reconciler sync wait time between volume attach detach. Must be greater than 1 second; increasing it may cause volumes to mismatch pods.' },
  { flag: 'disable-attach-detach-reconcile-sync', type: 'bool', def: false, help: 'Disable volume attach detach reconciler sync. Disabling this may cause volumes to be mismatched with pods. Use wisely.' },
  // Autoscaler
  { flag: 'horizontal-pod-autoscaler-sync-period', type: 'duration', def: '30s', help: 'The period for syncing the number of pods in horizontal pod autoscaler.' },
  { flag: 'horizontal-pod-autoscaler-downscale-delay', type: 'duration', def: '5m0s', help: 'The period since last downscale, before another downscale can be performed in horizontal pod autoscaler.' },
  { flag: 'horizontal-pod-autoscaler-upscale-delay', type: 'duration', def: '3m0s', help: 'The period since last upscale, before another upscale can be performed in horizontal pod autoscaler.' },
  { flag: 'horizontal-pod-autoscaler-downscale-stabilization', type: 'duration', def: '5m0s', help: 'The period for which autoscaler will look backwards and not scale down below any recommendation it made during that period (--horizontal-pod-autoscaler-downscale-delay is its older name).' },
  { flag: 'horizontal-pod-autoscaler-tolerance', type: 'float32', def: 0.1, min: 0, help: 'The minimum change (from 1.0) in the desired-to-actual metrics ratio for the horizontal pod autoscaler to consider scaling.' },
  { flag: 'horizontal-pod-autoscaler-cpu-initialization-period', type: 'duration', def: '5m0s', help: 'The period after pod start when CPU samples might be skipped.' },
  { flag: 'horizontal-pod-autoscaler-initial-readiness-delay', type: 'duration', def: '30s', help: 'The period after pod start during which readiness changes will be treated as initial readiness.' },
  { flag: 'horizontal-pod-autoscaler-use-rest-clients', type: 'bool', def: false, help: 'ALPHA: use REST clients through the aggregation layer instead of the legacy metrics client through the API server proxy. Required for custom metrics support.' },
  // Node lifecycle and eviction
  { flag: 'node-monitor-period', type: 'duration', def: '5s', help: 'The period for syncing NodeStatus in NodeController.' },
  { flag: 'node-monitor-grace-period', type: 'duration', def: '40s', help: "Amount of time which we allow running Node to be unresponsive before marking it unhealthy. Must be N times more than kubelet's nodeStatusUpdateFrequency." },
  { flag: 'node-startup-grace-period', type: 'duration', def: '1m0s', help: 'Amount of time which we allow starting Node to be unresponsive before marking it unhealthy.' },
  { flag: 'pod-eviction-timeout', type: 'duration', def: '5m0s', help: 'The grace period for deleting pods on failed nodes.' },
  { flag: 'node-eviction-rate', type: 'float32', def: 0.1, min: 0, help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy.' },
  { flag: 'secondary-node-eviction-rate', type: 'float32', def: 0.01, min: 0, help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy. Implicitly 0 if the cluster size is not larger than --large-cluster-size-threshold.' },
  { flag: 'unhealthy-zone-threshold', type: 'float32', def: 0.55, min: 0, help: 'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy.' },
  { flag: 'large-cluster-size-threshold', type: 'int32', def: 50, min: 0, help: 'Number of nodes from which NodeController treats the cluster as large for the eviction logic purposes.' },
  { flag: 'enable-taint-manager', type: 'bool', def: true, help: 'BETA: Taint manager: evicts pods that do not tolerate NoExecute taints from tainted nodes.' },
  { flag: 'terminated-pod-gc-threshold', type: 'int32', def: 12500, help: 'Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled.' },
  { flag: 'enable-garbage-collector', type: 'bool', def: true, help: "Enables the generic garbage collector. MUST be synced with the corresponding flag of the kube-apiserver." },
  // Network and cloud
  { flag: 'allocate-node-cidrs', type: 'bool', def: false, help: 'Should CIDRs for Pods be allocated and set on the cloud provider.' },
  { flag: 'configure-cloud-routes', type: 'bool', def: true, help: 'Should CIDRs allocated by allocate-node-cidrs be configured on the cloud provider.' },
  { flag: 'cidr-allocator-type', type: 'string', def: 'RangeAllocator', choices: ['RangeAllocator', 'CloudAllocator', 'IPAMFromCluster', 'IPAMFromCloud'], help: 'Type of CIDR allocator to use.' },
  { flag: 'cluster-cidr', type: 'cidr', help: 'CIDR Range for Pods in cluster (comma-separated for dual stack).' },
  { flag: 'node-cidr-mask-size', type: 'int32', def: 24, min: 0, help: 'Mask size for node cidr in cluster (single-stack clusters).' },
  { flag: 'node-cidr-mask-size-ipv4', type: 'int32', def: 0, min: 0, help: 'Mask size for IPv4 node cidr in dual-stack cluster (0: 24).' },
  { flag: 'node-cidr-mask-size-ipv6', type: 'int32', def: 0, min: 0, help: 'Mask size for IPv6 node cidr in dual-stack cluster (0: 64).' },
  { flag: 'service-cluster-ip-range', type: 'cidr', help: 'CIDR Range for Services in cluster (comma-separated for dual stack).' },
  { flag: 'cluster-name', type: 'string', def: 'kubernetes', help: 'The instance prefix for the cluster.' },
  { flag: 'cloud-provider', type: 'string', def: '', help: "The provider for cloud services. Empty string for no provider: the service, route and cloud-node-lifecycle controllers then do nothing, as in Kubernetes. 'kubelite' is a simulated cloud for tests (load balancer addresses from a range, routes, instances as the Nodes)." },
  { flag: 'cloud-config', type: 'string', def: '', help: 'The path to the cloud provider configuration file. Empty string for no configuration file. For kubelite: YAML with loadBalancerIPRange (default 172.18.255.0/24).' },
  { flag: 'cloud-container-registry-config', type: 'string', help: 'Path to a cloud container registry configuration file.' },
  { flag: 'cloud-service-account-json-key', type: 'string', help: 'Cloud service account JSON key used for authentication.' },
  // Volumes
  { flag: 'enable-dynamic-provisioning', type: 'bool', def: true, help: 'Enable dynamic provisioning for environments that support it.' },
  { flag: 'enable-hostpath-provisioner', type: 'bool', def: false, help: 'Enable HostPath PV provisioning when running without a cloud provider. For testing and development only; not supported in a multi-node cluster.' },
  { flag: 'flex-volume-plugin-dir', type: 'string', def: '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/', help: 'Full path of the directory in which the flex volume plugin should search for additional third party volume plugins.' },
  { flag: 'pv-recycler-minimum-timeout-nfs', type: 'int32', def: 300, min: 0, help: 'The minimum ActiveDeadlineSeconds to use for an NFS Recycler pod.' },
  { flag: 'pv-recycler-increment-timeout-nfs', type: 'int32', def: 30, min: 0, help: 'The increment of time added per Gi to ActiveDeadlineSeconds for an NFS scrubber pod.' },
  { flag: 'pv-recycler-pod-template-filepath-nfs', type: 'string', help: 'The file path to a pod definition used as a template for NFS persistent volume recycling.' },
  { flag: 'pv-recycler-minimum-timeout-hostpath', type: 'int32', def: 60, min: 0, help: 'The minimum ActiveDeadlineSeconds to use for a HostPath Recycler pod. For development and testing only.' },
  { flag: 'pv-recycler-timeout-increment-hostpath', type: 'int32', def: 30, min: 0, help: 'The increment of time added per Gi to ActiveDeadlineSeconds for a HostPath scrubber pod. For development and testing only.' },
  { flag: 'pv-recycler-pod-template-filepath-hostpath', type: 'string', help: 'The file path to a pod definition used as a template for HostPath persistent volume recycling. For development and testing only.' },
  // Certificates and tokens
  { flag: 'cluster-signing-cert-file', type: 'string', def: '/etc/kubernetes/ca/ca.pem', help: 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates.' },
  { flag: 'cluster-signing-key-file', type: 'string', def: '/etc/kubernetes/ca/ca.key', help: 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates.' },
  { flag: 'experimental-cluster-signing-duration', type: 'duration', def: '8760h0m0s', help: 'The length of duration signed certificates will be given (deprecated spelling of --cluster-signing-duration).' },
  { flag: 'cluster-signing-duration', type: 'duration', def: '8760h0m0s', help: 'The max length of duration signed certificates will be given. Individual CSRs may request shorter certs by setting spec.expirationSeconds.' },
  { flag: 'root-ca-file', type: 'string', help: "If set, this root certificate authority will be included in service account's token secret. This must be a valid PEM-encoded CA bundle." },
  { flag: 'service-account-private-key-file', type: 'string', help: 'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.' },
  { flag: 'legacy-service-account-token-clean-up-period', type: 'duration', def: '8760h0m0s', help: 'The period of time since the last usage of an legacy service account token before it can be deleted.' },
  { flag: 'use-service-account-credentials', type: 'bool', def: false, help: 'If true, use individual service account credentials for each controller.' },
  { flag: 'insecure-experimental-approve-all-kubelet-csrs-for-group', type: 'string', help: 'This flag does nothing.' },
];

/** The parsed options (see the header): camelCase keys, durations in milliseconds. */
export interface ControllerManagerOptions {
  address: string;
  port: number;
  bindAddress: string;
  securePort: number;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  master?: string;
  kubeconfig?: string;
  kubeApiQps: number;
  kubeApiBurst: number;
  kubeApiContentType: string;
  controllers: string[];
  controllerStartInterval: number;
  minResyncPeriod: number;
  profiling: boolean;
  contentionProfiling: boolean;
  version: boolean;
  featureGates: Record<string, boolean>;
  leaderElect: boolean;
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectRetryPeriod: number;
  leaderElectResourceLock: LockType;
  leaderElectResourceName: string;
  leaderElectResourceNamespace: string;
  attachDetachReconcileSyncPeriod: number;
  [key: string]: unknown;
}

/** `--kube-api-qps` → `kubeApiQps`. */
export function optionKey(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function fail(msg: string): never {
  throw new InvalidArgumentError(msg);
}

export function parseBool(v: string): boolean {
  // strconv.ParseBool
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  fail(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

/** A Go duration in milliseconds (not negative). */
export function parseDurationMs(v: string): number {
  let ns: bigint;
  try {
    ns = parseDuration(v);
  } catch (err) {
    fail(`${(err as Error).message} (a duration such as 30s, 5m0s or 12h0m0s)`);
  }
  if (ns < 0n) fail('must not be negative');
  return Number(ns) / 1e6;
}

export function formatDurationMs(ms: number): string {
  return formatDuration(BigInt(Math.round(ms * 1e6)));
}

function parseInt32(v: string, min?: number): number {
  if (!/^[+-]?\d+$/.test(v.trim())) fail(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = Number(v);
  if (n < -(2 ** 31) || n > 2 ** 31 - 1) fail(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  if (min !== undefined && n < min) fail(`must be at least ${min}`);
  return n;
}

function parseFloat32(v: string, min?: number): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) fail(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
  if (min !== undefined && n < min) fail(`must be at least ${min}`);
  return n;
}

function parseCidrs(v: string): string {
  for (const part of v.split(',')) {
    const m = /^([^/]+)\/(\d+)$/.exec(part.trim());
    const family = m ? isIP(m[1]!) : 0;
    if (!m || family === 0 || Number(m[2]) > (family === 4 ? 32 : 128)) fail(`invalid CIDR address: ${part}`);
  }
  return v;
}

/** `Name=bool,...` into an explicit map; unknown gates and bad values are errors. */
export function parseFeatureGates(v: string, prev: Record<string, boolean> = {}): Record<string, boolean> {
  const out = { ...prev };
  for (const item of v.split(',')) {
    const s = item.trim();
    if (s === '') continue;
    const eq = s.indexOf('=');
    if (eq < 0) fail(`missing bool value for ${s}`);
    const name = s.slice(0, eq).trim();
    const val = s.slice(eq + 1).trim();
    if (!Object.hasOwn(FEATURE_GATES, name)) fail(`unrecognized feature gate: ${name}`);
    let b: boolean;
    try {
      b = parseBool(val);
    } catch {
      fail(`invalid value of ${name}=${val}, err: strconv.ParseBool: parsing ${JSON.stringify(val)}: invalid syntax`);
    }
    out[name] = b;
  }
  return out;
}

/** Every gate's effective value: defaults, AllAlpha (turns on every alpha gate not set explicitly), then the explicit ones. */
export function effectiveFeatureGates(explicit: Record<string, boolean>): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const allAlpha = explicit.AllAlpha ?? FEATURE_GATES.AllAlpha!.default;
  for (const [name, g] of Object.entries(FEATURE_GATES)) {
    out[name] = Object.hasOwn(explicit, name) ? explicit[name]! : allAlpha && g.stage === 'alpha' ? true : g.default;
  }
  return out;
}

function defaultValue(s: OptionSpec): unknown {
  if (s.def === undefined) return s.type === 'featureGates' ? {} : undefined;
  if (s.type === 'duration') return parseDurationMs(s.def as string);
  return s.def;
}

function defaultDisplay(s: OptionSpec): string | undefined {
  if (s.def === undefined) return undefined;
  if (Array.isArray(s.def)) return `[${s.def.join(',')}]`;
  if (typeof s.def === 'string') return s.type === 'duration' ? formatDurationMs(parseDurationMs(s.def)) : JSON.stringify(s.def);
  return String(s.def);
}

function argParser(s: OptionSpec, defaults: Map<string, unknown>): (v: string, prev: unknown) => unknown {
  switch (s.type) {
    case 'bool':
      return (v) => parseBool(v);
    case 'int32':
      return (v) => parseInt32(v, s.min);
    case 'port':
      return (v) => {
        const n = parseInt32(v);
        if (n < 0 || n > 65535) fail('must be a port number from 0 to 65535');
        return n;
      };
    case 'float32':
      return (v) => parseFloat32(v, s.min);
    case 'duration':
      return (v) => parseDurationMs(v);
    case 'ip':
      return (v) => {
        if (isIP(v) === 0) fail(`invalid IP address: ${JSON.stringify(v)}`);
        return v;
      };
    case 'cidr':
      return (v) => parseCidrs(v);
    case 'string':
      return (v) => {
        if (s.choices && !s.choices.includes(v)) fail(`must be one of ${s.choices.join(', ')}`);
        return v;
      };
    case 'stringSlice':
      // pflag: the first use replaces the default, later uses append
      return (v, prev) => {
        const items = v === '' ? [] : v.split(',').map((x) => x.trim());
        return prev === defaults.get(s.flag) ? items : [...(prev as string[]), ...items];
      };
    case 'featureGates':
      return (v, prev) => parseFeatureGates(v, prev as Record<string, boolean>);
  }
}

const PLACEHOLDER: Record<OptionType, string> = {
  bool: '[bool]',
  int32: '<int32>',
  port: '<int>',
  float32: '<float32>',
  duration: '<duration>',
  string: '<string>',
  ip: '<ip>',
  cidr: '<cidr>',
  stringSlice: '<strings>',
  featureGates: '<mapStringBool>',
};

export function buildCommand(): Command {
  const cmd = program(
    'controller-manager',
    'The Kubernetes controller manager: a daemon that embeds the core control loops (deployment, replicaset, job, cronjob, daemonset, garbage collector, namespace, ...) and drives the cluster toward its desired state through the API server.',
  );
  cmd.helpOption('-h, --help', 'help for controller-manager');
  const defaults = new Map<string, unknown>();
  for (const s of OPTION_SPECS) {
    const def = defaultValue(s);
    defaults.set(s.flag, def);
    const why = WITHOUT_EFFECT[s.flag];
    const o = new Option(`--${s.flag} ${PLACEHOLDER[s.type]}`, why === undefined ? s.help : `${s.help} Accepted without effect: ${why}.`);
    o.argParser(argParser(s, defaults) as (v: string, prev: unknown) => unknown);
    if (def !== undefined) o.default(def, defaultDisplay(s));
    cmd.addOption(o);
  }
  return cmd;
}

/** pflag's word-separator normalization: `--concurrent_rc_syncs` is `--concurrent-rc-syncs`. */
export function normalizeArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  let done = false;
  for (const a of argv) {
    if (done || !a.startsWith('--')) {
      out.push(a);
      if (a === '--') done = true;
      continue;
    }
    const eq = a.indexOf('=');
    out.push(eq < 0 ? a.replaceAll('_', '-') : a.slice(0, eq).replaceAll('_', '-') + a.slice(eq));
  }
  return out;
}

/** Cross-option validation (after parsing): returns the error messages. */
export function validateOptions(o: ControllerManagerOptions): string[] {
  const errs: string[] = [];
  try {
    cloudOf(o);
  } catch (err) {
    errs.push((err as Error).message);
  }
  // kube-controller-manager refuses to start the node IPAM controller with an unusable range
  try {
    if (resolveControllers(o.controllers).includes('nodeipam')) ipamConfig(o);
  } catch (err) {
    errs.push((err as Error).message);
  }
  if (o.leaderElect) {
    if (o.leaderElectLeaseDuration <= 0) errs.push('--leader-elect-lease-duration must be greater than zero');
    if (o.leaderElectRenewDeadline <= 0) errs.push('--leader-elect-renew-deadline must be greater than zero');
    if (o.leaderElectRetryPeriod <= 0) errs.push('--leader-elect-retry-period must be greater than zero');
    if (o.leaderElectRenewDeadline > o.leaderElectLeaseDuration) {
      errs.push(`--leader-elect-renew-deadline (${formatDurationMs(o.leaderElectRenewDeadline)}) must be less than or equal to --leader-elect-lease-duration (${formatDurationMs(o.leaderElectLeaseDuration)})`);
    }
    if (o.leaderElectRenewDeadline <= 1.2 * o.leaderElectRetryPeriod) {
      errs.push(`--leader-elect-renew-deadline (${formatDurationMs(o.leaderElectRenewDeadline)}) must be greater than 1.2 × --leader-elect-retry-period (${formatDurationMs(o.leaderElectRetryPeriod)})`);
    }
    if (o.leaderElectResourceName === '') errs.push('--leader-elect-resource-name must not be empty');
    if (o.leaderElectResourceNamespace === '') errs.push('--leader-elect-resource-namespace must not be empty');
  }
  if (o.attachDetachReconcileSyncPeriod <= 1000) {
    errs.push(`--attach-detach-reconcile-sync-period (${formatDurationMs(o.attachDetachReconcileSyncPeriod)}) must be greater than 1 second`);
  }
  if (o.minResyncPeriod <= 0) errs.push('--min-resync-period must be greater than zero');
  // kube-controller-manager exits when a recycler pod template cannot be loaded
  try {
    recyclerConfigs(o);
  } catch (err) {
    errs.push((err as Error).message);
  }
  try {
    resolveControllers(o.controllers);
  } catch (err) {
    errs.push(`--controllers: ${(err as Error).message}`);
  }
  if (o.securePort !== 0 && (!o.tlsCertFile || !o.tlsPrivateKeyFile)) {
    errs.push('--secure-port needs --tls-cert-file and --tls-private-key-file (kubelite does not generate self-signed certificates)');
  }
  if (o.master !== undefined && o.master !== '' && !/^https?:\/\/|^[^/]+$/.test(o.master)) errs.push(`--master ${JSON.stringify(o.master)} is not a URL`);
  return errs;
}

export interface ParseResult {
  /** Set when the program should end now (help, version, errors): the exit code. */
  exitCode?: number;
  options?: ControllerManagerOptions;
}

export interface Output {
  out(s: string): void;
  err(s: string): void;
}

const stdio: Output = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** Parses and validates the command line; errors are one line on `io.err` and exit code 2. */
export function parseControllerManagerOptions(argv: readonly string[], io: Output = stdio, version = '0.1.0'): ParseResult {
  const cmd = buildCommand();
  cmd.configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s.startsWith('error: ') ? `kubelite controller-manager: ${s.slice('error: '.length)}` : s),
  });
  try {
    cmd.parse(normalizeArgv(argv), { from: 'user' });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.help' || code === 'commander.version') return { exitCode: 0 };
    if (typeof code === 'string' && code.startsWith('commander.')) return { exitCode: 2 };
    throw err;
  }
  const raw = cmd.opts();
  const o = { ...raw } as ControllerManagerOptions;
  if (o.version) {
    io.out(`Kubernetes v1.32.0-kubelite (kubelite ${version})\n`);
    return { exitCode: 0 };
  }
  o.featureGates = effectiveFeatureGates(raw.featureGates as Record<string, boolean>);
  const errs = validateOptions(o);
  if (errs.length > 0) {
    io.err(`kubelite controller-manager: ${errs.join('; ')}\n`);
    return { exitCode: 2 };
  }
  return { options: o };
}

/** The options with every default (what a library caller starts from). */
export function defaultOptions(overrides: Partial<ControllerManagerOptions> = {}): ControllerManagerOptions {
  const r = parseControllerManagerOptions([], { out: () => {}, err: () => {} });
  return { ...r.options!, ...overrides };
}

/** The options as /configz shows them: flag names, durations in Go syntax. */
export function optionsForConfigz(o: ControllerManagerOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of OPTION_SPECS) {
    const v = o[optionKey(s.flag)];
    if (s.flag === 'cloud-service-account-json-key' && v !== undefined) out[s.flag] = '<redacted>';
    else out[s.flag] = s.type === 'duration' && typeof v === 'number' ? formatDurationMs(v) : v;
  }
  return out;
}
