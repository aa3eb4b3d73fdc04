// Pod: pkg/registry/core/pod/strategy.go (create/update/status, graceful delete) and the pod parts
// of pkg/apis/core/validation (ValidatePodCreate, ValidatePodUpdate, ValidatePodStatusUpdate,
// ValidatePodEphemeralContainersUpdate).
import { annotationsOf, metadataOf } from '../../../../api/meta/object.js';
import { parseQuantity, type Quantity } from '../../../../api/meta/quantity.js';
import type { Binding, Container, ContainerStatus, EphemeralContainer, HostIP, Pod, PodCondition, PodIP, PodSpec, ResourceRequirements, Toleration } from '../../../../api/types.js';
import { child, index, key, nonEmpty, obj, optNum, semanticEqual, str, stringMap, validateImmutableField } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { inclusiveRangeError, isQualifiedName, isValidIP, isIPv6String, nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import { optStruct, struct, structs } from '../../../../machinery/validation/structs.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { podWarnings } from '../../pod-template-warnings.js';
import {
  ephemeralContainerDiff,
  podSpecDiff,
  validateEphemeralContainers,
  validatePodCreate,
  validatePodMetadataAndSpec,
  validatePodSpecificAnnotations,
  validateTolerations,
  validateVolumes,
  type PodValidationOptions,
} from '../../../podspec/index.js';
import { cloneJson } from '../../../meta.js';

const MaxInt32 = 2147483647;

// ---- QoS ----

const qosResources = new Set(['cpu', 'memory']);

/** qos.ComputePodQOS: Guaranteed, Burstable or BestEffort from the containers' (or pod-level) cpu/memory. */
export function computePodQOS(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const spec = struct(pod.spec);
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let isGuaranteed = true;
  const add = (into: Map<string, Quantity>, name: string, q: Quantity) => {
    const cur = into.get(name);
    into.set(name, cur ? cur.add(q) : q);
  };
  const process = (resources: ResourceRequirements) => {
    for (const [name, v] of Object.entries(obj(resources.requests))) {
      const q = qosResources.has(name) ? parseQuantity(String(v)) : undefined;
      if (q && q.sign() > 0) add(requests, name, q);
    }
    const found = new Set<string>();
    for (const [name, v] of Object.entries(obj(resources.limits))) {
      const q = qosResources.has(name) ? parseQuantity(String(v)) : undefined;
      if (q && q.sign() > 0) {
        found.add(name);
        add(limits, name, q);
      }
    }
    if (!found.has('memory') || !found.has('cpu')) isGuaranteed = false;
  };
  const podResources = optStruct(spec.resources);
  if (podResources && (Object.keys(obj(podResources.requests)).length > 0 || Object.keys(obj(podResources.limits)).length > 0)) {
    process(podResources);
  } else {
    for (const c of [...structs(spec.containers), ...structs(spec.initContainers)]) process(struct(c.resources));
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || lim.cmp(req) !== 0) {
        isGuaranteed = false;
        break;
      }
    }
  }
  return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

// ---- graceful deletion ----

/**
 * podStrategy.CheckGracefulDelete: the grace period a delete of this pod gets. `requested` is the
 * DeleteOptions' gracePeriodSeconds (undefined: the pod's terminationGracePeriodSeconds, else 0). An
 * unscheduled or terminal pod is deleted at once whatever was asked; a negative period becomes 1.
 */
export function podGracePeriodSeconds(pod: Pod, requested?: number): number {
  const spec = struct(pod.spec);
  let period = requested ?? optNum(spec.terminationGracePeriodSeconds) ?? 0;
  if (str(spec.nodeName) === '') period = 0;
  const phase = str(struct(pod.status).phase);
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  return period;
}

// ---- validation options ----

/** The options Kubernetes derives from the old pod: tolerate what the old object already had. */
function podValidationOptions(newPod: Pod, oldPod: Pod | undefined): PodValidationOptions {
  const opts: PodValidationOptions = {};
  if (oldPod) {
    const cost = stringMap(annotationsOf(oldPod))['controller.kubernetes.io/pod-deletion-cost'];
    if (cost !== undefined && (!/^[+-]?\d+$/.test(cost) || Math.abs(Number(cost)) > MaxInt32)) opts.allowInvalidPodDeletionCost = true;
  }
  void newPod;
  return opts;
}

