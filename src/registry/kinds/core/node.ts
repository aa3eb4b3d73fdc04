// Node: pkg/registry/core/node/strategy.go and ValidateNode / ValidateNodeUpdate. A Node keeps the
// status it is created with (the kubelet registers with one), so the main resource does not reset
// it on create (hasStatus is false here for that reason); an update of the main resource keeps the
// old status, and nodes/status keeps the spec. New nodes get the not-ready:NoSchedule taint (the
// TaintNodesByCondition admission plugin).
import { admitNodeCreate } from '../../../api/core/v1/defaults-other.js';
import type { Node, NodeAddress, NodeConfigSource, Taint } from '../../../api/types.js';
import { annotationsOf } from '../../../api/meta/object.js';
import { child, index, semanticEqual, str, strs, validateLabelName } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goString, goStruct } from '../../../machinery/validation/go-syntax.js';
import { optStruct, struct, structs } from '../../../machinery/validation/structs.js';
import { isConfigMapKey, isIPv6String, isValidCIDR, isValidLabelValue, nameIsDNSSubdomain, validateNamespaceName } from '../../../machinery/validation/names.js';
import type { ResourceStrategy } from '../../strategy.js';
import { resourceEntries, validateResourceQuantityValue, validateTaintEffect } from '../../podspec/index.js';
import { cloneJson } from '../../meta.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import { fieldAt, fieldLabelErrors } from '../../../machinery/selectors/index.js';

/** validateNodeTaints (reported under metadata.taints, as Kubernetes does). */
export function validateNodeTaints(taints: readonly Taint[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Map<string, Set<string>>();
  structs(taints).forEach((t, i) => {
    const p = index(path, i);
    const k = str(t.key);
    const v = str(t.value);
    const effect = str(t.effect);
    errs.push(...validateLabelName(k, child(p, 'key')));
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(fieldError.invalid(child(p, 'value'), v, msgs.join(';')));
    errs.push(...validateTaintEffect(effect, false, child(p, 'effect')));
    const keys = unique.get(effect) ?? new Set<string>();
    if (keys.has(k)) {
      const text = goStruct('core.Taint', [
        ['Key', goString(k)],
        ['Value', goString(v)],
        ['Effect', goString(effect)],
        ['TimeAdded', t.timeAdded ? '(*v1.Time)(0xc000000000)' : '(*v1.Time)(nil)'],
      ]);
      errs.push({ type: 'FieldValueDuplicate', field: p, badValue: { kind: 'raw', text }, detail: 'taints must be unique by key and effect pair' });
      return;
    }
    keys.add(k);
    unique.set(effect, keys);
  });
  return errs;
}

/** The taints kept in the scheduler.alpha.kubernetes.io/taints annotation, when present. */
function validateNodeSpecificAnnotations(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  const taints = str(annotationsOf(node)['scheduler.alpha.kubernetes.io/taints']);
  if (taints) {
    try {
      const parsed = JSON.parse(taints) as unknown;
      if (Array.isArray(parsed) && parsed.length > 0) errs.push(...validateNodeTaints(parsed, 'metadata.annotations.scheduler.alpha.kubernetes.io/taints'));
    } catch (e) {
      errs.push(fieldError.invalid('metadata.annotations', 'scheduler.alpha.kubernetes.io/taints', (e as Error).message));
    }
  }
  return errs;
}

function validateNodeResources(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  const status = struct(node.status);
  for (const which of ['capacity', 'allocatable'] as const) {
    for (const [name, value] of resourceEntries(status[which])) errs.push(...validateResourceQuantityValue(name, value, `status.${which}.${name}`));
  }
  return errs;
}

function validatePodCIDRs(node: Node): FieldError[] {
  const cidrs = strs(struct(node.spec).podCIDRs);
  if (cidrs.length === 0) return [];
  const errs: FieldError[] = [];
  cidrs.forEach((c, i) => errs.push(...isValidCIDR(c).map((msg) => fieldError.invalid(index('spec.podCIDRs', i), c, msg))));
  if (cidrs.length > 1) {
    const v6 = cidrs.filter((c) => isIPv6String(c.split('/')[0] ?? '')).length;
    if (cidrs.length > 2 || v6 !== 1) errs.push(fieldError.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(fieldError.duplicate(index('spec.podCIDRs', i), c));
      seen.add(c);
    });
  }
  return errs;
}

