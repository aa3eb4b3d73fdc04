// The core/v1 kinds kubelite serves, as kube-apiserver's discovery describes them (resource,
// singular, short names, categories, scope, subresources). core/v1 is the only version of each
// of these kinds, so it is the storage version and no conversion is declared.
import type { KindVersion } from '../../schema/kind.js';
import { ConfigMap, ConfigMapList } from './configmap.js';
import { defaultPod, defaultPodTemplate } from './defaults.js';
import {
  admitNodeCreate,
  mergeSecretStringData,
  prepareNamespaceForCreate,
  setDefaultsEndpoints,
  setDefaultsNamespace,
  setDefaultsNode,
  setDefaultsSecret,
  setDefaultsService,
} from './defaults-other.js';
import { Endpoints, EndpointsList } from './endpoints.js';
import { Event, EventList } from './event.js';
import { Namespace, NamespaceList } from './namespace.js';
import { Node, NodeList } from './node.js';
import { defaultPersistentVolume, defaultPersistentVolumeClaim } from './defaults-storage.js';
import { PersistentVolume, PersistentVolumeList } from './persistentvolume.js';
import { PersistentVolumeClaim, PersistentVolumeClaimList } from './persistentvolumeclaim.js';
import { Pod, PodList, PodTemplate, PodTemplateList } from './pod.js';
import { Binding } from './binding.js';
import { ComponentStatus, ComponentStatusList, LimitRange, LimitRangeList, ResourceQuota, ResourceQuotaList, setDefaultsLimitRange } from './resourcequota.js';
import { ReplicationController, ReplicationControllerList, setDefaultsReplicationController } from './replicationcontroller.js';
import { Secret, SecretList } from './secret.js';
import { Service, ServiceList } from './service.js';
import { ServiceAccount, ServiceAccountList } from './serviceaccount.js';

// Re-exported for registry strategies: create-time steps that are not SetDefaults in Kubernetes.
export { admitNodeCreate, mergeSecretStringData, prepareNamespaceForCreate };

const core = { group: '', version: 'v1', storage: true } as const;

/**
 * pods. Subresources: status, binding (the scheduler), eviction (drain), ephemeralcontainers
 * (debug), resize (v1.33+), and the connections to the pod's node: log, exec, attach, portforward
 * and proxy (src/apiserver/proxy).
 */
export const podKind: KindVersion = {
  ...core,
  kind: 'Pod',
  resource: 'pods',
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  type: Pod,
  list: PodList,
  defaults: defaultPod,
  subresources: { status: true, binding: true, eviction: true, ephemeralcontainers: true, resize: true, log: true, proxy: true, exec: true, attach: true, portforward: true },
};

export const namespaceKind: KindVersion = {
  ...core,
  kind: 'Namespace',
  resource: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  namespaced: false,
  type: Namespace,
  list: NamespaceList,
  defaults: setDefaultsNamespace,
  subresources: { status: true, finalize: true },
};

export const nodeKind: KindVersion = {
  ...core,
  kind: 'Node',
  resource: 'nodes',
  singular: 'node',
  shortNames: ['no'],
  namespaced: false,
  type: Node,
  list: NodeList,
  defaults: setDefaultsNode,
  subresources: { status: true, proxy: true },
};

export const eventKind: KindVersion = {
  ...core,
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  type: Event,
  list: EventList,
};

export const configMapKind: KindVersion = {
  ...core,
  kind: 'ConfigMap',
  resource: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  namespaced: true,
  type: ConfigMap,
  list: ConfigMapList,
};

export const endpointsKind: KindVersion = {
  ...core,
  kind: 'Endpoints',
  resource: 'endpoints',
  singular: 'endpoints',
  shortNames: ['ep'],
  namespaced: true,
  type: Endpoints,
  list: EndpointsList,
  defaults: setDefaultsEndpoints,
};

export const serviceKind: KindVersion = {
  ...core,
  kind: 'Service',
  resource: 'services',
  singular: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  type: Service,
  list: ServiceList,
  defaults: setDefaultsService,
  subresources: { status: true, proxy: true },
};

