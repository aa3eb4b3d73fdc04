// networking.k8s.io/v1: the kinds kube-apiserver 1.33 serves by default in the group (its
// v1beta1 IPAddress and ServiceCIDR are off by default; v1beta1 Ingress is gone since 1.22).
// Short names as its discovery lists them (ing, netpol, ip); no categories.
import type { KindVersion } from '../schema/kind.js';
import { defaultIngressClass, defaultNetworkPolicy } from './defaults.js';
import * as v1 from './v1.js';

const GV = { group: 'networking.k8s.io', version: 'v1', storage: true } as const;

export const networkingKinds: readonly KindVersion[] = [
  { ...GV, kind: 'IngressClass', resource: 'ingressclasses', singular: 'ingressclass', namespaced: false, type: v1.IngressClass, list: v1.IngressClassList, defaults: defaultIngressClass },
  { ...GV, kind: 'Ingress', resource: 'ingresses', singular: 'ingress', shortNames: ['ing'], namespaced: true, type: v1.Ingress, list: v1.IngressList, subresources: { status: true } },
  { ...GV, kind: 'NetworkPolicy', resource: 'networkpolicies', singular: 'networkpolicy', shortNames: ['netpol'], namespaced: true, type: v1.NetworkPolicy, list: v1.NetworkPolicyList, defaults: defaultNetworkPolicy },
  { ...GV, kind: 'IPAddress', resource: 'ipaddresses', singular: 'ipaddress', shortNames: ['ip'], namespaced: false, type: v1.IPAddress, list: v1.IPAddressList },
  { ...GV, kind: 'ServiceCIDR', resource: 'servicecidrs', singular: 'servicecidr', namespaced: false, type: v1.ServiceCIDR, list: v1.ServiceCIDRList, subresources: { status: true } },
];
