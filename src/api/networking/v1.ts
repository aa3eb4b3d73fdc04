// networking.k8s.io/v1 (k8s.io/api/networking/v1): Ingress, IngressClass, NetworkPolicy,
// IPAddress and ServiceCIDR (the last two GA in 1.33). Field numbers are those of networking/v1
// generated.proto; fields in Go struct order. Defaults are set in code (./defaults.ts), as
// Kubernetes does, so none is declared here.
import { Protocol } from '../core/v1/container.js';
import { TypedLocalObjectReference } from '../core/v1/references.js';
import { Condition, LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, inline, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.networking.v1.';
const atomic = { listType: 'atomic' } as const;

// ---------------------------------------------------------------- NetworkPolicy

export const NetworkPolicyPort = struct(G + 'NetworkPolicyPort', {
  protocol: field(t.string, 1, { pointer: true, enum: Protocol }),
  port: field(t.intOrString, 2, { pointer: true }),
  endPort: field(t.int32, 3, { pointer: true }),
});

export const IPBlock = struct(G + 'IPBlock', {
  cidr: field(t.string, 1, { omitempty: false, required: true }),
  except: field(listOf(t.string), 2, atomic),
});

export const NetworkPolicyPeer = struct(G + 'NetworkPolicyPeer', {
  podSelector: field(LabelSelector, 1, { pointer: true }),
  namespaceSelector: field(LabelSelector, 2, { pointer: true }),
  ipBlock: field(IPBlock, 3, { pointer: true }),
});

export const NetworkPolicyIngressRule = struct(G + 'NetworkPolicyIngressRule', {
  ports: field(listOf(NetworkPolicyPort), 1, atomic),
  from: field(listOf(NetworkPolicyPeer), 2, atomic),
});

export const NetworkPolicyEgressRule = struct(G + 'NetworkPolicyEgressRule', {
  ports: field(listOf(NetworkPolicyPort), 1, atomic),
  to: field(listOf(NetworkPolicyPeer), 2, atomic),
});

export const NetworkPolicySpec = struct(G + 'NetworkPolicySpec', {
  podSelector: field(LabelSelector, 1, { omitempty: false }),
  ingress: field(listOf(NetworkPolicyIngressRule), 2, atomic),
  egress: field(listOf(NetworkPolicyEgressRule), 3, atomic),
  policyTypes: field(listOf(t.string), 4, { ...atomic, enum: ['Egress', 'Ingress'] }),
});

export const NetworkPolicy = struct(G + 'NetworkPolicy', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(NetworkPolicySpec, 2),
});

export const NetworkPolicyList = struct(G + 'NetworkPolicyList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(NetworkPolicy), 2, { omitempty: false, required: true }),
});

// ---------------------------------------------------------------- Ingress

export const ServiceBackendPort = struct(
  G + 'ServiceBackendPort',
  {
    name: field(t.string, 1),
    number: field(t.int32, 2),
  },
  { structType: 'atomic' },
);

export const IngressServiceBackend = struct(G + 'IngressServiceBackend', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  port: field(ServiceBackendPort, 2),
});

export const IngressBackend = struct(G + 'IngressBackend', {
  service: field(IngressServiceBackend, 4, { pointer: true }),
  resource: field(TypedLocalObjectReference, 3, { pointer: true }),
});

export const HTTPIngressPath = struct(G + 'HTTPIngressPath', {
  path: field(t.string, 1),
  pathType: field(t.string, 3, { pointer: true, omitempty: false, required: true, enum: ['Exact', 'ImplementationSpecific', 'Prefix'] }),
  backend: field(IngressBackend, 2, { omitempty: false, required: true }),
});

export const HTTPIngressRuleValue = struct(G + 'HTTPIngressRuleValue', {
  paths: field(listOf(HTTPIngressPath), 1, { ...atomic, omitempty: false, required: true }),
});

/** IngressRuleValue, embedded inline in IngressRule at protobuf field 2. */
const IngressRuleValue = struct(G + 'IngressRuleValue', {
  http: field(HTTPIngressRuleValue, 1, { pointer: true }),
});

