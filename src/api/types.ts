// The TypeScript types of the served kinds and of the structs code reads inside them, derived from
// the schema declarations (Infer) so they can never disagree with what the API server accepts.
// Every field is optional (and may be null), as in JSON: code that needs a value checks for it.
// Each type is the JSON form of the storage (hub) version, the one controllers and strategies see.
import type { Infer } from './schema/dsl.js';

import type * as meta_ from './meta/v1.js';
export type OwnerReference = Infer<typeof meta_.OwnerReference>;
export type ManagedFieldsEntry = Infer<typeof meta_.ManagedFieldsEntry>;
export type ObjectMeta = Infer<typeof meta_.ObjectMeta>;
export type ListMeta = Infer<typeof meta_.ListMeta>;
export type LabelSelectorRequirement = Infer<typeof meta_.LabelSelectorRequirement>;
export type LabelSelector = Infer<typeof meta_.LabelSelector>;
export type StatusCause = Infer<typeof meta_.StatusCause>;
export type StatusDetails = Infer<typeof meta_.StatusDetails>;
export type Status = Infer<typeof meta_.Status>;
export type Preconditions = Infer<typeof meta_.Preconditions>;
export type DeleteOptions = Infer<typeof meta_.DeleteOptions>;
export type Condition = Infer<typeof meta_.Condition>;

import type * as references_ from './core/v1/references.js';
export type ObjectReference = Infer<typeof references_.ObjectReference>;
export type LocalObjectReference = Infer<typeof references_.LocalObjectReference>;
export type TypedLocalObjectReference = Infer<typeof references_.TypedLocalObjectReference>;
export type TypedObjectReference = Infer<typeof references_.TypedObjectReference>;
export type SecretReference = Infer<typeof references_.SecretReference>;

import type * as selectors_ from './core/v1/selectors.js';
export type ObjectFieldSelector = Infer<typeof selectors_.ObjectFieldSelector>;
export type ResourceFieldSelector = Infer<typeof selectors_.ResourceFieldSelector>;
export type ConfigMapKeySelector = Infer<typeof selectors_.ConfigMapKeySelector>;
export type SecretKeySelector = Infer<typeof selectors_.SecretKeySelector>;
export type FileKeySelector = Infer<typeof selectors_.FileKeySelector>;

import type * as affinity_ from './core/v1/affinity.js';
export type NodeSelectorRequirement = Infer<typeof affinity_.NodeSelectorRequirement>;
export type NodeSelectorTerm = Infer<typeof affinity_.NodeSelectorTerm>;
export type NodeSelector = Infer<typeof affinity_.NodeSelector>;
export type PreferredSchedulingTerm = Infer<typeof affinity_.PreferredSchedulingTerm>;
export type NodeAffinity = Infer<typeof affinity_.NodeAffinity>;
export type PodAffinityTerm = Infer<typeof affinity_.PodAffinityTerm>;
export type WeightedPodAffinityTerm = Infer<typeof affinity_.WeightedPodAffinityTerm>;
export type PodAffinity = Infer<typeof affinity_.PodAffinity>;
export type PodAntiAffinity = Infer<typeof affinity_.PodAntiAffinity>;
export type Affinity = Infer<typeof affinity_.Affinity>;
export type Toleration = Infer<typeof affinity_.Toleration>;
export type TopologySpreadConstraint = Infer<typeof affinity_.TopologySpreadConstraint>;

import type * as probe_ from './core/v1/probe.js';
export type ExecAction = Infer<typeof probe_.ExecAction>;
export type HTTPHeader = Infer<typeof probe_.HTTPHeader>;
export type HTTPGetAction = Infer<typeof probe_.HTTPGetAction>;
export type TCPSocketAction = Infer<typeof probe_.TCPSocketAction>;
export type GRPCAction = Infer<typeof probe_.GRPCAction>;
export type SleepAction = Infer<typeof probe_.SleepAction>;
export type ProbeHandler = Infer<typeof probe_.ProbeHandler>;
export type Probe = Infer<typeof probe_.Probe>;
export type LifecycleHandler = Infer<typeof probe_.LifecycleHandler>;
export type Lifecycle = Infer<typeof probe_.Lifecycle>;