/** ValidateNode minus ObjectMeta. */
export function validateNode(node: Node): FieldError[] {
  const errs = validateNodeSpecificAnnotations(node);
  const taints = struct(node.spec).taints;
  if (Array.isArray(taints) && taints.length > 0) errs.push(...validateNodeTaints(taints, 'metadata.taints'));
  errs.push(...validateNodeResources(node));
  errs.push(...validatePodCIDRs(node));
  return errs;
}

function validateConfigSource(source: NodeConfigSource | null | undefined, path: string, inStatus: boolean): FieldError[] {
  const s = optStruct(source);
  if (!s) return [];
  const errs: FieldError[] = [];
  const cm = optStruct(s.configMap);
  if (cm) {
    const p = child(path, 'configMap');
    if (inStatus) {
      if (str(cm.uid) === '') errs.push(fieldError.required(child(p, 'uid'), 'uid must be set in status'));
      if (str(cm.resourceVersion) === '') errs.push(fieldError.required(child(p, 'resourceVersion'), 'resourceVersion must be set in status'));
    } else {
      if (str(cm.uid) !== '') errs.push(fieldError.forbidden(child(p, 'uid'), 'uid must not be set in spec'));
      if (str(cm.resourceVersion) !== '') errs.push(fieldError.forbidden(child(p, 'resourceVersion'), 'resourceVersion must not be set in spec'));
    }
    const ns = str(cm.namespace);
    if (ns === '') errs.push(fieldError.required(child(p, 'namespace'), 'namespace must be set'));
    else errs.push(...validateNamespaceName(ns, false).map((msg) => fieldError.invalid(child(p, 'namespace'), ns, msg)));
    const name = str(cm.name);
    if (name === '') errs.push(fieldError.required(child(p, 'name'), 'name must be set'));
    else errs.push(...nameIsDNSSubdomain(name, false).map((msg) => fieldError.invalid(child(p, 'name'), name, msg)));
    const k = str(cm.kubeletConfigKey);
    if (k === '') errs.push(fieldError.required(child(p, 'kubeletConfigKey'), 'kubeletConfigKey must be set'));
    else errs.push(...isConfigMapKey(k).map((msg) => fieldError.invalid(child(p, 'kubeletConfigKey'), k, msg)));
  } else {
    errs.push(fieldError.invalid(path, JSON.stringify(source), 'exactly one reference subfield must be non-nil'));
  }
  return errs;
}

