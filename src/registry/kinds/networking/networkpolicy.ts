// networking.k8s.io NetworkPolicy: pkg/registry/networking/networkpolicy/strategy.go and
// ValidateNetworkPolicy / ValidateNetworkPolicyUpdate. No status in v1 (1.33); spec changes bump
// the generation. Invalid label values in selectors stay allowed on update when the old pod
// selector already had them, and CIDRs the old policy held are not checked again.
import type { NetworkPolicy } from '../../../api/types.js';
import { child, index, str, strs, validateLabelSelector } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goString } from '../../../machinery/validation/go-syntax.js';
import { cidrWarnings } from '../../../machinery/validation/ip-strict.js';
import { isValidPortName, isValidPortNum, parseIP } from '../../../machinery/validation/names.js';
import { optStruct, struct, structs } from '../../../machinery/validation/structs.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { validateCIDRs } from './ip-lists.js';

interface Options {
  allowInvalidLabelValue: boolean;
  allowedCIDRs: readonly string[];
}

type Spec = NonNullable<NetworkPolicy['spec']>;
type Port = NonNullable<NonNullable<Spec['ingress']>[number]['ports']>[number];
type Peer = NonNullable<NonNullable<Spec['ingress']>[number]['from']>[number];

function validatePort(port: Port, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = port.protocol;
  if (typeof protocol === 'string' && protocol !== 'TCP' && protocol !== 'UDP' && protocol !== 'SCTP') errs.push(fieldError.notSupported(child(path, 'protocol'), protocol, ['TCP', 'UDP', 'SCTP']));
  const endPort = typeof port.endPort === 'number' ? port.endPort : undefined;
  const p = port.port;
  if (typeof p === 'number') {
    for (const m of isValidPortNum(p)) errs.push(fieldError.invalid(child(path, 'port'), p, m));
    if (endPort !== undefined) {
      if (endPort < p) errs.push(fieldError.invalid(child(path, 'endPort'), endPort, 'must be greater than or equal to `port`'));
      for (const m of isValidPortNum(endPort)) errs.push(fieldError.invalid(child(path, 'endPort'), endPort, m));
    }
  } else if (typeof p === 'string') {
    if (endPort !== undefined) errs.push(fieldError.invalid(child(path, 'endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of isValidPortName(p)) errs.push(fieldError.invalid(child(path, 'port'), p, m));
  } else if (endPort !== undefined) {
    errs.push(fieldError.invalid(child(path, 'endPort'), endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** A sloppily parsed CIDR (netutils.ParseCIDRSloppy): the masked network bytes and the prefix length. */
function parseNet(cidr: string): { net: number[]; bits: number } | undefined {
  const slash = cidr.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(cidr.slice(0, slash));
  const bits = Number(cidr.slice(slash + 1));
  if (!ip || !/^\d+$/.test(cidr.slice(slash + 1)) || bits > ip.length * 8) return undefined;
  const net = ip.map((b, i) => b & (0xff << (8 - Math.max(0, Math.min(8, bits - i * 8)))) & 0xff);
  return { net, bits };
}

function contains(outer: { net: number[]; bits: number }, ip: number[]): boolean {
  if (outer.net.length !== ip.length) return false;
  for (let i = 0; i < ip.length; i++) {
    const keep = Math.max(0, Math.min(8, outer.bits - i * 8));
    const mask = (0xff << (8 - keep)) & 0xff;
    if ((ip[i]! & mask) !== outer.net[i]) return false;
  }
  return true;
}

function validateIPBlock(block: NonNullable<Peer['ipBlock']>, path: string, opts: Options): FieldError[] {
  const cidr = str(block.cidr);
  if (cidr === '') return [fieldError.required(child(path, 'cidr'))];
  const errs = validateCIDRs(child(path, 'cidr'), cidr, opts.allowedCIDRs);
  const outer = parseNet(cidr);
  if (!outer) return errs;
  strs(block.except).forEach((except, i) => {
    const p = index(child(path, 'except'), i);
    errs.push(...validateCIDRs(p, except, opts.allowedCIDRs));
    const inner = parseNet(except);
    if (!inner) return;
    if (!contains(outer, inner.net) || outer.bits >= inner.bits) errs.push(fieldError.invalid(p, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: Peer, path: string, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (optStruct(peer.podSelector)) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, child(path, 'podSelector'), opts.allowInvalidLabelValue));
  }
  if (optStruct(peer.namespaceSelector)) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, child(path, 'namespaceSelector'), opts.allowInvalidLabelValue));
  }
  const block = optStruct(peer.ipBlock);
  if (block) {
    peers++;
    errs.push(...validateIPBlock(block, child(path, 'ipBlock'), opts));
  }
  if (peers === 0) errs.push(fieldError.required(path, 'must specify a peer'));
  else if (peers > 1 && block) errs.push(fieldError.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateSpec(spec: Spec, opts: Options): FieldError[] {
  const errs = validateLabelSelector(struct(spec.podSelector), 'spec.podSelector', opts.allowInvalidLabelValue);
  for (const [direction, peersKey] of [['ingress', 'from'], ['egress', 'to']] as const) {
    structs(spec[direction]).forEach((rule, i) => {
      const path = index(`spec.${direction}`, i);
      structs(rule.ports).forEach((port, j) => errs.push(...validatePort(port, index(child(path, 'ports'), j))));
      const peers = structs((rule as Record<string, unknown>)[peersKey] as Peer[] | undefined);
      peers.forEach((peer, j) => errs.push(...validatePeer(peer, index(child(path, peersKey), j), opts)));
    });
  }
  const types = strs(spec.policyTypes);
  if (types.length > 2) {
    errs.push(fieldError.invalidRaw('spec.policyTypes', `[]networking.PolicyType{${types.map(goString).join(', ')}}`, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(fieldError.notSupported(index('spec.policyTypes', i), t, ['Ingress', 'Egress']));
  });
  return errs;
}

/** The CIDRs an existing policy holds (ValidateNetworkPolicyUpdate's AllowCIDRsEvenIfInvalid). */
function cidrsOf(policy: NetworkPolicy): string[] {
  const spec = struct(policy.spec);
  const out: string[] = [];
  const add = (peers: readonly Peer[] | null | undefined) => {
    for (const peer of structs(peers)) {
      const block = optStruct(peer.ipBlock);
      if (block) out.push(str(block.cidr), ...strs(block.except));
    }
  };
  for (const rule of structs(spec.ingress)) add(rule.from);
  for (const rule of structs(spec.egress)) add(rule.to);
  return out;
}

export function validateNetworkPolicy(policy: NetworkPolicy, old?: NetworkPolicy): FieldError[] {
  const allowInvalidLabelValue = old !== undefined && validateLabelSelector(struct(struct(old.spec).podSelector), '', false).length > 0;
  // Kubernetes also validates an update with the old CIDRs allowed; with StrictIPCIDRValidation
  // off (1.33) both passes report the same errors, which its aggregate message lists once.
  return validateSpec(struct(policy.spec), { allowInvalidLabelValue, allowedCIDRs: old ? cidrsOf(old) : [] });
}

/** The warnings for ipBlock CIDRs in non-standard forms (networkPolicyWarnings). */
export function networkPolicyWarnings(policy: NetworkPolicy): string[] {
  const spec = struct(policy.spec);
  const warnings: string[] = [];
  for (const [direction, peersKey] of [['ingress', 'from'], ['egress', 'to']] as const) {
    structs(spec[direction]).forEach((rule, i) => {
      structs((rule as Record<string, unknown>)[peersKey] as Peer[] | undefined).forEach((peer, j) => {
        const block = optStruct(peer.ipBlock);
        if (!block) return;
        const path = `spec.${direction}[${i}].${peersKey}[${j}].ipBlock`;
        warnings.push(...cidrWarnings(`${path}.cidr`, str(block.cidr)));
        strs(block.except).forEach((except, k) => warnings.push(...cidrWarnings(`${path}.except[${k}]`, except)));
      });
    });
  }
  return warnings;
}

export const networkPolicyStrategy: ResourceStrategy<NetworkPolicy> = {
  hasStatus: false,
  tracksGeneration: true,
  validate: (policy) => validateNetworkPolicy(policy),
  validateUpdate: (policy, old) => validateNetworkPolicy(policy, old),
  warnings: (policy) => networkPolicyWarnings(policy),
};

const networkPolicyPrinter: TablePrinter = {
  columns: [nameColumn, column('Pod-Selector', 'string', 'The pods the policy applies to.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), fmt.formatLabelSelector(fmt.obj(o.spec).podSelector ?? {}), fmt.ageCell(o, now)],
};

export const networkPolicyModule: KindModule = { group: 'networking.k8s.io', kind: 'NetworkPolicy', strategy: networkPolicyStrategy, printer: networkPolicyPrinter };
