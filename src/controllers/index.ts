// Every controller kubelite implements, by its descriptor (declared in its folder's index.ts).
// Adding a controller: its folder, its descriptor, and one line here (see README.md).
import { attachDetachDescriptor } from './attachdetach/index.js';
import { bootstrapSignerDescriptor, tokenCleanerDescriptor } from './bootstrap/index.js';
import { csrApprovingDescriptor, csrCleanerDescriptor, csrSigningDescriptor } from './certificates/index.js';
import { cloudNodeLifecycleDescriptor, routeDescriptor, serviceDescriptor } from './cloud/index.js';
import { clusterRoleAggregationDescriptor } from './clusterroleaggregation/index.js';
import type { ControllerDescriptor } from './common/descriptor.js';
import { cronJobDescriptor } from './cronjob/index.js';
import { daemonSetDescriptor } from './daemonset/index.js';
import { deploymentDescriptor } from './deployment/index.js';
import { disruptionDescriptor } from './disruption/index.js';
import { persistentVolumeExpanderDescriptor } from './expand/index.js';
import { endpointDescriptor } from './endpoint/index.js';
import { endpointSliceDescriptor } from './endpointslice/index.js';
import { endpointSliceMirroringDescriptor } from './endpointslicemirroring/index.js';
import { ephemeralVolumeDescriptor } from './ephemeralvolume/index.js';
import { garbageCollectorDescriptor } from './garbagecollector/index.js';
import { jobDescriptor } from './job/index.js';
import { horizontalPodAutoscalingDescriptor } from './podautoscaler/index.js';
import { legacyTokenCleanerDescriptor } from './legacytokencleaner/index.js';
import { namespaceDescriptor } from './namespace/index.js';
import { nodeIpamDescriptor } from './nodeipam/index.js';
import { nodeLifecycleDescriptor } from './nodelifecycle/index.js';
import { persistentVolumeBinderDescriptor } from './persistentvolume/index.js';
import { podGCDescriptor } from './podgc/index.js';
import { pvProtectionDescriptor } from './pvprotection/index.js';
import { pvcProtectionDescriptor } from './pvcprotection/index.js';
import { replicaSetDescriptor, replicationControllerDescriptor } from './replicaset/index.js';
import { resourceQuotaDescriptor } from './resourcequota/index.js';
import { rootCACertPublisherDescriptor } from './rootcacertpublisher/index.js';
import { serviceAccountDescriptor } from './serviceaccount/index.js';
import { serviceAccountTokenDescriptor } from './serviceaccounttoken/index.js';
import { statefulSetDescriptor } from './statefulset/index.js';
import { taintEvictionDescriptor } from './tainteviction/index.js';
import { ttlDescriptor } from './ttl/index.js';
import { ttlAfterFinishedDescriptor } from './ttlafterfinished/index.js';
import { validatingAdmissionPolicyStatusDescriptor } from './validatingadmissionpolicystatus/index.js';

export type { ControllerDescriptor } from './common/descriptor.js';

export const CONTROLLER_DESCRIPTORS: readonly ControllerDescriptor[] = [
  attachDetachDescriptor,
  bootstrapSignerDescriptor,
  cloudNodeLifecycleDescriptor,
  clusterRoleAggregationDescriptor,
  csrApprovingDescriptor,
  csrCleanerDescriptor,
  csrSigningDescriptor,
  cronJobDescriptor,
  daemonSetDescriptor,
  deploymentDescriptor,
  disruptionDescriptor,
  endpointDescriptor,
  endpointSliceDescriptor,
  endpointSliceMirroringDescriptor,
  ephemeralVolumeDescriptor,
  garbageCollectorDescriptor,
  horizontalPodAutoscalingDescriptor,
  jobDescriptor,
  legacyTokenCleanerDescriptor,
  namespaceDescriptor,
  nodeIpamDescriptor,
  nodeLifecycleDescriptor,
  persistentVolumeBinderDescriptor,
  persistentVolumeExpanderDescriptor,
  podGCDescriptor,
  pvProtectionDescriptor,
  pvcProtectionDescriptor,
  replicaSetDescriptor,
  replicationControllerDescriptor,
  resourceQuotaDescriptor,
  rootCACertPublisherDescriptor,
  routeDescriptor,
  serviceDescriptor,
  serviceAccountDescriptor,
  serviceAccountTokenDescriptor,
  statefulSetDescriptor,
  taintEvictionDescriptor,
  tokenCleanerDescriptor,
  ttlDescriptor,
  ttlAfterFinishedDescriptor,
  validatingAdmissionPolicyStatusDescriptor,
];