export const serviceAccountKind: KindVersion = {
  ...core,
  kind: 'ServiceAccount',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  namespaced: true,
  type: ServiceAccount,
  list: ServiceAccountList,
  subresources: { token: true },
};

export const secretKind: KindVersion = {
  ...core,
  kind: 'Secret',
  resource: 'secrets',
  singular: 'secret',
  namespaced: true,
  type: Secret,
  list: SecretList,
  defaults: setDefaultsSecret,
};

/** replicationcontrollers: ReplicaSet's predecessor, run by the same controller (a map selector). */
export const replicationControllerKind: KindVersion = {
  ...core,
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  singular: 'replicationcontroller',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  type: ReplicationController,
  list: ReplicationControllerList,
  defaults: setDefaultsReplicationController,
  subresources: { status: true, scale: true },
};

/** podtemplates: a named pod template (no short name, no category, no subresource). */
export const podTemplateKind: KindVersion = {
  ...core,
  kind: 'PodTemplate',
  resource: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  type: PodTemplate,
  list: PodTemplateList,
  defaults: defaultPodTemplate,
};

/** resourcequotas: a namespace's aggregate limits; status.used is kept by the resourcequota controller and quota admission. */
export const resourceQuotaKind: KindVersion = {
  ...core,
  kind: 'ResourceQuota',
  resource: 'resourcequotas',
  singular: 'resourcequota',
  shortNames: ['quota'],
  namespaced: true,
  type: ResourceQuota,
  list: ResourceQuotaList,
  subresources: { status: true },
};

/** limitranges: per-object limits and the defaults LimitRanger admission applies. */
export const limitRangeKind: KindVersion = {
  ...core,
  kind: 'LimitRange',
  resource: 'limitranges',
  singular: 'limitrange',
  shortNames: ['limits'],
  namespaced: true,
  type: LimitRange,
  list: LimitRangeList,
  defaults: setDefaultsLimitRange,
};

/** bindings: POST a Binding to bind the pod it names (the pods/binding action); create only, nothing stored. */
export const bindingKind: KindVersion = {
  group: '',
  version: 'v1',
  storage: false,
  kind: 'Binding',
  resource: 'bindings',
  singular: 'binding',
  namespaced: true,
  type: Binding,
  createOnly: true,
  actsOn: { resource: 'pods', subresource: 'binding' },
};

/** componentstatuses (deprecated in v1.19, still served): each component's health, probed on every read. */
export const componentStatusKind: KindVersion = {
  group: '',
  version: 'v1',
  storage: false,
  kind: 'ComponentStatus',
  resource: 'componentstatuses',
  singular: 'componentstatus',
  shortNames: ['cs'],
  namespaced: false,
  type: ComponentStatus,
  list: ComponentStatusList,
  computed: true,
};

/** persistentvolumes (pv): cluster-scoped, with a status subresource. */
export const persistentVolumeKind: KindVersion = {
  ...core,
  kind: 'PersistentVolume',
  resource: 'persistentvolumes',
  singular: 'persistentvolume',
  shortNames: ['pv'],
  namespaced: false,
  type: PersistentVolume,
  list: PersistentVolumeList,
  defaults: defaultPersistentVolume,
  subresources: { status: true },
};

/** persistentvolumeclaims (pvc): namespaced, with a status subresource. */
export const persistentVolumeClaimKind: KindVersion = {
  ...core,
  kind: 'PersistentVolumeClaim',
  resource: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  namespaced: true,
  type: PersistentVolumeClaim,
  list: PersistentVolumeClaimList,
  defaults: defaultPersistentVolumeClaim,
  subresources: { status: true },
};

/** Every core/v1 kind kubelite serves. */
export const coreV1Kinds: readonly KindVersion[] = [
  podKind,
  namespaceKind,
  nodeKind,
  eventKind,
  configMapKind,
  endpointsKind,
  serviceKind,
  serviceAccountKind,
  secretKind,
  replicationControllerKind,
  podTemplateKind,
  resourceQuotaKind,
  limitRangeKind,
  bindingKind,
  componentStatusKind,
  persistentVolumeKind,
  persistentVolumeClaimKind,
];
