// PodSpec and PodTemplateSpec validation (pkg/apis/core/validation: ValidatePodSpec and what it
// calls), on core/v1 JSON. Errors come in Kubernetes' order with its messages (v1.26's where the
// golden vectors show them) and field paths. The pod-level fields are checked here; containers,
// volumes, probes, scheduling, security and resources each have their own file. Used by the Pod
// strategy (validatePodCreate, validatePodMetadataAndSpec) and by every workload's pod template
// (validatePodTemplateSpec).
import type { Pod, PodDNSConfig, PodSpec, PodTemplateSpec } from '../../api/types.js';
import { bool, child, hasKeys, index, isObj, nonEmpty, num, optNum, optStr, str, stringMap, strs, validateAnnotations, validateLabels } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { goString, goStruct, rawError } from '../../machinery/validation/go-syntax.js';
import { byteLength, inclusiveRangeError, nameIsDNSSubdomain, validateServiceAccountName } from '../../machinery/validation/names.js';
import { decoded, optStruct, struct, structs } from '../../machinery/validation/structs.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './affinity.js';
import { validatePodSpecificAnnotations, validateSeccompAnnotationsAndFields } from './annotations.js';
import { validateContainers, validateEphemeralContainers, validateInitContainers } from './containers.js';
import { dns1123Label, dns1123Subdomain, qualifiedName, validIP } from './name-errors.js';
import type { PodValidationOptions } from './options.js';
import { validateOS } from './pod-os.js';
import { validateContainerResourceName } from './resource-names.js';
import { validatePodResourceClaims, validatePodResources, validateResourceRequirements } from './resource-requirements.js';
import { validatePodSecurityContext } from './security.js';
import { validateVolumes } from './volumes.js';

const MaxInt32 = 2147483647;

const MaxDNSNameservers = 3;
const MaxDNSSearchPaths = 32;
const MaxDNSSearchListChars = 2048;

