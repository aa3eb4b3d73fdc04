// Containers: what every kind of container is checked for (validateContainerCommon: name, image,
// ports, environment, mounts, resources, security context), and the rules of each kind: regular
// containers, init containers (sidecars with restartPolicy Always) and ephemeral containers.
import type { Container, EphemeralContainer } from '../../api/types.js';
import { child, index, isObj, nonEmpty, num, optStr, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { isValidPortName, isValidPortNum } from '../../machinery/validation/names.js';
import { structs } from '../../machinery/validation/structs.js';
import { validateEnv, validateEnvFrom } from './env.js';
import { dns1123Label } from './name-errors.js';
import { validateProbes } from './probes.js';
import { validatePullPolicy } from './pull-policy.js';
import { validateContainerResourceName } from './resource-names.js';
import { validateResourceRequirements } from './resource-requirements.js';
import { validateSecurityContext } from './security.js';
import { NO_PATHS, validateVolumeDevices, validateVolumeMounts } from './volume-mounts.js';
import type { Volumes } from './volumes.js';

const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];

function validateContainerPorts(ports: Container['ports'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  structs(ports).forEach((port, i) => {
    const p = index(path, i);
    const name = str(port.name);
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(fieldError.invalid(child(p, 'name'), name, msg));
      else if (names.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
      else names.add(name);
    }
    const cp = num(port.containerPort);
    if (cp === 0) errs.push(fieldError.required(child(p, 'containerPort')));
    else for (const msg of isValidPortNum(cp)) errs.push(fieldError.invalid(child(p, 'containerPort'), cp, msg));
    const hp = num(port.hostPort);
    if (hp !== 0) for (const msg of isValidPortNum(hp)) errs.push(fieldError.invalid(child(p, 'hostPort'), hp, msg));
    const proto = str(port.protocol);
    if (proto === '') errs.push(fieldError.required(child(p, 'protocol')));
    else if (!supportedPortProtocols.includes(proto)) errs.push(fieldError.notSupported(child(p, 'protocol'), proto, supportedPortProtocols));
  });
  return errs;
}

function validateResizePolicy(policies: Container['resizePolicy'], path: string, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  structs(policies).forEach((p, i) => {
    const rn = str(p.resourceName);
    const rp = str(p.restartPolicy);
    if (seen.has(rn)) errs.push(fieldError.duplicate(index(path, i), rn));
    seen.add(rn);
    if (rn === '') errs.push(fieldError.required(path));
    else if (rn !== 'cpu' && rn !== 'memory') errs.push(fieldError.notSupported(path, rn, ['cpu', 'memory']));
    if (rp === '') errs.push(fieldError.required(path));
    else if (rp !== 'NotRequired' && rp !== 'RestartContainer') errs.push(fieldError.notSupported(path, rp, ['NotRequired', 'RestartContainer']));
    if (podRestartPolicy === 'Never' && rp !== 'NotRequired') errs.push(fieldError.invalid(path, rp, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errs;
}

function validateContainerCommon(c: Container | EphemeralContainer, volumes: Volumes, claims: Set<string>, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (name === '') errs.push(fieldError.required(child(path, 'name')));
  else errs.push(...dns1123Label(name, child(path, 'name')));
  if (str(c.image) === '') errs.push(fieldError.required(child(path, 'image')));
  const tmp = str(c.terminationMessagePolicy);
  if (tmp === '') errs.push(fieldError.required(child(path, 'terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(fieldError.notSupported(child(path, 'terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  // Mounts and devices are checked against each other only when there are devices (rare).
  const hasDevices = nonEmpty(c.volumeDevices);
  const mounts: ReadonlyMap<string, string> = hasDevices ? new Map(structs(c.volumeMounts).map((m) => [str(m.name), str(m.mountPath)] as const)) : NO_PATHS;
  const devices: ReadonlyMap<string, string> = hasDevices ? new Map(structs(c.volumeDevices).map((d) => [str(d.name), str(d.devicePath)] as const)) : NO_PATHS;
  errs.push(...validateContainerPorts(c.ports, child(path, 'ports')));
  errs.push(...validateEnv(c.env, child(path, 'env')));
  errs.push(...validateEnvFrom(c.envFrom, child(path, 'envFrom')));
  errs.push(...validateVolumeMounts(c.volumeMounts, devices, volumes, c, child(path, 'volumeMounts')));
  errs.push(...validateVolumeDevices(c.volumeDevices, mounts, volumes, child(path, 'volumeDevices')));
  errs.push(...validatePullPolicy(str(c.imagePullPolicy), child(path, 'imagePullPolicy')));
  errs.push(...validateResourceRequirements(c.resources, validateContainerResourceName, claims, child(path, 'resources')));
  errs.push(...validateResizePolicy(c.resizePolicy, child(path, 'resizePolicy'), podRestartPolicy));
  errs.push(...validateSecurityContext(c.securityContext, child(path, 'securityContext'), hostUsers));
  return errs;
}

/** checkHostPortConflicts: protocol/hostIP/hostPort unique across the given containers. */
function checkHostPortConflicts(containers: readonly Container[], path: string, offset = 0): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    structs(c.ports).forEach((port, pi) => {
      const hp = num(port.hostPort);
      if (hp === 0) return;
      const s = `${str(port.protocol)}/${str(port.hostIP)}/${hp}`;
      const p = child(index(child(index(path, ci + offset), 'ports'), pi), 'hostPort');
      if (seen.has(s)) errs.push(fieldError.duplicate(p, s));
      else seen.add(s);
    });
  });
  return errs;
}

export function validateContainers(containers: readonly Container[], volumes: Volumes, claims: Set<string>, gracePeriod: number | undefined, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
  if (containers.length === 0) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, volumes, claims, p, podRestartPolicy, hostUsers));
    const name = str(c.name);
    if (names.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
    else names.add(name);
    errs.push(...validateProbes(c, gracePeriod, p));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(fieldError.forbidden(child(p, 'restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

export function validateInitContainers(inits: readonly Container[], regular: readonly Container[], volumes: Volumes, claims: Set<string>, gracePeriod: number | undefined, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => str(c.name)));
  inits.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, volumes, claims, p, podRestartPolicy, hostUsers));
    let restartAlways = false;
    const rp = optStr(c.restartPolicy);
    if (rp !== undefined) {
      if (rp !== 'Always') errs.push(fieldError.notSupported(child(p, 'restartPolicy'), rp, ['Always']));
      restartAlways = rp === 'Always';
    }
    const name = str(c.name);
    if (names.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
    else if (name !== '') names.add(name);
    errs.push(...checkHostPortConflicts([c], path, i));
    if (restartAlways) errs.push(...validateProbes(c, gracePeriod, p));
    else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (isObj(c[f])) errs.push(fieldError.forbidden(child(p, f), 'may not be set for init containers without restartPolicy=Always'));
      }
      if (nonEmpty(c.resizePolicy)) errs.push(fieldError.invalid(child(p, 'resizePolicy'), '', 'must not be set for init containers'));
    }
  });
  return errs;
}

const allowedEphemeralContainerFields = new Set([
  'name', 'image', 'command', 'args', 'workingDir', 'envFrom', 'env', 'volumeMounts', 'volumeDevices', 'terminationMessagePath',
  'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty', 'targetContainerName',
]);

/** validateEphemeralContainers: common checks, unique names across all containers, target must exist, allowed fields only. */
export function validateEphemeralContainers(ephemeral: readonly EphemeralContainer[], containers: readonly Container[], inits: readonly Container[], volumes: Volumes, claims: Set<string>, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (ephemeral.length === 0) return errs;
  const other = new Set([...containers, ...inits].map((c) => str(c.name)));
  const all = new Set(other);
  ephemeral.forEach((ec, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(ec, volumes, claims, p, podRestartPolicy, hostUsers));
    const image = str(ec.image);
    if (image.length !== image.trim().length) errs.push(fieldError.invalid(child(p, 'image'), image, 'must not have leading or trailing whitespace'));
    const name = str(ec.name);
    if (all.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
    else all.add(name);
    const target = str(ec.targetContainerName);
    if (target !== '' && !other.has(target)) errs.push(fieldError.notFound(child(p, 'targetContainerName'), target));
    for (const [k, v] of Object.entries<unknown>(ec)) {
      if (allowedEphemeralContainerFields.has(k) || v === undefined || v === null) continue;
      if (Array.isArray(v) ? v.length === 0 : isObj(v) ? Object.keys(v).length === 0 && k === 'resources' : v === '' || v === 0 || v === false) continue;
      errs.push(fieldError.forbidden(child(p, k), 'cannot be set for an Ephemeral Container'));
    }
    structs(ec.volumeMounts).forEach((vm, j) => {
      if (str(vm.subPath) !== '') errs.push(fieldError.forbidden(child(index(child(p, 'volumeMounts'), j), 'subPath'), 'cannot be set for an Ephemeral Container'));
      if (str(vm.subPathExpr) !== '') errs.push(fieldError.forbidden(child(index(child(p, 'volumeMounts'), j), 'subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}
