// kubelite's client layer (client-go's, in TypeScript): see types.ts for the contracts.
export * from './types.js';
export { ClientStatusError, isApiStatusError, isAlreadyExists, isConflict, isInvalid, isNotFound, isResourceExpired, isTooManyRequests } from './errors.js';
export { Store, defaultIndexers, isTombstone, keyOf, objectOf, splitKey, type IndexFunc } from './cache.js';
export { ManualClock, realClock, type Clock, type TimerHandle } from './clock.js';
export { TokenBucket, type RateLimiterOptions } from './rate-limit.js';
export { KubeconfigError, loadRestConfig, parseKubeconfig, type LoadOptions, type RestConfig } from './kubeconfig.js';
export { KUBERNETES_CLIENT_VERSION, RestClientset, newClientset, programName, type RestClientMetrics, type RestClientOptions } from './rest.js';
export { RestSharedInformer, SharedInformerFactory, stripManagedFields, type InformerStats, type SharedInformerFactoryOptions } from './informers.js';
export {
  BucketRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  RateLimitingQueue,
  defaultControllerRateLimiter,
  newRateLimitingQueue,
  runSyncWorkers,
  runWorkers,
  workQueueMetrics,
  type ItemRateLimiter,
  type WorkQueueMetrics,
  type WorkQueueOptions,
} from './workqueue.js';
export {
  AGGREGATED_ACCEPT,
  ErrGroupDiscoveryFailed,
  RestDiscoveryClient,
  apiVersionOfResource,
  discoveryError,
  isGroupDiscoveryFailed,
  preferredResources,
  withVerbs,
  type APIGroupInfo,
  type APIResourceInfo,
  type DiscoveryDocument,
  type DiscoveryInterface,
  type RawGet,
} from './discovery.js';
export { CompiledKindsDiscovery, discoveryOf } from './static-discovery.js';
export { DeferredDiscoveryRESTMapper, NoKindMatchError, isNoMatchError, type RESTMapping } from './rest-mapper.js';
export { EventBroadcaster, objectReference, type EventBroadcasterOptions } from './events.js';
export { newControllerContext, type ControllerContextOptions } from './context.js';
