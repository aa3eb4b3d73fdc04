// networking.k8s.io/v1 defaults (pkg/apis/networking/v1/defaults.go): a NetworkPolicy port's
// protocol is TCP; a NetworkPolicy without policyTypes gets Ingress, plus Egress when it has
// egress rules; an IngressClass's parameters are cluster-scoped unless they say otherwise.
import type { KubeObject } from '../schema/kind.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const objsOf = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

function defaultPorts(rules: unknown): void {
  for (const rule of objsOf(rules)) for (const port of objsOf(rule.ports)) if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
}

export function defaultNetworkPolicy(obj: KubeObject): void {
  if (!isObj(obj.spec)) obj.spec = {};
  const spec = obj.spec as Obj;
  defaultPorts(spec.ingress);
  defaultPorts(spec.egress);
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

export function defaultIngressClass(obj: KubeObject): void {
  const spec = obj.spec;
  if (!isObj(spec) || !isObj(spec.parameters)) return;
  if (spec.parameters.scope === undefined || spec.parameters.scope === null) spec.parameters.scope = 'Cluster';
}
