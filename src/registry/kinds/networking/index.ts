// The modules of the networking.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { ingressModule } from './ingress.js';
import { ingressClassModule } from './ingressclass.js';
import { ipAddressModule } from './ipaddress.js';
import { networkPolicyModule } from './networkpolicy.js';
import { serviceCIDRModule } from './servicecidr.js';

export const networkingModules: readonly KindModule[] = [ingressClassModule, ingressModule, networkPolicyModule, ipAddressModule, serviceCIDRModule];