import type * as security_ from './core/v1/security.js';
export type Capabilities = Infer<typeof security_.Capabilities>;
export type SELinuxOptions = Infer<typeof security_.SELinuxOptions>;
export type WindowsSecurityContextOptions = Infer<typeof security_.WindowsSecurityContextOptions>;
export type SeccompProfile = Infer<typeof security_.SeccompProfile>;
export type AppArmorProfile = Infer<typeof security_.AppArmorProfile>;
export type Sysctl = Infer<typeof security_.Sysctl>;
export type SecurityContext = Infer<typeof security_.SecurityContext>;
export type PodSecurityContext = Infer<typeof security_.PodSecurityContext>;

import type * as volume_ from './core/v1/volume.js';
export type KeyToPath = Infer<typeof volume_.KeyToPath>;
export type HostPathVolumeSource = Infer<typeof volume_.HostPathVolumeSource>;
export type EmptyDirVolumeSource = Infer<typeof volume_.EmptyDirVolumeSource>;
export type SecretVolumeSource = Infer<typeof volume_.SecretVolumeSource>;
export type PersistentVolumeClaimVolumeSource = Infer<typeof volume_.PersistentVolumeClaimVolumeSource>;
export type DownwardAPIVolumeFile = Infer<typeof volume_.DownwardAPIVolumeFile>;
export type ConfigMapVolumeSource = Infer<typeof volume_.ConfigMapVolumeSource>;
export type ServiceAccountTokenProjection = Infer<typeof volume_.ServiceAccountTokenProjection>;
export type VolumeProjection = Infer<typeof volume_.VolumeProjection>;
export type ProjectedVolumeSource = Infer<typeof volume_.ProjectedVolumeSource>;
export type VolumeResourceRequirements = Infer<typeof volume_.VolumeResourceRequirements>;
export type PersistentVolumeClaimSpec = Infer<typeof volume_.PersistentVolumeClaimSpec>;
export type PersistentVolumeClaimTemplate = Infer<typeof volume_.PersistentVolumeClaimTemplate>;
export type EphemeralVolumeSource = Infer<typeof volume_.EphemeralVolumeSource>;
export type VolumeSource = Infer<typeof volume_.VolumeSource>;
export type Volume = Infer<typeof volume_.Volume>;

import type * as container_ from './core/v1/container.js';
export type ContainerPort = Infer<typeof container_.ContainerPort>;
export type EnvVarSource = Infer<typeof container_.EnvVarSource>;
export type EnvVar = Infer<typeof container_.EnvVar>;
export type ConfigMapEnvSource = Infer<typeof container_.ConfigMapEnvSource>;
export type SecretEnvSource = Infer<typeof container_.SecretEnvSource>;
export type EnvFromSource = Infer<typeof container_.EnvFromSource>;
export type ResourceClaim = Infer<typeof container_.ResourceClaim>;
export type ResourceRequirements = Infer<typeof container_.ResourceRequirements>;
export type VolumeMount = Infer<typeof container_.VolumeMount>;
export type VolumeDevice = Infer<typeof container_.VolumeDevice>;
export type ContainerResizePolicy = Infer<typeof container_.ContainerResizePolicy>;
export type ContainerRestartRuleOnExitCodes = Infer<typeof container_.ContainerRestartRuleOnExitCodes>;
export type ContainerRestartRule = Infer<typeof container_.ContainerRestartRule>;
export type Container = Infer<typeof container_.Container>;
export type EphemeralContainerCommon = Infer<typeof container_.EphemeralContainerCommon>;
export type EphemeralContainer = Infer<typeof container_.EphemeralContainer>;

import type * as pod_ from './core/v1/pod.js';
export type HostAlias = Infer<typeof pod_.HostAlias>;
export type PodDNSConfigOption = Infer<typeof pod_.PodDNSConfigOption>;
export type PodDNSConfig = Infer<typeof pod_.PodDNSConfig>;
export type PodReadinessGate = Infer<typeof pod_.PodReadinessGate>;
export type PodOS = Infer<typeof pod_.PodOS>;
export type PodSchedulingGate = Infer<typeof pod_.PodSchedulingGate>;
export type PodResourceClaim = Infer<typeof pod_.PodResourceClaim>;
export type PodSpec = Infer<typeof pod_.PodSpec>;
export type ContainerStateWaiting = Infer<typeof pod_.ContainerStateWaiting>;
export type ContainerStateRunning = Infer<typeof pod_.ContainerStateRunning>;
export type ContainerStateTerminated = Infer<typeof pod_.ContainerStateTerminated>;
export type ContainerState = Infer<typeof pod_.ContainerState>;
export type LinuxContainerUser = Infer<typeof pod_.LinuxContainerUser>;
export type ContainerUser = Infer<typeof pod_.ContainerUser>;
export type VolumeMountStatus = Infer<typeof pod_.VolumeMountStatus>;
export type ResourceHealth = Infer<typeof pod_.ResourceHealth>;
export type ResourceStatus = Infer<typeof pod_.ResourceStatus>;
export type ContainerStatus = Infer<typeof pod_.ContainerStatus>;
export type PodCondition = Infer<typeof pod_.PodCondition>;
export type PodIP = Infer<typeof pod_.PodIP>;
export type HostIP = Infer<typeof pod_.HostIP>;
export type PodResourceClaimStatus = Infer<typeof pod_.PodResourceClaimStatus>;
export type ContainerExtendedResourceRequest = Infer<typeof pod_.ContainerExtendedResourceRequest>;
export type PodExtendedResourceClaimStatus = Infer<typeof pod_.PodExtendedResourceClaimStatus>;
export type PodStatus = Infer<typeof pod_.PodStatus>;
export type Pod = Infer<typeof pod_.Pod>;
export type PodTemplateSpec = Infer<typeof pod_.PodTemplateSpec>;
export type PodTemplate = Infer<typeof pod_.PodTemplate>;