/** ValidateNodeUpdate minus ObjectMeta. */
export function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = validateNodeSpecificAnnotations(node);
  errs.push(...validateNodeResources(node));
  const seen: NodeAddress[] = [];
  structs(struct(node.status).addresses).forEach((a, i) => {
    if (seen.some((s) => semanticEqual(s, a))) {
      errs.push({ type: 'FieldValueDuplicate', field: index('status.addresses', i), badValue: { kind: 'raw', text: goStruct('core.NodeAddress', [['Type', goString(a.type)], ['Address', goString(a.address)]]) }, detail: '' });
    }
    seen.push(a);
  });
  const spec = struct(node.spec);
  const oldSpec = struct(old.spec);
  const oldCIDRs = strs(oldSpec.podCIDRs);
  const newCIDRs = strs(spec.podCIDRs);
  const cidrMsg = 'node updates may not change podCIDR except from "" to valid';
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(fieldError.forbidden('spec.podCIDRs', cidrMsg));
    else oldCIDRs.forEach((c, i) => c !== newCIDRs[i] && errs.push(fieldError.forbidden('spec.podCIDRs', cidrMsg)));
  }
  const oldProvider = str(oldSpec.providerID);
  if (oldProvider !== '' && oldProvider !== str(spec.providerID)) errs.push(fieldError.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  errs.push(...validateConfigSource(spec.configSource, 'spec.configSource', false));
  const config = struct(struct(node.status).config);
  for (const which of ['assigned', 'active', 'lastKnownGood'] as const) errs.push(...validateConfigSource(config[which], `status.config.${which}`, true));
  const taints = spec.taints;
  if (Array.isArray(taints) && taints.length > 0) errs.push(...validateNodeTaints(taints, 'metadata.taints'));
  if (str(spec.externalID) !== str(oldSpec.externalID)) errs.push(fieldError.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

export const nodeStrategy: ResourceStrategy<Node> = {
  hasStatus: false,
  tracksGeneration: false,
  prepareForCreate(node) {
    admitNodeCreate(node);
  },
  prepareForUpdate(node, old) {
    if (old.status === undefined) delete node.status;
    else node.status = cloneJson(old.status);
  },
  validate: (node) => validateNode(node),
  validateUpdate: (node, old) => validateNodeUpdate(node, old),
  prepareForStatusUpdate(node, old) {
    if (old.spec === undefined) delete node.spec;
    else node.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (node, old) => validateNodeUpdate(node, old),
};

/** Roles from `node-role.kubernetes.io/<role>` labels and the legacy `kubernetes.io/role` label. */
function nodeRoles(labels: Record<string, unknown>): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels)) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role !== '') roles.add(role);
    } else if (k === 'kubernetes.io/role' && typeof v === 'string' && v !== '') {
      roles.add(v);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeAddress(status: Record<string, unknown>, type: string): string {
  return fmt.str(fmt.arr(status.addresses).find((a) => a.type === type)?.address) || '<none>';
}

const NODE_ADDRESSES_DESCRIPTION =
  'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example.';

const nodePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn,
    column('Version', 'string', 'Kubelet Version reported by the node.'),
    column('Internal-IP', 'string', NODE_ADDRESSES_DESCRIPTION, 1),
    column('External-IP', 'string', NODE_ADDRESSES_DESCRIPTION, 1),
    column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
    column('Kernel-Version', 'string', 'Kernel Version reported by the node from \'uname -r\' (e.g. 3.16.0-0.bpo.4-amd64).', 1),
    column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
  ],
  cells(o, now) {
    const status = fmt.obj(o.status);
    const ready = fmt.arr(status.conditions).find((c) => c.type === 'Ready');
    const states: string[] = [];
    if (ready) states.push(ready.status === 'True' ? 'Ready' : 'NotReady');
    else states.push('Unknown');
    if (fmt.obj(o.spec).unschedulable === true) states.push('SchedulingDisabled');
    const info = fmt.obj(status.nodeInfo);
    return [
      fmt.nameCell(o),
      states.join(','),
      nodeRoles(fmt.obj(fmt.obj(o.metadata).labels)),
      fmt.ageCell(o, now),
      fmt.str(info.kubeletVersion),
      nodeAddress(status, 'InternalIP'),
      nodeAddress(status, 'ExternalIP'),
      fmt.str(info.osImage),
      fmt.str(info.kernelVersion),
      fmt.str(info.containerRuntimeVersion),
    ];
  },
};

export const nodeModule: KindModule = {
  group: '',
  kind: 'Node',
  strategy: nodeStrategy,
  printer: nodePrinter,
  selectableFields: { 'spec.unschedulable': fieldAt.bool('spec', 'unschedulable') },
  fieldLabels: () => ({ labels: ['metadata.name', 'spec.unschedulable'], error: fieldLabelErrors.notSupported }),
};
