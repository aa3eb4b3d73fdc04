// Service: pkg/registry/core/service/strategy.go and ValidateService / ValidateServiceUpdate /
// ValidateServiceStatusUpdate. Cluster IP and node port allocation are the API server's allocator's
// job; `needsClusterIP` / `needsNodePort` / `needsHealthCheckNodePort` tell it what a service needs.
import { initServiceIPFamilies } from '../../../../api/core/v1/defaults-other.js';
import { annotationsOf } from '../../../../api/meta/object.js';
import type { Service, ServicePort, ServiceSpec } from '../../../../api/types.js';
import { child, index, isObj, key, num, optNum, optStr, str, stringMap, strs, validateLabels } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { goIntOrString, goInt, goString, goStruct } from '../../../../machinery/validation/go-syntax.js';
import { optStruct, struct, structs } from '../../../../machinery/validation/structs.js';
import { isDNS1123Label, isDNS1123Subdomain, isIPv6String, isQualifiedName, isValidCIDR, isValidIP, isValidPortName, isValidPortNum, nameIsDNS1035Label, parseIP } from '../../../../machinery/validation/names.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { validateNonSpecialIP } from '../endpoints.js';
import { cloneJson } from '../../../meta.js';

const MaxClientIPServiceAffinitySeconds = 86400;
const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const supportedServiceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

const specOf = (svc: Service): ServiceSpec => struct(svc.spec);
const isHeadless = (svc: Service): boolean => {
  const ips = strs(specOf(svc).clusterIPs);
  return ips.length === 1 && ips[0] === 'None';
};
const typeOf = (svc: Service): string => str(specOf(svc).type);

/** Whether the allocator must give this service a cluster IP (every type but ExternalName; not headless ones). */
export function needsClusterIP(svc: Service): boolean {
  return typeOf(svc) !== 'ExternalName' && str(specOf(svc).clusterIP) !== 'None';
}

/** Whether the service's ports get node ports (NodePort; LoadBalancer unless allocateLoadBalancerNodePorts is false). */
export function needsNodePort(svc: Service): boolean {
  const t = typeOf(svc);
  if (t === 'NodePort') return true;
  return t === 'LoadBalancer' && specOf(svc).allocateLoadBalancerNodePorts !== false;
}

/** apiservice.NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheckNodePort(svc: Service): boolean {
  return typeOf(svc) === 'LoadBalancer' && str(specOf(svc).externalTrafficPolicy) === 'Local';
}

/** apiservice.ExternallyAccessible. */
function externallyAccessible(svc: Service): boolean {
  const t = typeOf(svc);
  return t === 'LoadBalancer' || t === 'NodePort' || (t === 'ClusterIP' && strs(specOf(svc).externalIPs).length > 0);
}

function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => fieldError.invalid(path, port, msg));
  const s = str(port);
  return isValidPortName(s).map((msg) => fieldError.invalid(path, s, msg));
}

function goServicePort(p: ServicePort): string {
  return goStruct('core.ServicePort', [
    ['Name', '""'],
    ['Protocol', goString(p.protocol)],
    ['AppProtocol', '(*string)(nil)'],
    ['Port', goInt(p.port)],
    ['TargetPort', goIntOrString(0)],
    ['NodePort', '0'],
  ]);
}