import type * as node_ from './core/v1/node.js';
export type Taint = Infer<typeof node_.Taint>;
export type ConfigMapNodeConfigSource = Infer<typeof node_.ConfigMapNodeConfigSource>;
export type NodeConfigSource = Infer<typeof node_.NodeConfigSource>;
export type NodeSpec = Infer<typeof node_.NodeSpec>;
export type NodeCondition = Infer<typeof node_.NodeCondition>;
export type NodeAddress = Infer<typeof node_.NodeAddress>;
export type DaemonEndpoint = Infer<typeof node_.DaemonEndpoint>;
export type NodeDaemonEndpoints = Infer<typeof node_.NodeDaemonEndpoints>;
export type NodeSwapStatus = Infer<typeof node_.NodeSwapStatus>;
export type NodeSystemInfo = Infer<typeof node_.NodeSystemInfo>;
export type ContainerImage = Infer<typeof node_.ContainerImage>;
export type AttachedVolume = Infer<typeof node_.AttachedVolume>;
export type NodeConfigStatus = Infer<typeof node_.NodeConfigStatus>;
export type NodeRuntimeHandlerFeatures = Infer<typeof node_.NodeRuntimeHandlerFeatures>;
export type NodeRuntimeHandler = Infer<typeof node_.NodeRuntimeHandler>;
export type NodeFeatures = Infer<typeof node_.NodeFeatures>;
export type NodeStatus = Infer<typeof node_.NodeStatus>;
export type Node = Infer<typeof node_.Node>;

import type * as namespace_ from './core/v1/namespace.js';
export type NamespaceSpec = Infer<typeof namespace_.NamespaceSpec>;
export type NamespaceCondition = Infer<typeof namespace_.NamespaceCondition>;
export type NamespaceStatus = Infer<typeof namespace_.NamespaceStatus>;
export type Namespace = Infer<typeof namespace_.Namespace>;

import type * as service_ from './core/v1/service.js';
export type ClientIPConfig = Infer<typeof service_.ClientIPConfig>;
export type SessionAffinityConfig = Infer<typeof service_.SessionAffinityConfig>;
export type ServicePort = Infer<typeof service_.ServicePort>;
export type ServiceSpec = Infer<typeof service_.ServiceSpec>;
export type PortStatus = Infer<typeof service_.PortStatus>;
export type LoadBalancerIngress = Infer<typeof service_.LoadBalancerIngress>;
export type LoadBalancerStatus = Infer<typeof service_.LoadBalancerStatus>;
export type ServiceStatus = Infer<typeof service_.ServiceStatus>;
export type Service = Infer<typeof service_.Service>;

import type * as endpoints_ from './core/v1/endpoints.js';
export type EndpointAddress = Infer<typeof endpoints_.EndpointAddress>;
export type EndpointPort = Infer<typeof endpoints_.EndpointPort>;
export type EndpointSubset = Infer<typeof endpoints_.EndpointSubset>;
export type Endpoints = Infer<typeof endpoints_.Endpoints>;

import type * as event_ from './core/v1/event.js';
export type EventSource = Infer<typeof event_.EventSource>;
export type EventSeries = Infer<typeof event_.EventSeries>;
export type Event = Infer<typeof event_.Event>;

import type * as configmap_ from './core/v1/configmap.js';
export type ConfigMap = Infer<typeof configmap_.ConfigMap>;

