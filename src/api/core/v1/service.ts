// core/v1 Service. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { Condition, ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';
import { Protocol } from './container.js';

export const ClientIPConfig = struct('io.k8s.api.core.v1.ClientIPConfig', {
  timeoutSeconds: field(t.int32, 1, { pointer: true }),
});

export const SessionAffinityConfig = struct('io.k8s.api.core.v1.SessionAffinityConfig', {
  clientIP: field(ClientIPConfig, 1, { pointer: true }),
});

/** targetPort defaults to port; nodePort is allocated for NodePort and LoadBalancer services. */
export const ServicePort = struct('io.k8s.api.core.v1.ServicePort', {
  name: field(t.string, 1, { description: 'Name of the port, unique in the service; required when there is more than one port.' }),
  protocol: field(t.string, 2, { default: 'TCP', enum: Protocol, description: 'TCP, UDP or SCTP. Defaults to TCP.' }),
  appProtocol: field(t.string, 6, { pointer: true }),
  port: field(t.int32, 3, { omitempty: false, required: true, description: 'The port the service exposes.' }),
  targetPort: field(t.intOrString, 4, { description: 'The pods\' port traffic is sent to: a number, or the name of a container port. Defaults to port.' }),
  nodePort: field(t.int32, 5, { description: 'The port opened on every node for NodePort and LoadBalancer services; allocated when not given.' }),
}, { description: 'A port a service exposes and where its traffic goes.' });

export const ServiceSpec = struct('io.k8s.api.core.v1.ServiceSpec', {
  ports: field(listOf(ServicePort), 1, {
    description: 'The ports the service exposes.',
    patchStrategy: 'merge',
    patchMergeKey: 'port',
    listType: 'map',
    listMapKeys: ['port', 'protocol'],
  }),
  selector: field(mapOf(t.string), 2, { mapType: 'atomic', description: 'Pods with these labels receive the traffic. Without a selector, endpoints are managed by hand.' }),
  clusterIP: field(t.string, 3, { description: 'The virtual IP address of the service, usually allocated by the server; "None" makes a headless service. Cannot be changed.' }),
  clusterIPs: field(listOf(t.string), 18, { listType: 'atomic' }),
  type: field(t.string, 4, { enum: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'], description: 'How the service is exposed: ClusterIP (the default), NodePort, LoadBalancer or ExternalName.' }),
  externalIPs: field(listOf(t.string), 5, { listType: 'atomic' }),
  sessionAffinity: field(t.string, 7, { enum: ['ClientIP', 'None'], description: 'ClientIP keeps each client on one pod; None (the default) does not.' }),
  /** Deprecated. */
  loadBalancerIP: field(t.string, 8),
  loadBalancerSourceRanges: field(listOf(t.string), 9, { listType: 'atomic' }),
  externalName: field(t.string, 10, { description: 'The DNS name returned for an ExternalName service.' }),
  externalTrafficPolicy: field(t.string, 11, { enum: ['Cluster', 'Local'] }),
  healthCheckNodePort: field(t.int32, 12),
  publishNotReadyAddresses: field(t.bool, 13),
  sessionAffinityConfig: field(SessionAffinityConfig, 14, { pointer: true }),
  // Tags 15 (ipFamily) and 16 (topologyKeys) are retired. Items are IPv4 or IPv6.
  ipFamilies: field(listOf(t.string), 19, { listType: 'atomic' }),
  ipFamilyPolicy: field(t.string, 17, { pointer: true, enum: ['PreferDualStack', 'RequireDualStack', 'SingleStack'] }),
  allocateLoadBalancerNodePorts: field(t.bool, 20, { pointer: true }),
  loadBalancerClass: field(t.string, 21, { pointer: true }),
  internalTrafficPolicy: field(t.string, 22, { pointer: true, enum: ['Cluster', 'Local'] }),
  trafficDistribution: field(t.string, 23, { pointer: true }),
}, { description: 'The desired state of a service.' });

export const PortStatus = struct('io.k8s.api.core.v1.PortStatus', {
  port: field(t.int32, 1, { omitempty: false, required: true }),
  protocol: field(t.string, 2, { omitempty: false, required: true, enum: Protocol }),
  error: field(t.string, 3, { pointer: true }),
});

export const LoadBalancerIngress = struct('io.k8s.api.core.v1.LoadBalancerIngress', {
  ip: field(t.string, 1),
  hostname: field(t.string, 2),
  ipMode: field(t.string, 3, { pointer: true, enum: ['Proxy', 'VIP'] }),
  ports: field(listOf(PortStatus), 4, { listType: 'atomic' }),
});

export const LoadBalancerStatus = struct('io.k8s.api.core.v1.LoadBalancerStatus', {
  ingress: field(listOf(LoadBalancerIngress), 1, { listType: 'atomic' }),
});

export const ServiceStatus = struct('io.k8s.api.core.v1.ServiceStatus', {
  loadBalancer: field(LoadBalancerStatus, 1, { description: 'The load balancer of the service, when there is one.' }),
  conditions: field(listOf(Condition), 2, {
    description: 'Observations about the service.',
    patchStrategy: 'merge',
    patchMergeKey: 'type',
    listType: 'map',
    listMapKeys: ['type'],
  }),
}, { description: 'The observed state of a service.' });

export const Service = struct('io.k8s.api.core.v1.Service', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1, { description: 'The object\'s name, namespace, labels and other metadata.' }),
  spec: field(ServiceSpec, 2, { description: 'The desired state of the service.' }),
  status: field(ServiceStatus, 3, { description: 'The most recently observed state of the service. Read-only.' }),
}, { description: 'A stable name and virtual IP address for a set of pods, selected by label, with load balancing across them.' });

export const ServiceList = struct('io.k8s.api.core.v1.ServiceList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Service), 2, { omitempty: false, required: true }),
});