// ---- update ----

const updatableMessage =
  'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** ValidatePodSpecificAnnotationUpdates (its ValidatePodSpecificAnnotations included, as Kubernetes repeats it). */
function validatePodSpecificAnnotationUpdates(newPod: Pod, oldPod: Pod, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'metadata.annotations';
  const n = stringMap(annotationsOf(newPod));
  const o = stringMap(annotationsOf(oldPod));
  const apparmor = 'container.apparmor.security.beta.kubernetes.io/';
  const mirror = 'kubernetes.io/config.mirror';
  for (const [k, v] of Object.entries(o)) {
    if (Object.prototype.hasOwnProperty.call(n, k) && n[k] === v) continue;
    if (k.startsWith(apparmor)) errs.push(fieldError.forbidden(key(path, k), 'may not remove or update AppArmor annotations'));
    if (k === mirror) errs.push(fieldError.forbidden(key(path, k), 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(n)) {
    if (Object.prototype.hasOwnProperty.call(o, k)) continue;
    if (k.startsWith(apparmor)) errs.push(fieldError.forbidden(key(path, k), 'may not add AppArmor annotations'));
    if (k === mirror) errs.push(fieldError.forbidden(key(path, k), 'may not add mirror pod annotation'));
  }
  errs.push(...validatePodSpecificAnnotations(metadataOf(newPod).annotations, struct(newPod.spec), path, opts));
  return errs;
}

function validateContainerUpdates(newCs: readonly Container[], oldCs: readonly Container[], path: string): { errs: FieldError[]; stop: boolean } {
  if (newCs.length !== oldCs.length) return { errs: [fieldError.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  newCs.forEach((c, i) => {
    const image = str(c.image);
    if (image === '') errs.push(fieldError.required(child(index(path, i), 'image')));
    if (image.trim().length !== image.length) errs.push(fieldError.invalid(child(index(path, i), 'image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration still there (tolerationSeconds may change), then ValidateTolerations. */
function validateOnlyAddedTolerations(newT: readonly Toleration[], oldT: readonly Toleration[], path: string): FieldError[] {
  for (const old of oldT) {
    const found = newT.some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found) return [fieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(newT, path);
}

/** ValidatePodUpdate minus ObjectMeta (the store validates metadata). */
export function validatePodUpdate(newPod: Pod, oldPod: Pod): FieldError[] {
  const opts = podValidationOptions(newPod, oldPod);
  const errs = validatePodMetadataAndSpec(newPod, opts);
  errs.push(...validatePodSpecificAnnotationUpdates(newPod, oldPod, opts));
  const ns = struct(newPod.spec);
  const os = struct(oldPod.spec);
  let r = validateContainerUpdates(structs(ns.containers), structs(os.containers), 'spec.containers');
  errs.push(...r.errs);
  if (r.stop) return errs;
  r = validateContainerUpdates(structs(ns.initContainers), structs(os.initContainers), 'spec.initContainers');
  errs.push(...r.errs);
  if (r.stop) return errs;
  const newADS = optNum(ns.activeDeadlineSeconds);
  const oldADS = optNum(os.activeDeadlineSeconds);
  if (newADS !== undefined) {
    if (newADS < 0 || newADS > MaxInt32) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', newADS, inclusiveRangeError(0, MaxInt32)));
      return errs;
    }
    if (oldADS !== undefined && oldADS < newADS) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', newADS, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (oldADS !== undefined) {
    errs.push(fieldError.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(structs(ns.tolerations), structs(os.tolerations), 'spec.tolerations'));
  // Scheduling gates may only be removed.
  const newGates = structs(ns.schedulingGates);
  if (newGates.length > 0) {
    const oldGates = new Set(structs(os.schedulingGates).map((g) => str(g.name)));
    newGates.forEach((g, i) => {
      if (!oldGates.has(str(g.name))) errs.push(fieldError.forbidden(child(index('spec.schedulingGates', i), 'name'), `only deletion is allowed, but found new scheduling gate '${str(g.name)}'`));
    });
  }
  if (semanticEqual(ns, os)) return errs;
  // Munge the fields an update may change back to their old values, then compare.
  const munged = cloneJson(ns);
  munged.containers = structs(ns.containers).map((c, i) => ({ ...c, image: structs(os.containers)[i]?.image }));
  if (Array.isArray(ns.initContainers)) munged.initContainers = structs(ns.initContainers).map((c, i) => ({ ...c, image: structs(os.initContainers)[i]?.image }));
  munged.activeDeadlineSeconds = os.activeDeadlineSeconds;
  munged.schedulingGates = os.schedulingGates;
  munged.tolerations = os.tolerations;
  const oldTGPS = optNum(os.terminationGracePeriodSeconds);
  if (oldTGPS !== undefined && oldTGPS < 0 && optNum(munged.terminationGracePeriodSeconds) === 1) munged.terminationGracePeriodSeconds = oldTGPS;
  if (nonEmpty(os.schedulingGates)) {
    // A gated pod may gain nodeSelector entries (no changes or removals).
    const oldSel = stringMap(os.nodeSelector);
    const newSel = stringMap(munged.nodeSelector);
    if (!semanticEqual(oldSel, newSel)) {
      if (Object.entries(oldSel).some(([k, v]) => newSel[k] !== v)) {
        errs.push(fieldError.invalidMap('spec.nodeSelector', newSel, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
      }
      munged.nodeSelector = os.nodeSelector;
    }
  }
  dropUndefinedFields(munged);
  if (!semanticEqual(munged, os)) errs.push(fieldError.forbidden('spec', `${updatableMessage}\n${podSpecDiff(os, munged)}`));
  return errs;
}

/** Drops the fields set to undefined: the munged spec is diffed, where they would show. */
function dropUndefinedFields(o: Record<string, unknown>): void {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
}

// ---- status ----

const systemConditions = new Set(['PodScheduled', 'Ready', 'Initialized']);

function validateContainerStateTransition(newStatuses: readonly ContainerStatus[], oldStatuses: readonly ContainerStatus[], path: string, restartPolicy: string, restartable: Set<string> = new Set()): FieldError[] {
  const errs: FieldError[] = [];
  if (restartPolicy === 'Always') return errs;
  oldStatuses.forEach((old, i) => {
    const terminated = optStruct(struct(old.state).terminated);
    if (!terminated) return;
    if ((optNum(terminated.exitCode) ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
    if (restartable.has(str(old.name))) return;
    for (const n of newStatuses) {
      if (str(n.name) === str(old.name) && !optStruct(struct(n.state).terminated)) {
        errs.push(fieldError.forbidden(child(index(path, i), 'state'), 'may not be transitioned to non-terminated state'));
      }
    }
  });
  return errs;
}

function validateIPList(list: readonly (PodIP | HostIP)[], path: string, single: string): FieldError[] {
  const errs: FieldError[] = [];
  list.forEach((ip, i) => errs.push(...isValidIP(str(ip.ip)).map((msg) => fieldError.invalid(index(path, i), str(ip.ip), msg))));
  if (list.length > 1) {
    const ips = list.map((x) => str(x.ip));
    const v6 = ips.filter((x) => isIPv6String(x)).length;
    if (ips.length > 2 || v6 !== 1) errs.push(fieldError.invalid(path, ips, 'may specify no more than one IP for each IP family'));
    const seen = new Set<string>();
    ips.forEach((x, i) => {
      if (seen.has(x)) errs.push(fieldError.duplicate(index(path, i), `${single}{IP:${JSON.stringify(x)}}`));
      seen.add(x);
    });
  }
  return errs;
}

/** ValidatePodStatusUpdate minus ObjectMeta. */
export function validatePodStatusUpdate(newPod: Pod, oldPod: Pod): FieldError[] {
  const opts = podValidationOptions(newPod, oldPod);
  const errs = validatePodSpecificAnnotationUpdates(newPod, oldPod, opts);
  const ns = struct(newPod.status);
  const os = struct(oldPod.status);
  // Kubernetes reports bad condition types under metadata (its field path starts there).
  structs(ns.conditions).forEach((c, i) => {
    const type = str(c.type);
    if (systemConditions.has(type)) return;
    errs.push(...isQualifiedName(type).map((msg) => fieldError.invalid(child(index('metadata.conditions', i), 'Type'), type, msg)));
  });
  if (str(struct(newPod.spec).nodeName) !== str(struct(oldPod.spec).nodeName)) errs.push(fieldError.forbidden('status.nodeName', 'may not be changed directly'));
  const nominated = str(ns.nominatedNodeName);
  if (nominated !== str(os.nominatedNodeName) && nominated !== '') {
    for (const msg of nameIsDNSSubdomain(nominated, false)) errs.push(fieldError.invalid('status.nominatedNodeName', nominated, msg));
  }
  errs.push(...validateImmutableField(str(ns.qosClass), str(os.qosClass), 'status.qosClass'));
  const oldSpec = struct(oldPod.spec);
  const restartPolicy = str(oldSpec.restartPolicy);
  const restartable = new Set(structs(oldSpec.initContainers).filter((c) => c.restartPolicy === 'Always').map((c) => str(c.name)));
  errs.push(...validateContainerStateTransition(structs(ns.containerStatuses), structs(os.containerStatuses), 'status.containerStatuses', restartPolicy));
  errs.push(...validateContainerStateTransition(structs(ns.initContainerStatuses), structs(os.initContainerStatuses), 'status.initContainerStatuses', restartPolicy, restartable));
  errs.push(...validateContainerStateTransition(structs(ns.ephemeralContainerStatuses), structs(os.ephemeralContainerStatuses), 'status.ephemeralContainerStatuses', 'Never'));
  errs.push(...validateIPList(structs(ns.podIPs), 'status.podIPs', 'core.PodIP'));
  const hostIPs = structs(ns.hostIPs);
  if (hostIPs.length > 0) {
    if (str(ns.hostIP) !== str(hostIPs[0]!.ip)) errs.push(fieldError.invalid('status.hostIPs[0].ip', str(hostIPs[0]!.ip), 'must be equal to `hostIP`'));
    errs.push(...validateIPList(hostIPs, 'status.hostIPs', 'core.HostIP'));
  }
  return errs;
}

// ---- ephemeral containers (pods/ephemeralcontainers) ----

/** ValidatePodEphemeralContainersUpdate minus ObjectMeta: existing ephemeral containers may not change or go. */
export function validatePodEphemeralContainersUpdate(newPod: Pod, oldPod: Pod): FieldError[] {
  const opts = podValidationOptions(newPod, oldPod);
  const errs = validatePodMetadataAndSpec(newPod, opts);
  errs.push(...validatePodSpecificAnnotationUpdates(newPod, oldPod, opts));
  if (Object.prototype.hasOwnProperty.call(stringMap(annotationsOf(oldPod)), 'kubernetes.io/config.mirror')) {
    return [fieldError.forbidden('', 'static pods do not support ephemeral containers')];
  }
  const byName = new Map<string, EphemeralContainer>(structs(struct(newPod.spec).ephemeralContainers).map((c) => [str(c.name), c] as const));
  for (const old of structs(struct(oldPod.spec).ephemeralContainers)) {
    const n = byName.get(str(old.name));
    if (!n) errs.push(fieldError.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(str(old.name))} may not be removed\n`));
    else if (!semanticEqual(old, n)) errs.push(fieldError.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(str(old.name))} may not be changed\n${ephemeralContainerDiff(old, n)}`));
  }
  return errs;
}

export { validateVolumes, validateEphemeralContainers };

// ---- the strategies ----

export const podStrategy: ResourceStrategy<Pod> = {
  hasStatus: true,
  tracksGeneration: true,
  prepareForCreate(pod) {
    const conditions: PodCondition[] = [];
    const spec = struct(pod.spec);
    if (nonEmpty(spec.schedulingGates)) {
      conditions.push({ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' });
    }
    pod.status = { phase: 'Pending', ...(conditions.length > 0 ? { conditions } : {}), qosClass: computePodQOS(pod) };
  },
  prepareForUpdate(pod, old) {
    pod.status = cloneJson(old.status);
  },
  validate(pod) {
    return validatePodCreate(pod, podValidationOptions(pod, undefined));
  },
  validateUpdate(pod, old) {
    return validatePodUpdate(pod, old);
  },
  prepareForStatusUpdate(pod, old) {
    pod.spec = cloneJson(old.spec);
    const meta = struct(pod.metadata);
    const oldMeta = metadataOf(old);
    if (oldMeta.ownerReferences === undefined) delete meta.ownerReferences;
    else meta.ownerReferences = cloneJson(oldMeta.ownerReferences);
    pod.metadata = meta;
    const status = struct(pod.status);
    const oldQOSClass = struct(old.status).qosClass;
    if (str(status.qosClass) === '' && str(oldQOSClass) !== '') status.qosClass = oldQOSClass;
    pod.status = status;
  },
  validateStatusUpdate(pod, old) {
    return validatePodStatusUpdate(pod, old);
  },
  defaultGracePeriodSeconds(pod) {
    return podGracePeriodSeconds(pod);
  },
  warnings: (pod) => podWarnings(pod, ''),
  allowCreateOnUpdate: false,
};

/** pods/ephemeralcontainers: only spec.ephemeralContainers changes (everything else is kept from the old pod). */
export const podEphemeralContainersStrategy: ResourceStrategy<Pod> = {
  hasStatus: true,
  tracksGeneration: true,
  prepareForUpdate(pod, old) {
    const ephemeral = struct(pod.spec).ephemeralContainers;
    const spec = cloneJson(struct(old.spec));
    if (ephemeral === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = ephemeral;
    pod.spec = spec;
    pod.status = cloneJson(old.status);
  },
  validate: () => [],
  validateUpdate(pod, old) {
    return validatePodEphemeralContainersUpdate(pod, old);
  },
};

// ---- in-place resize (pods/resize) ----

const resizable = new Set(['cpu', 'memory']);

/** ValidatePodResize minus ObjectMeta: only cpu and memory of (sidecar and regular) containers change, QoS stays. */
export function validatePodResize(newPod: Pod, oldPod: Pod): FieldError[] {
  const opts = podValidationOptions(newPod, oldPod);
  const errs = validatePodMetadataAndSpec(newPod, opts);
  const podLevel = (p: Pod) => {
    const r = struct(struct(p.spec).resources);
    return Object.keys(obj(r.requests)).length + Object.keys(obj(r.limits)).length > 0;
  };
  if (podLevel(oldPod) || podLevel(newPod)) return [fieldError.forbidden('', 'pods with pod-level resources cannot be resized')];
  if (Object.prototype.hasOwnProperty.call(stringMap(annotationsOf(oldPod)), 'kubernetes.io/config.mirror')) return [fieldError.forbidden('', 'static pods cannot be resized')];
  if (str(struct(struct(oldPod.spec).os).name) === 'windows') return [fieldError.forbidden('', 'windows pods cannot be resized')];
  const oldQOS = str(struct(oldPod.status).qosClass) || computePodQOS(oldPod);
  if (oldQOS !== computePodQOS(newPod)) errs.push(fieldError.invalid('spec', str(struct(newPod.status).qosClass), 'Pod QOS Class may not change as a result of resizing'));
  const check = (field: 'containers' | 'initContainers', onlySidecars: boolean) => {
    const olds = structs(struct(oldPod.spec)[field]);
    const news = structs(struct(newPod.spec)[field]);
    olds.forEach((oc, i) => {
      if (onlySidecars && oc.restartPolicy !== 'Always') return;
      const nc: Container = news[i] ?? {};
      const p = child(index(`spec.${field}`, i), 'resources');
      const nr = struct(nc.resources);
      const or = struct(oc.resources);
      const removed = (n: unknown, o: unknown) => Object.keys(obj(o)).some((k) => !(k in obj(n)));
      if (removed(nr.requests, or.requests)) errs.push(fieldError.forbidden(child(p, 'requests'), 'resource requests cannot be removed'));
      if (removed(nr.limits, or.limits)) errs.push(fieldError.forbidden(child(p, 'limits'), 'resource limits cannot be removed'));
      const memPolicy = structs(nc.resizePolicy).find((rp) => rp.resourceName === 'memory')?.restartPolicy;
      if (memPolicy === undefined || memPolicy === 'NotRequired') {
        const nl = obj(nr.limits).memory;
        const ol = obj(or.limits).memory;
        const nq = nl === undefined ? undefined : parseQuantity(String(nl));
        const oq = ol === undefined ? undefined : parseQuantity(String(ol));
        if (nq && oq && nq.cmp(oq) < 0) errs.push(fieldError.forbidden(key(child(p, 'limits'), 'memory'), 'memory limits cannot be decreased unless resizePolicy is RestartContainer'));
        else if (nq && !oq) errs.push(fieldError.forbidden(key(child(p, 'limits'), 'memory'), 'memory limits cannot be added unless resizePolicy is RestartContainer'));
      }
    });
  };
  check('initContainers', true);
  check('containers', false);
  // Nothing but cpu and memory may change.
  const strip = (c: Container) => {
    const r = struct(c.resources);
    const only = (l: unknown) => Object.fromEntries(Object.entries(obj(l)).filter(([k]) => !resizable.has(k)));
    return { ...c, resources: { ...r, limits: only(r.limits), requests: only(r.requests) }, resizePolicy: undefined };
  };
  const sameExceptCpuMem = (a: readonly Container[], b: readonly Container[]) => a.length === b.length && a.every((c, i) => semanticEqual(strip(c), strip(b[i]!)));
  const ns = struct(newPod.spec);
  const os = struct(oldPod.spec);
  if (errs.length > 0) return errs;
  const rest = (s: PodSpec) => ({ ...s, containers: undefined, initContainers: undefined });
  if (!sameExceptCpuMem(structs(ns.containers), structs(os.containers)) || !semanticEqual(rest(ns), rest(os))) {
    errs.push(fieldError.forbidden('spec', 'only cpu and memory resources are mutable'));
  } else if (!sameExceptCpuMem(structs(ns.initContainers), structs(os.initContainers))) {
    errs.push(fieldError.forbidden('spec', 'only cpu and memory resources for sidecar containers are mutable'));
  }
  return errs;
}

/** pods/resize: the containers' resources and resize policies change, nothing else. */
export const podResizeStrategy: ResourceStrategy<Pod> = {
  hasStatus: true,
  tracksGeneration: true,
  prepareForUpdate(pod, old) {
    const spec = cloneJson(struct(old.spec));
    const take = (field: 'containers' | 'initContainers') => {
      const news = structs(struct(pod.spec)[field]);
      spec[field] = structs(spec[field]).map((c, i) => {
        const n = news[i];
        if (!n || str(n.name) !== str(c.name)) return c;
        const out: Container = { ...c, resources: n.resources };
        if (n.resizePolicy === undefined) delete out.resizePolicy;
        else out.resizePolicy = n.resizePolicy;
        return out;
      });
    };
    take('containers');
    take('initContainers');
    if (struct(old.spec).initContainers === undefined) delete spec.initContainers;
    pod.spec = spec;
    pod.status = cloneJson(old.status);
  },
  validate: () => [],
  validateUpdate: (pod, old) => validatePodResize(pod, old),
};

/** ValidatePodBinding (pods/binding): the target is a Node by name. */
export function validateBinding(binding: Binding): FieldError[] {
  const target = struct(binding.target);
  const errs: FieldError[] = [];
  const kind = str(target.kind);
  if (kind !== '' && kind !== 'Node') errs.push(fieldError.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (str(target.name) === '') errs.push(fieldError.required('target.name'));
  return errs;
}