import type * as secret_ from './core/v1/secret.js';
export type Secret = Infer<typeof secret_.Secret>;

import type * as serviceaccount_ from './core/v1/serviceaccount.js';
export type ServiceAccount = Infer<typeof serviceaccount_.ServiceAccount>;

import type * as replicationcontroller_ from './core/v1/replicationcontroller.js';
export type ReplicationControllerSpec = Infer<typeof replicationcontroller_.ReplicationControllerSpec>;
export type ReplicationControllerCondition = Infer<typeof replicationcontroller_.ReplicationControllerCondition>;
export type ReplicationControllerStatus = Infer<typeof replicationcontroller_.ReplicationControllerStatus>;
export type ReplicationController = Infer<typeof replicationcontroller_.ReplicationController>;

import type * as persistentvolumeclaim_ from './core/v1/persistentvolumeclaim.js';
export type PersistentVolumeClaimCondition = Infer<typeof persistentvolumeclaim_.PersistentVolumeClaimCondition>;
export type ModifyVolumeStatus = Infer<typeof persistentvolumeclaim_.ModifyVolumeStatus>;
export type PersistentVolumeClaimStatus = Infer<typeof persistentvolumeclaim_.PersistentVolumeClaimStatus>;
export type PersistentVolumeClaim = Infer<typeof persistentvolumeclaim_.PersistentVolumeClaim>;

import type * as resourcequota_ from './core/v1/resourcequota.js';
export type ScopedResourceSelectorRequirement = Infer<typeof resourcequota_.ScopedResourceSelectorRequirement>;
export type ScopeSelector = Infer<typeof resourcequota_.ScopeSelector>;
export type ResourceQuotaSpec = Infer<typeof resourcequota_.ResourceQuotaSpec>;
export type ResourceQuotaStatus = Infer<typeof resourcequota_.ResourceQuotaStatus>;
export type ResourceQuota = Infer<typeof resourcequota_.ResourceQuota>;
export type LimitRangeItem = Infer<typeof resourcequota_.LimitRangeItem>;
export type LimitRange = Infer<typeof resourcequota_.LimitRange>;
export type ComponentCondition = Infer<typeof resourcequota_.ComponentCondition>;
export type ComponentStatus = Infer<typeof resourcequota_.ComponentStatus>;

import type * as binding_ from './core/v1/binding.js';
export type Binding = Infer<typeof binding_.Binding>;

import type * as apps_ from './apps/v1.js';
export type RollingUpdateStatefulSetStrategy = Infer<typeof apps_.RollingUpdateStatefulSetStrategy>;
export type StatefulSetUpdateStrategy = Infer<typeof apps_.StatefulSetUpdateStrategy>;
export type StatefulSetPersistentVolumeClaimRetentionPolicy = Infer<typeof apps_.StatefulSetPersistentVolumeClaimRetentionPolicy>;
export type StatefulSetOrdinals = Infer<typeof apps_.StatefulSetOrdinals>;
export type StatefulSetSpec = Infer<typeof apps_.StatefulSetSpec>;
export type StatefulSetCondition = Infer<typeof apps_.StatefulSetCondition>;
export type StatefulSetStatus = Infer<typeof apps_.StatefulSetStatus>;
export type StatefulSet = Infer<typeof apps_.StatefulSet>;
export type RollingUpdateDeployment = Infer<typeof apps_.RollingUpdateDeployment>;
export type DeploymentStrategy = Infer<typeof apps_.DeploymentStrategy>;
export type DeploymentSpec = Infer<typeof apps_.DeploymentSpec>;
export type DeploymentCondition = Infer<typeof apps_.DeploymentCondition>;
export type DeploymentStatus = Infer<typeof apps_.DeploymentStatus>;
export type Deployment = Infer<typeof apps_.Deployment>;
export type RollingUpdateDaemonSet = Infer<typeof apps_.RollingUpdateDaemonSet>;
export type DaemonSetUpdateStrategy = Infer<typeof apps_.DaemonSetUpdateStrategy>;
export type DaemonSetSpec = Infer<typeof apps_.DaemonSetSpec>;
export type DaemonSetCondition = Infer<typeof apps_.DaemonSetCondition>;
export type DaemonSetStatus = Infer<typeof apps_.DaemonSetStatus>;
export type DaemonSet = Infer<typeof apps_.DaemonSet>;
export type ReplicaSetSpec = Infer<typeof apps_.ReplicaSetSpec>;
export type ReplicaSetCondition = Infer<typeof apps_.ReplicaSetCondition>;
export type ReplicaSetStatus = Infer<typeof apps_.ReplicaSetStatus>;
export type ReplicaSet = Infer<typeof apps_.ReplicaSet>;
export type ControllerRevision = Infer<typeof apps_.ControllerRevision>;