export const IngressRule = struct(G + 'IngressRule', {
  host: field(t.string, 1),
  ...inline(IngressRuleValue, 2, 'ingressRuleValue'),
});

export const IngressTLS = struct(G + 'IngressTLS', {
  hosts: field(listOf(t.string), 1, atomic),
  secretName: field(t.string, 2),
});

export const IngressSpec = struct(G + 'IngressSpec', {
  ingressClassName: field(t.string, 4, { pointer: true }),
  defaultBackend: field(IngressBackend, 1, { pointer: true }),
  tls: field(listOf(IngressTLS), 2, atomic),
  rules: field(listOf(IngressRule), 3, atomic),
});

export const IngressPortStatus = struct(G + 'IngressPortStatus', {
  port: field(t.int32, 1, { omitempty: false, required: true }),
  protocol: field(t.string, 2, { omitempty: false, required: true, enum: Protocol }),
  error: field(t.string, 3, { pointer: true }),
});

export const IngressLoadBalancerIngress = struct(G + 'IngressLoadBalancerIngress', {
  ip: field(t.string, 1),
  hostname: field(t.string, 2),
  ports: field(listOf(IngressPortStatus), 4, atomic),
});

export const IngressLoadBalancerStatus = struct(G + 'IngressLoadBalancerStatus', {
  ingress: field(listOf(IngressLoadBalancerIngress), 1, atomic),
});

export const IngressStatus = struct(G + 'IngressStatus', {
  loadBalancer: field(IngressLoadBalancerStatus, 1),
});

export const Ingress = struct(G + 'Ingress', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(IngressSpec, 2),
  status: field(IngressStatus, 3),
});

export const IngressList = struct(G + 'IngressList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Ingress), 2, { omitempty: false, required: true }),
});

// ---------------------------------------------------------------- IngressClass

export const IngressClassParametersReference = struct(G + 'IngressClassParametersReference', {
  apiGroup: field(t.string, 1, { pointer: true }),
  kind: field(t.string, 2, { omitempty: false, required: true }),
  name: field(t.string, 3, { omitempty: false, required: true }),
  scope: field(t.string, 4, { pointer: true, omitempty: false }),
  namespace: field(t.string, 5, { pointer: true }),
});

export const IngressClassSpec = struct(G + 'IngressClassSpec', {
  controller: field(t.string, 1),
  parameters: field(IngressClassParametersReference, 2, { pointer: true }),
});

export const IngressClass = struct(G + 'IngressClass', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(IngressClassSpec, 2),
});

export const IngressClassList = struct(G + 'IngressClassList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(IngressClass), 2, { omitempty: false, required: true }),
});

// ---------------------------------------------------------------- IPAddress, ServiceCIDR

export const ParentReference = struct(G + 'ParentReference', {
  group: field(t.string, 1),
  resource: field(t.string, 2),
  namespace: field(t.string, 3),
  name: field(t.string, 4),
});

export const IPAddressSpec = struct(G + 'IPAddressSpec', {
  parentRef: field(ParentReference, 1, { pointer: true }),
});

export const IPAddress = struct(G + 'IPAddress', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(IPAddressSpec, 2),
});

export const IPAddressList = struct(G + 'IPAddressList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(IPAddress), 2, { omitempty: false, required: true }),
});

export const ServiceCIDRSpec = struct(G + 'ServiceCIDRSpec', {
  cidrs: field(listOf(t.string), 1, atomic),
});

export const ServiceCIDRStatus = struct(G + 'ServiceCIDRStatus', {
  conditions: field(listOf(Condition), 1, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
});

export const ServiceCIDR = struct(G + 'ServiceCIDR', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ServiceCIDRSpec, 2),
  status: field(ServiceCIDRStatus, 3),
});

export const ServiceCIDRList = struct(G + 'ServiceCIDRList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ServiceCIDR), 2, { omitempty: false, required: true }),
});