function validatePodDNSConfig(dnsConfig: PodDNSConfig | null | undefined, dnsPolicy: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (dnsPolicy === 'None') {
    if (!isObj(dnsConfig)) return [fieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (!nonEmpty(dnsConfig.nameservers)) return [fieldError.required(child(path, 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!isObj(dnsConfig)) return errs;
  const nameservers = strs(dnsConfig.nameservers);
  if (nameservers.length > MaxDNSNameservers) errs.push(fieldError.invalid(child(path, 'nameservers'), nameservers, `must not have more than ${MaxDNSNameservers} nameservers`));
  nameservers.forEach((ns, i) => errs.push(...validIP(ns, index(child(path, 'nameservers'), i))));
  const searches = strs(dnsConfig.searches);
  if (searches.length > MaxDNSSearchPaths) errs.push(fieldError.invalid(child(path, 'searches'), searches, `must not have more than ${MaxDNSSearchPaths} search paths`));
  if (byteLength(searches.join(' ')) > MaxDNSSearchListChars) {
    errs.push(fieldError.invalid(child(path, 'searches'), searches, `must not have more than ${MaxDNSSearchListChars} characters (including spaces) in the search list`));
  }
  searches.forEach((s, i) => errs.push(...dns1123Subdomain(s.endsWith('.') ? s.slice(0, -1) : s, index(child(path, 'searches'), i))));
  structs(dnsConfig.options).forEach((o, i) => {
    if (str(o.name) === '') errs.push(fieldError.required(index(child(path, 'options'), i), 'must not be empty'));
  });
  return errs;
}

/**
 * ValidatePodSpec. `podName` is the pod's name when the spec is a real pod's (checks of generic
 * ephemeral volumes' PVC names need it); undefined for templates.
 */
export function validatePodSpec(spec: PodSpec, podName: string | undefined, path: string, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const gracePeriod = optNum(spec.terminationGracePeriodSeconds);
  if (gracePeriod === undefined) errs.push(fieldError.required(child(path, 'terminationGracePeriodSeconds')));
  const hostUsers = spec.hostUsers !== false;
  const { vols, errs: vErrs } = validateVolumes(spec.volumes, podName, child(path, 'volumes'), opts);
  errs.push(...vErrs);
  const claims = new Set(structs(spec.resourceClaims).map((c) => str(c.name)).filter((n) => n !== ''));
  errs.push(...validatePodResourceClaims(spec.resourceClaims, child(path, 'resourceClaims')));
  const restartPolicy = str(spec.restartPolicy);
  const containers = structs(spec.containers);
  const inits = structs(spec.initContainers);
  errs.push(...validateContainers(containers, vols, claims, gracePeriod, child(path, 'containers'), restartPolicy, hostUsers));
  errs.push(...validateInitContainers(inits, containers, vols, claims, gracePeriod, child(path, 'initContainers'), restartPolicy, hostUsers));
  errs.push(...validateEphemeralContainers(structs(spec.ephemeralContainers), containers, inits, vols, claims, child(path, 'ephemeralContainers'), restartPolicy, hostUsers));
  errs.push(...validatePodResources(spec, claims, child(path, 'resources')));
  if (bool(spec.hostNetwork)) {
    containers.forEach((c, i) => {
      structs(c.ports).forEach((port, j) => {
        const hp = num(port.hostPort);
        const cp = num(port.containerPort);
        if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
          errs.push(fieldError.invalid(child(index(child(index(child(path, 'containers'), i), 'ports'), j), 'hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
        }
      });
    });
  }
  if (restartPolicy === '') errs.push(fieldError.required(child(path, 'restartPolicy')));
  else if (!['Always', 'OnFailure', 'Never'].includes(restartPolicy)) errs.push(fieldError.notSupported(child(path, 'restartPolicy'), restartPolicy, ['Always', 'OnFailure', 'Never']));
  const dnsPolicy = str(spec.dnsPolicy);
  if (dnsPolicy === '') errs.push(fieldError.required(child(path, 'dnsPolicy')));
  else if (!['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(dnsPolicy)) {
    errs.push(fieldError.notSupported(child(path, 'dnsPolicy'), dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  }
  errs.push(...validateLabels(spec.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...validatePodSecurityContext(spec, child(path, 'securityContext')));
  structs(spec.imagePullSecrets).forEach((ref, i) => {
    if (Object.entries<unknown>(ref).some(([k, v]) => k !== 'name' && v !== undefined && v !== null && v !== '')) {
      errs.push(rawError('FieldValueInvalid', index(child(path, 'imagePullSecrets'), i), goStruct('core.LocalObjectReference', [['Name', goString(ref.name)]]), 'only name may be set'));
    }
  });
  errs.push(...validateAffinity(spec.affinity, opts, child(path, 'affinity')));
  errs.push(...validatePodDNSConfig(spec.dnsConfig, dnsPolicy, child(path, 'dnsConfig')));
  structs(spec.readinessGates).forEach((g, i) => errs.push(...qualifiedName(str(g.conditionType), child(index(child(path, 'readinessGates'), i), 'conditionType'))));
  const gates = new Set<string>();
  structs(spec.schedulingGates).forEach((g, i) => {
    const name = str(g.name);
    errs.push(...qualifiedName(name, index(child(path, 'schedulingGates'), i)));
    if (gates.has(name)) errs.push(fieldError.duplicate(index(child(path, 'schedulingGates'), i), name));
    gates.add(name);
  });
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, child(path, 'topologySpreadConstraints')));
  if (spec.hostUsers === false) {
    if (bool(spec.hostNetwork)) errs.push(fieldError.forbidden(child(path, 'hostNetwork'), 'when `pod.Spec.HostUsers` is false'));
    if (bool(spec.hostPID)) errs.push(fieldError.forbidden(child(path, 'HostPID'), 'when `pod.Spec.HostUsers` is false'));
    if (bool(spec.hostIPC)) errs.push(fieldError.forbidden(child(path, 'HostIPC'), 'when `pod.Spec.HostUsers` is false'));
  }
  const sa = str(spec.serviceAccountName);
  if (sa !== '') for (const msg of validateServiceAccountName(sa, false)) errs.push(fieldError.invalid(child(path, 'serviceAccountName'), sa, msg));
  const nodeName = str(spec.nodeName);
  if (nodeName !== '') for (const msg of nameIsDNSSubdomain(nodeName, false)) errs.push(fieldError.invalid(child(path, 'nodeName'), nodeName, msg));
  const ads = optNum(spec.activeDeadlineSeconds);
  if (ads !== undefined && (ads < 1 || ads > MaxInt32)) errs.push(fieldError.invalid(child(path, 'activeDeadlineSeconds'), ads, inclusiveRangeError(1, MaxInt32)));
  if (str(spec.hostname) !== '') errs.push(...dns1123Label(str(spec.hostname), child(path, 'hostname')));
  if (str(spec.subdomain) !== '') errs.push(...dns1123Label(str(spec.subdomain), child(path, 'subdomain')));
  if (nonEmpty(spec.tolerations)) errs.push(...validateTolerations(spec.tolerations, child(path, 'tolerations')));
  structs(spec.hostAliases).forEach((ha, i) => {
    const p = index(child(path, 'hostAliases'), i);
    errs.push(...validIP(str(ha.ip), child(p, 'ip')));
    strs(ha.hostnames).forEach((h, j) => errs.push(...dns1123Subdomain(h, index(child(p, 'hostnames'), j))));
  });
  const pcn = str(spec.priorityClassName);
  if (pcn !== '') for (const msg of nameIsDNSSubdomain(pcn, false)) errs.push(fieldError.invalid(child(path, 'priorityClassName'), pcn, msg));
  const rcn = optStr(spec.runtimeClassName);
  if (rcn !== undefined) for (const msg of nameIsDNSSubdomain(rcn, false)) errs.push(fieldError.invalid(child(path, 'runtimeClassName'), rcn, msg));
  const pp = optStr(spec.preemptionPolicy);
  if (pp !== undefined) {
    if (pp === '') errs.push(fieldError.required(child(path, 'preemptionPolicy')));
    else if (pp !== 'PreemptLowerPriority' && pp !== 'Never') errs.push(fieldError.notSupported(child(path, 'preemptionPolicy'), pp, ['PreemptLowerPriority', 'Never']));
  }
  if (hasKeys(spec.overhead)) errs.push(...validateResourceRequirements({ limits: spec.overhead }, validateContainerResourceName, claims, child(path, 'overhead')));
  errs.push(...validateOS(spec, child(path, 'os')));
  return errs;
}

/** ValidatePodTemplateSpec (template at `path`). */
export function validatePodTemplateSpec(template: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const t = decoded<PodTemplateSpec>(template);
  const meta = struct(t.metadata);
  const spec = struct(t.spec);
  const errs: FieldError[] = [];
  errs.push(...validateLabels(meta.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
  errs.push(...validatePodSpecificAnnotations(meta.annotations, spec, child(path, 'annotations'), opts));
  errs.push(...validatePodSpec(spec, undefined, child(path, 'spec'), opts));
  errs.push(...validateSeccompAnnotationsAndFields(stringMap(meta.annotations), spec, child(path, 'spec')));
  if (nonEmpty(spec.ephemeralContainers)) errs.push(fieldError.forbidden(child(path, 'spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}

/** The pod-only part of validatePodMetadataAndSpec and ValidatePodCreate (metadata validation excluded). */
export function validatePodMetadataAndSpec(pod: Pod, opts: PodValidationOptions): FieldError[] {
  const meta = struct(pod.metadata);
  const spec = struct(pod.spec);
  const errs: FieldError[] = [];
  errs.push(...validatePodSpecificAnnotations(meta.annotations, spec, 'metadata.annotations', opts));
  errs.push(...validatePodSpec(spec, str(meta.name) || undefined, 'spec', { ...opts, resourceIsPod: true }));
  if (str(spec.serviceAccountName) === '') {
    structs(spec.volumes).forEach((v, vi) => {
      const projected = optStruct(v.projected);
      if (!projected) return;
      structs(projected.sources).forEach((s, si) => {
        if (isObj(s.serviceAccountToken)) {
          errs.push(fieldError.forbidden(child(index(child(index('spec.volumes', vi), 'projected', 'sources'), si), 'serviceAccountToken'), 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  for (const field of ['containers', 'initContainers'] as const) {
    structs(spec[field]).forEach((c, i) => {
      const image = str(c.image);
      if (image.length !== image.trim().length) errs.push(fieldError.invalid(child(index(child('spec', field), i), 'image'), image, 'must not have leading or trailing whitespace'));
    });
  }
  return errs;
}

/** ValidatePodCreate minus ObjectMeta. */
export function validatePodCreate(pod: Pod, opts: PodValidationOptions = {}): FieldError[] {
  const spec = struct(pod.spec);
  const errs = validatePodMetadataAndSpec(pod, opts);
  if (nonEmpty(spec.ephemeralContainers)) errs.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (str(spec.nodeName) !== '' && nonEmpty(spec.schedulingGates)) errs.push(fieldError.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  errs.push(...validateSeccompAnnotationsAndFields(stringMap(struct(pod.metadata).annotations), spec, 'spec'));
  return errs;
}