import type * as batch_ from './batch/v1.js';
export type PodFailurePolicyOnExitCodesRequirement = Infer<typeof batch_.PodFailurePolicyOnExitCodesRequirement>;
export type PodFailurePolicyOnPodConditionsPattern = Infer<typeof batch_.PodFailurePolicyOnPodConditionsPattern>;
export type PodFailurePolicyRule = Infer<typeof batch_.PodFailurePolicyRule>;
export type PodFailurePolicy = Infer<typeof batch_.PodFailurePolicy>;
export type SuccessPolicyRule = Infer<typeof batch_.SuccessPolicyRule>;
export type SuccessPolicy = Infer<typeof batch_.SuccessPolicy>;
export type JobSpec = Infer<typeof batch_.JobSpec>;
export type UncountedTerminatedPods = Infer<typeof batch_.UncountedTerminatedPods>;
export type JobCondition = Infer<typeof batch_.JobCondition>;
export type JobStatus = Infer<typeof batch_.JobStatus>;
export type Job = Infer<typeof batch_.Job>;
export type JobTemplateSpec = Infer<typeof batch_.JobTemplateSpec>;
export type CronJobSpec = Infer<typeof batch_.CronJobSpec>;
export type CronJobStatus = Infer<typeof batch_.CronJobStatus>;
export type CronJob = Infer<typeof batch_.CronJob>;

import type * as coordination_ from './coordination/v1.js';
export type LeaseSpec = Infer<typeof coordination_.LeaseSpec>;
export type Lease = Infer<typeof coordination_.Lease>;

import type * as rbac_ from './rbac/v1.js';
export type PolicyRule = Infer<typeof rbac_.PolicyRule>;
export type AggregationRule = Infer<typeof rbac_.AggregationRule>;
export type Subject = Infer<typeof rbac_.Subject>;
export type RoleRef = Infer<typeof rbac_.RoleRef>;
export type Role = Infer<typeof rbac_.Role>;
export type ClusterRole = Infer<typeof rbac_.ClusterRole>;
export type RoleBinding = Infer<typeof rbac_.RoleBinding>;
export type ClusterRoleBinding = Infer<typeof rbac_.ClusterRoleBinding>;

import type * as autoscaling_ from './autoscaling/v1.js';
export type ScaleSpec = Infer<typeof autoscaling_.ScaleSpec>;
export type ScaleStatus = Infer<typeof autoscaling_.ScaleStatus>;
export type Scale = Infer<typeof autoscaling_.Scale>;

import type * as policy_ from './policy/v1.js';
export type Eviction = Infer<typeof policy_.Eviction>;
export type PodDisruptionBudgetSpec = Infer<typeof policy_.PodDisruptionBudgetSpec>;
export type PodDisruptionBudgetStatus = Infer<typeof policy_.PodDisruptionBudgetStatus>;
export type PodDisruptionBudget = Infer<typeof policy_.PodDisruptionBudget>;

import type * as autoscalingV2_ from './autoscaling/v2.js';
export type MetricSpec = Infer<typeof autoscalingV2_.MetricSpec>;
export type MetricStatus = Infer<typeof autoscalingV2_.MetricStatus>;
export type HPAScalingRules = Infer<typeof autoscalingV2_.HPAScalingRules>;
export type HorizontalPodAutoscalerSpec = Infer<typeof autoscalingV2_.HorizontalPodAutoscalerSpec>;
export type HorizontalPodAutoscalerStatus = Infer<typeof autoscalingV2_.HorizontalPodAutoscalerStatus>;
export type HorizontalPodAutoscaler = Infer<typeof autoscalingV2_.HorizontalPodAutoscaler>;

import type * as authentication_ from './authentication/v1.js';
export type UserInfo = Infer<typeof authentication_.UserInfo>;

import type * as tokenrequest_ from './authentication/tokenrequest-tokenreview.js';
export type BoundObjectReference = Infer<typeof tokenrequest_.BoundObjectReference>;
export type TokenRequestSpec = Infer<typeof tokenrequest_.TokenRequestSpec>;
export type TokenRequest = Infer<typeof tokenrequest_.TokenRequest>;