function validateServicePort(sp: ServicePort, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sp.name);
  if (requireName && name === '') errs.push(fieldError.required(child(path, 'name')));
  else if (name !== '') {
    errs.push(...isDNS1123Label(name).map((msg) => fieldError.invalid(child(path, 'name'), name, msg)));
    if (names.has(name)) errs.push(fieldError.duplicate(child(path, 'name'), name));
    else names.add(name);
  }
  errs.push(...isValidPortNum(num(sp.port)).map((msg) => fieldError.invalid(child(path, 'port'), num(sp.port), msg)));
  const proto = str(sp.protocol);
  if (proto === '') errs.push(fieldError.required(child(path, 'protocol')));
  else if (!supportedPortProtocols.includes(proto)) errs.push(fieldError.notSupported(child(path, 'protocol'), proto, supportedPortProtocols));
  errs.push(...validatePortNumOrName(sp.targetPort ?? 0, child(path, 'targetPort')));
  const appProtocol = optStr(sp.appProtocol);
  if (appProtocol !== undefined) errs.push(...isQualifiedName(appProtocol).map((msg) => fieldError.invalid(child(path, 'appProtocol'), appProtocol, msg)));
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields. */
function validateClusterIPsRelatedFields(svc: Service): FieldError[] {
  if (typeOf(svc) === 'ExternalName') return [];
  const spec = specOf(svc);
  const errs: FieldError[] = [];
  const clusterIP = str(spec.clusterIP);
  const clusterIPs = strs(spec.clusterIPs);
  const families = strs(spec.ipFamilies);
  let hasInvalidIPs = false;
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(fieldError.required('spec.clusterIPs'));
    else if (clusterIPs[0] !== clusterIP) errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(fieldError.notSupported(index('spec.ipFamilies', i), f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(fieldError.duplicate(index('spec.ipFamilies', i), f));
    seen.add(f);
  });
  const policy = optStr(spec.ipFamilyPolicy);
  if (policy !== undefined && !['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(policy)) {
    errs.push(fieldError.notSupported('spec.ipFamilyPolicy', policy, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
  }
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const msgs = isValidIP(ip);
    if (msgs.length > 0) hasInvalidIPs = true;
    errs.push(...msgs.map((msg) => fieldError.invalid(index('spec.clusterIPs', i), ip, msg)));
  });
  if (clusterIPs.length > 2) errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'may only hold up to 2 values'));
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1) {
    const v6 = clusterIPs.filter((ip) => isIPv6String(ip)).length;
    if (v6 !== 1 || clusterIPs.length !== 2) errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(svc) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) errs.push(fieldError.invalid(index('spec.clusterIPs', i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6String(ip)) errs.push(fieldError.invalid(index('spec.clusterIPs', i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

function validateLoadBalancerClass(svc: Service, old: Service | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const lbc = optStr(specOf(svc).loadBalancerClass);
  if (old && typeOf(old) === 'LoadBalancer' && typeOf(svc) === 'LoadBalancer' && optStr(specOf(old).loadBalancerClass) !== lbc) {
    errs.push(fieldError.invalid('spec.loadBalancerClass', lbc ?? null, 'may not change once set'));
  }
  if (typeOf(svc) === 'LoadBalancer') {
    if (lbc !== undefined) errs.push(...isQualifiedName(lbc).map((msg) => fieldError.invalid('spec.loadBalancerClass', lbc, msg)));
  } else if (lbc !== undefined) {
    errs.push(fieldError.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** ValidateService minus ObjectMeta. */
export function validateService(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(svc);
  const type = typeOf(svc);
  const annotations = stringMap(annotationsOf(svc));
  const hints = annotations['service.kubernetes.io/topology-aware-hints'];
  const mode = annotations['service.kubernetes.io/topology-mode'];
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    errs.push(fieldError.invalid(key('metadata.annotations', 'service.kubernetes.io/topology-mode'), mode, 'must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified'));
  }
  const ports = structs(spec.ports);
  const headless = isHeadless(svc);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(fieldError.required('spec.ports'));
  const clusterIPs = strs(spec.clusterIPs);
  if (type === 'LoadBalancer' && headless) errs.push(fieldError.invalid('spec.clusterIPs[0]', clusterIPs[0]!, "may not be set to 'None' for LoadBalancer services"));
  if (type === 'NodePort' && headless) errs.push(fieldError.invalid('spec.clusterIPs[0]', clusterIPs[0]!, "may not be set to 'None' for NodePort services"));
  if (type === 'ExternalName') {
    if (clusterIPs.length > 0) errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (strs(spec.ipFamilies).length > 0) errs.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) errs.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const externalName = str(spec.externalName);
    const cname = externalName.endsWith('.') ? externalName.slice(0, -1) : externalName;
    if (cname !== '') errs.push(...isDNS1123Subdomain(cname).map((msg) => fieldError.invalid('spec.externalName', cname, msg)));
    else errs.push(fieldError.required('spec.externalName'));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, index('spec.ports', i))));
  if (isObj(spec.selector)) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  const affinity = str(spec.sessionAffinity);
  if (affinity === '') errs.push(fieldError.required('spec.sessionAffinity'));
  else if (affinity !== 'ClientIP' && affinity !== 'None') errs.push(fieldError.notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
  if (affinity === 'ClientIP') {
    const cfg = optStruct(spec.sessionAffinityConfig);
    const p = 'spec.sessionAffinityConfig';
    const clientIP = cfg ? optStruct(cfg.clientIP) : undefined;
    const timeout = clientIP ? optNum(clientIP.timeoutSeconds) : undefined;
    if (!cfg) errs.push(fieldError.required(p, 'when session affinity type is ClientIP'));
    else if (!clientIP) errs.push(fieldError.required(child(p, 'clientIP'), 'when session affinity type is ClientIP'));
    else if (timeout === undefined) errs.push(fieldError.required(child(p, 'clientIP', 'timeoutSeconds'), 'when session affinity type is ClientIP'));
    else if (timeout <= 0 || timeout > MaxClientIPServiceAffinitySeconds) {
      errs.push(fieldError.invalid(child(p, 'clientIP', 'timeoutSeconds'), timeout, `must be greater than 0 and less than ${MaxClientIPServiceAffinitySeconds}`));
    }
  } else if (affinity === 'None' && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    errs.push(fieldError.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPsRelatedFields(svc));
  strs(spec.externalIPs).forEach((ip, i) => {
    const p = index('spec.externalIPs', i);
    const msgs = isValidIP(ip);
    if (msgs.length > 0) errs.push(...msgs.map((msg) => fieldError.invalid(p, ip, msg)));
    else errs.push(...validateNonSpecialIP(ip, p));
  });
  if (type === '') errs.push(fieldError.required('spec.type'));
  else if (!supportedServiceTypes.includes(type)) errs.push(fieldError.notSupported('spec.type', type, supportedServiceTypes));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (num(p.nodePort) !== 0) errs.push(fieldError.forbidden(child(index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const np = num(p.nodePort);
    if (np === 0) return;
    const k = `${str(p.protocol)}/${np}`;
    if (nodePorts.has(k)) errs.push(fieldError.duplicate(child(index('spec.ports', i), 'nodePort'), np));
    nodePorts.add(k);
  });
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const k = `${str(p.protocol)}/${num(p.port)}`;
    if (portKeys.has(k)) errs.push({ type: 'FieldValueDuplicate', field: index('spec.ports', i), badValue: { kind: 'raw', text: goServicePort(p) }, detail: '' });
    portKeys.add(k);
  });
  const ranges = strs(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    const p = 'spec.LoadBalancerSourceRanges';
    if (type !== 'LoadBalancer') errs.push(fieldError.forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => {
      const v = r.trim();
      errs.push(...isValidCIDR(v).map((msg) => fieldError.invalid(index(p, i), v, msg)));
    });
  } else if (Object.prototype.hasOwnProperty.call(annotations, 'service.beta.kubernetes.io/load-balancer-source-ranges')) {
    const p = key('metadata.annotations', 'service.beta.kubernetes.io/load-balancer-source-ranges');
    if (type !== 'LoadBalancer') errs.push(fieldError.forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    const val = annotations['service.beta.kubernetes.io/load-balancer-source-ranges']!.trim();
    if (val !== '') for (const c of val.split(',')) errs.push(...isValidCIDR(c.trim()).map((msg) => fieldError.invalid(p, c.trim(), msg)));
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts !== null && type !== 'LoadBalancer') {
    errs.push(fieldError.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) {
    errs.push(fieldError.required('allocateLoadBalancerNodePorts'));
  }
  errs.push(...validateLoadBalancerClass(svc, undefined));
  // External traffic policy and health check node port.
  const etp = str(spec.externalTrafficPolicy);
  if (!externallyAccessible(svc)) {
    if (etp !== '') errs.push(fieldError.invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  } else if (etp === '') errs.push(fieldError.required('spec.externalTrafficPolicy'));
  else if (etp !== 'Cluster' && etp !== 'Local') errs.push(fieldError.notSupported('spec.externalTrafficPolicy', etp, ['Cluster', 'Local']));
  const hcnp = num(spec.healthCheckNodePort);
  if (!needsHealthCheckNodePort(svc)) {
    if (hcnp !== 0) errs.push(fieldError.invalid('spec.healthCheckNodePort', hcnp, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hcnp === 0) errs.push(fieldError.required('spec.healthCheckNodePort'));
  else errs.push(...isValidPortNum(hcnp).map((msg) => fieldError.invalid('spec.healthCheckNodePort', hcnp, msg)));
  const itp = optStr(spec.internalTrafficPolicy);
  if (itp === undefined) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(fieldError.required('spec.internalTrafficPolicy'));
  } else if (itp !== 'Cluster' && itp !== 'Local') errs.push(fieldError.notSupported('spec.internalTrafficPolicy', itp, ['Cluster', 'Local']));
  const td = optStr(spec.trafficDistribution);
  if (td !== undefined && td !== 'PreferClose') errs.push(fieldError.notSupported('spec.trafficDistribution', td, ['PreferClose']));
  return errs;
}

function validateUpgradeDowngradeClusterIPs(old: Service, svc: Service): FieldError[] {
  if (typeOf(svc) === 'ExternalName' || typeOf(old) === 'ExternalName') return [];
  if (isHeadless(old) && isHeadless(svc)) return [];
  const errs: FieldError[] = [];
  const oldIPs = strs(specOf(old).clusterIPs);
  const newIPs = strs(specOf(svc).clusterIPs);
  if (oldIPs.length === newIPs.length) {
    oldIPs.forEach((ip, i) => ip !== newIPs[i] && errs.push(fieldError.invalid(index('spec.clusterIPs', i), newIPs, 'may not change once set')));
  } else if (oldIPs.length > newIPs.length) {
    if (newIPs.length === 0) errs.push(fieldError.invalid('spec.clusterIPs[0]', newIPs, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && newIPs.length > 0 && newIPs[0] !== oldIPs[0]) errs.push(fieldError.invalid('spec.clusterIPs[0]', newIPs, 'may not change once set'));
    if (newIPs.length === 1 && str(specOf(svc).ipFamilyPolicy) !== 'SingleStack') {
      errs.push(fieldError.invalid('spec.ipFamilyPolicy', optStr(specOf(svc).ipFamilyPolicy) ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length > 0 && newIPs[0] !== oldIPs[0]) {
    errs.push(fieldError.invalid('spec.clusterIPs[0]', newIPs, 'may not change once set'));
  }
  return errs;
}

function validateUpgradeDowngradeIPFamilies(old: Service, svc: Service): FieldError[] {
  if (typeOf(svc) === 'ExternalName' || typeOf(old) === 'ExternalName') return [];
  if (isHeadless(old) !== isHeadless(svc) || isHeadless(svc)) return [];
  const errs: FieldError[] = [];
  const oldF = strs(specOf(old).ipFamilies);
  const newF = strs(specOf(svc).ipFamilies);
  const newIPs = strs(specOf(svc).clusterIPs);
  if (oldF.length === newF.length) {
    oldF.forEach((f, i) => f !== newF[i] && errs.push(fieldError.invalid('spec.ipFamilies[0]', newF, 'may not change once set')));
  } else if (oldF.length > newF.length) {
    if (newIPs.length === 0) errs.push(fieldError.invalid('spec.ipFamilies[0]', newF, 'primary ipFamily can not be unset'));
    if (newF.length > 0 && newF[0] !== oldF[0]) errs.push(fieldError.invalid('spec.ipFamilies[0]', newIPs, 'may not change once set'));
    if (newF.length === 1 && str(specOf(svc).ipFamilyPolicy) !== 'SingleStack') {
      errs.push(fieldError.invalid('spec.ipFamilyPolicy', optStr(specOf(svc).ipFamilyPolicy) ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldF.length > 0 && newF.length > 0 && newF[0] !== oldF[0]) {
    errs.push(fieldError.invalid('spec.ipFamilies[0]', newIPs, 'may not change once set'));
  }
  return errs;
}

/** ValidateServiceUpdate minus ObjectMeta. */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const errs = [...validateUpgradeDowngradeClusterIPs(old, svc), ...validateUpgradeDowngradeIPFamilies(old, svc), ...validateLoadBalancerClass(svc, old).filter((e) => e.detail === 'may not change once set')];
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(svc) && num(specOf(svc).healthCheckNodePort) !== num(specOf(old).healthCheckNodePort)) {
    errs.push(fieldError.forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  errs.push(...validateService(svc));
  return errs;
}

/** ValidateLoadBalancerStatus. */
export function validateServiceStatus(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const ingress = structs(struct(struct(svc.status).loadBalancer).ingress);
  if (typeOf(svc) !== 'LoadBalancer' && ingress.length !== 0) return [fieldError.forbidden('status.loadBalancer.ingress', "may only be used when `spec.type` is 'LoadBalancer'")];
  ingress.forEach((ing, i) => {
    const p = index('status.loadBalancer.ingress', i);
    const ip = str(ing.ip);
    if (ip !== '') errs.push(...isValidIP(ip).map((msg) => fieldError.invalid(child(p, 'ip'), ip, msg)));
    const mode = optStr(ing.ipMode);
    if (mode === undefined) {
      if (ip !== '') errs.push(fieldError.required(child(p, 'ipMode'), 'must be specified when `ip` is set'));
    } else if (ip === '') errs.push(fieldError.forbidden(child(p, 'ipMode'), 'may not be specified when `ip` is not set'));
    else if (mode !== 'Proxy' && mode !== 'VIP') errs.push(fieldError.notSupported(child(p, 'ipMode'), mode, ['Proxy', 'VIP']));
    const hostname = str(ing.hostname);
    if (hostname !== '') {
      errs.push(...isDNS1123Subdomain(hostname).map((msg) => fieldError.invalid(child(p, 'hostname'), hostname, msg)));
      if (parseIP(hostname)) errs.push(fieldError.invalid(child(p, 'hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** patchAllocatedValues + NormalizeClusterIPs + dropTypeDependentFields of an update. */
function prepareServiceUpdate(svc: Service, old: Service): void {
  const spec = specOf(svc);
  svc.spec = spec;
  const oldSpec = specOf(old);
  // Keep allocated values a client did not send back.
  if (typeOf(old) !== 'ExternalName' && typeOf(svc) !== 'ExternalName') {
    if (str(spec.clusterIP) === '' && oldSpec.clusterIP !== undefined) spec.clusterIP = oldSpec.clusterIP;
    if (strs(spec.clusterIPs).length === 0 && strs(oldSpec.clusterIPs).length > 0) spec.clusterIPs = cloneJson(oldSpec.clusterIPs);
    if (strs(spec.ipFamilies).length === 0 && strs(oldSpec.ipFamilies).length > 0) spec.ipFamilies = cloneJson(oldSpec.ipFamilies);
    if (spec.ipFamilyPolicy === undefined && oldSpec.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const nodePorts = (s: ServiceSpec) => new Set(structs(s.ports).map((p) => num(p.nodePort)).filter((n) => n !== 0));
    const newUsed = nodePorts(spec);
    const used = new Set([...nodePorts(oldSpec)].filter((n) => newUsed.has(n)));
    const byName = new Map(structs(oldSpec.ports).map((p) => [str(p.name), num(p.nodePort)] as const));
    for (const p of structs(spec.ports)) {
      if (num(p.nodePort) !== 0) continue;
      const oldVal = byName.get(str(p.name)) ?? 0;
      if (oldVal !== 0 && !used.has(oldVal)) p.nodePort = oldVal;
    }
  }
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(svc) && num(spec.healthCheckNodePort) === 0 && oldSpec.healthCheckNodePort !== undefined) {
    spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
  // NormalizeClusterIPs: a client that changed only the singular field meant the primary IP.
  const sameIPs = JSON.stringify(strs(spec.clusterIPs)) === JSON.stringify(strs(oldSpec.clusterIPs));
  const clusterIP = str(spec.clusterIP);
  if (sameIPs && clusterIP !== str(oldSpec.clusterIP)) {
    if (clusterIP === '') delete spec.clusterIPs;
    else spec.clusterIPs = [clusterIP];
  }
  // dropTypeDependentFields: clear what the new type does not use, when the client left it as it was.
  const unchanged = (k: keyof ServiceSpec) => JSON.stringify(spec[k] ?? null) === JSON.stringify(oldSpec[k] ?? null);
  if (typeOf(svc) === 'ExternalName' && typeOf(old) !== 'ExternalName') {
    for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy'] as const) if (unchanged(k)) delete spec[k];
  }
  if (needsNodePort(old) && !needsNodePort(svc)) {
    const oldPorts = structs(oldSpec.ports);
    structs(spec.ports).forEach((p, i) => {
      if (num(p.nodePort) !== 0 && num(p.nodePort) === num(oldPorts[i]?.nodePort)) delete p.nodePort;
    });
  }
  if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(svc) && unchanged('healthCheckNodePort')) delete spec.healthCheckNodePort;
  if (typeOf(old) === 'LoadBalancer' && typeOf(svc) !== 'LoadBalancer') {
    for (const k of ['allocateLoadBalancerNodePorts', 'loadBalancerClass'] as const) if (unchanged(k)) delete spec[k];
  }
  if (!externallyAccessible(svc) && externallyAccessible(old) && unchanged('externalTrafficPolicy')) delete spec.externalTrafficPolicy;
}

export const serviceStrategy: ResourceStrategy<Service> = {
  hasStatus: true,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  nameValidator: nameIsDNS1035Label,
  prepareForCreate(svc) {
    const spec = specOf(svc);
    svc.spec = spec;
    const clusterIP = str(spec.clusterIP);
    if (clusterIP !== '' && strs(spec.clusterIPs).length === 0) spec.clusterIPs = [clusterIP];
    initServiceIPFamilies(svc);
  },
  prepareForUpdate(svc, old) {
    svc.status = cloneJson(old.status);
    prepareServiceUpdate(svc, old);
  },
  validate: (svc) => validateService(svc),
  validateUpdate: (svc, old) => validateServiceUpdate(svc, old),
  prepareForStatusUpdate(svc, old) {
    svc.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (svc) => validateServiceStatus(svc),
};