import type * as flowcontrol_ from './flowcontrol/v1.js';
export type FlowSchema = Infer<typeof flowcontrol_.FlowSchema>;
export type FlowSchemaSpec = Infer<typeof flowcontrol_.FlowSchemaSpec>;
export type PolicyRulesWithSubjects = Infer<typeof flowcontrol_.PolicyRulesWithSubjects>;
export type FlowSchemaSubject = Infer<typeof flowcontrol_.Subject>;
export type PriorityLevelConfiguration = Infer<typeof flowcontrol_.PriorityLevelConfiguration>;
export type PriorityLevelConfigurationSpec = Infer<typeof flowcontrol_.PriorityLevelConfigurationSpec>;

import type * as apiregistration_ from './apiregistration/v1.js';
export type APIService = Infer<typeof apiregistration_.APIService>;
export type APIServiceSpec = Infer<typeof apiregistration_.APIServiceSpec>;
import type * as networking_ from './networking/v1.js';
export type NetworkPolicy = Infer<typeof networking_.NetworkPolicy>;
export type Ingress = Infer<typeof networking_.Ingress>;
export type IngressBackend = Infer<typeof networking_.IngressBackend>;
export type IngressClass = Infer<typeof networking_.IngressClass>;
export type IPAddress = Infer<typeof networking_.IPAddress>;
export type ServiceCIDR = Infer<typeof networking_.ServiceCIDR>;
import type * as discovery_ from './discovery/v1.js';
export type EndpointHints = Infer<typeof discovery_.EndpointHints>;
export type Endpoint = Infer<typeof discovery_.Endpoint>;
export type EndpointSlicePort = Infer<typeof discovery_.EndpointPort>;
export type EndpointSlice = Infer<typeof discovery_.EndpointSlice>;

import type * as scheduling_ from './scheduling/v1.js';
export type PriorityClass = Infer<typeof scheduling_.PriorityClass>;

import type * as nodeV1_ from './node/v1.js';
export type RuntimeClass = Infer<typeof nodeV1_.RuntimeClass>;
import type * as certificates_ from './certificates/v1.js';
export type CertificateSigningRequestSpec = Infer<typeof certificates_.CertificateSigningRequestSpec>;
export type CertificateSigningRequestCondition = Infer<typeof certificates_.CertificateSigningRequestCondition>;
export type CertificateSigningRequestStatus = Infer<typeof certificates_.CertificateSigningRequestStatus>;
export type CertificateSigningRequest = Infer<typeof certificates_.CertificateSigningRequest>;

import type * as admissionregistration_ from './admissionregistration/v1.js';
export type WebhookRule = Infer<typeof admissionregistration_.Rule>;
export type RuleWithOperations = Infer<typeof admissionregistration_.RuleWithOperations>;
export type WebhookClientConfig = Infer<typeof admissionregistration_.WebhookClientConfig>;
export type MatchCondition = Infer<typeof admissionregistration_.MatchCondition>;
export type ValidatingWebhook = Infer<typeof admissionregistration_.ValidatingWebhook>;
export type MutatingWebhook = Infer<typeof admissionregistration_.MutatingWebhook>;
export type ValidatingWebhookConfiguration = Infer<typeof admissionregistration_.ValidatingWebhookConfiguration>;
export type MutatingWebhookConfiguration = Infer<typeof admissionregistration_.MutatingWebhookConfiguration>;
export type MatchResources = Infer<typeof admissionregistration_.MatchResources>;
export type ValidatingAdmissionPolicy = Infer<typeof admissionregistration_.ValidatingAdmissionPolicy>;
export type ValidatingAdmissionPolicyBinding = Infer<typeof admissionregistration_.ValidatingAdmissionPolicyBinding>;
import type * as persistentvolume_ from './core/v1/persistentvolume.js';
export type PersistentVolumeSpec = Infer<typeof persistentvolume_.PersistentVolumeSpec>;
export type PersistentVolumeStatus = Infer<typeof persistentvolume_.PersistentVolumeStatus>;
export type PersistentVolume = Infer<typeof persistentvolume_.PersistentVolume>;

import type * as storage_ from './storage/v1.js';
export type StorageClass = Infer<typeof storage_.StorageClass>;
export type VolumeAttachment = Infer<typeof storage_.VolumeAttachment>;
export type CSIDriver = Infer<typeof storage_.CSIDriver>;
export type CSINode = Infer<typeof storage_.CSINode>;
export type CSIStorageCapacity = Infer<typeof storage_.CSIStorageCapacity>;
