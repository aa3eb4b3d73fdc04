// Security contexts, of a container (ValidateSecurityContext) and of the pod
// (validatePodSecurityContext: ids, sysctls, policies), and the seccomp, AppArmor and Windows
// options both carry.
import type { AppArmorProfile, PodSpec, SeccompProfile, SecurityContext, WindowsSecurityContextOptions } from '../../api/types.js';
import { bool, child, index, list, num, optNum, optStr, str, strs } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { goString, goStruct, rawError } from '../../machinery/validation/go-syntax.js';
import { byteLength, isDNS1123Subdomain, isValidGroupID, isValidUserID } from '../../machinery/validation/names.js';
import { optStruct, struct, structs } from '../../machinery/validation/structs.js';
import { validateLocalDescendingPath } from './paths.js';

function validateSeccompProfileField(seccompProfile: SeccompProfile | null | undefined, path: string): FieldError[] {
  const sp = optStruct(seccompProfile);
  if (!sp) return [];
  const errs: FieldError[] = [];
  const type = str(sp.type);
  const tp = child(path, 'type');
  if (type === '') errs.push(fieldError.required(tp, 'type is required when seccompProfile is set'));
  else if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(type)) errs.push(fieldError.notSupported(tp, type, ['Localhost', 'RuntimeDefault', 'Unconfined']));
  const lp = optStr(sp.localhostProfile);
  if (type === 'Localhost') {
    if (lp === undefined) errs.push(fieldError.required(child(path, 'localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(lp, child(path, 'localhostProfile')));
  } else if (lp !== undefined) {
    errs.push(rawError('FieldValueInvalid', child(path, 'localhostProfile'), goStruct('core.SeccompProfile', [['Type', goString(type)], ['LocalhostProfile', '(*string)(0xc000000000)']]), 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function validateAppArmorProfileField(appArmorProfile: AppArmorProfile | null | undefined, path: string): FieldError[] {
  const profile = optStruct(appArmorProfile);
  if (!profile) return [];
  const type = str(profile.type);
  const lp = optStr(profile.localhostProfile);
  const lpPath = child(path, 'localhostProfile');
  switch (type) {
    case 'Localhost': {
      if (lp === undefined) return [fieldError.required(lpPath, 'must be set when AppArmor type is Localhost')];
      const errs: FieldError[] = [];
      if (lp.trim() !== lp) errs.push(fieldError.invalid(lpPath, lp, 'must not be padded with whitespace'));
      else if (lp === '') errs.push(fieldError.required(lpPath, 'must be set when AppArmor type is Localhost'));
      if (byteLength(lp) > 4095) errs.push(fieldError.tooLong(lpPath, 4095));
      return errs;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      return lp !== undefined ? [fieldError.invalid(lpPath, lp, 'can only be set when AppArmor type is Localhost')] : [];
    case '':
      return [fieldError.required(child(path, 'type'), 'type is required when appArmorProfile is set')];
    default:
      return [fieldError.notSupported(child(path, 'type'), type, ['Localhost', 'RuntimeDefault', 'Unconfined'])];
  }
}

function validateWindowsSecurityContextOptions(windowsOptions: WindowsSecurityContextOptions | null | undefined, path: string): FieldError[] {
  const wo = optStruct(windowsOptions);
  if (!wo) return [];
  const errs: FieldError[] = [];
  const name = optStr(wo.gmsaCredentialSpecName);
  if (name !== undefined) for (const msg of isDNS1123Subdomain(name)) errs.push(fieldError.invalid(child(path, 'gmsaCredentialSpecName'), name, msg));
  const spec = optStr(wo.gmsaCredentialSpec);
  if (spec !== undefined) {
    if (spec === '') errs.push(fieldError.invalid(child(path, 'gmsaCredentialSpec'), spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (byteLength(spec) > 64 * 1024) errs.push(fieldError.invalid(child(path, 'gmsaCredentialSpec'), spec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  const user = optStr(wo.runAsUserName);
  if (user !== undefined && user === '') errs.push(fieldError.invalid(child(path, 'runAsUserName'), user, 'runAsUserName cannot be an empty string'));
  return errs;
}

/** ValidateSecurityContext (container). */
export function validateSecurityContext(securityContext: SecurityContext | null | undefined, path: string, hostUsers: boolean): FieldError[] {
  const sc = optStruct(securityContext);
  if (!sc) return [];
  const errs: FieldError[] = [];
  const runAsUser = optNum(sc.runAsUser);
  if (runAsUser !== undefined) for (const msg of isValidUserID(runAsUser)) errs.push(fieldError.invalid(child(path, 'runAsUser'), runAsUser, msg));
  const runAsGroup = optNum(sc.runAsGroup);
  if (runAsGroup !== undefined) for (const msg of isValidGroupID(runAsGroup)) errs.push(fieldError.invalid(child(path, 'runAsGroup'), runAsGroup, msg));
  const procMount = optStr(sc.procMount);
  if (procMount !== undefined) {
    if (procMount !== 'Default' && procMount !== 'Unmasked') errs.push(fieldError.notSupported(child(path, 'procMount'), procMount, ['Default', 'Unmasked']));
    if (hostUsers && procMount === 'Unmasked') errs.push(fieldError.invalid(child(path, 'procMount'), procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, child(path, 'seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    const text = 'core.SecurityContext{...}';
    if (sc.privileged === true) errs.push(rawError('FieldValueInvalid', path, text, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of strs(struct(sc.capabilities).add)) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(rawError('FieldValueInvalid', path, text, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateWindowsSecurityContextOptions(sc.windowsOptions, child(path, 'windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, child(path, 'appArmorProfile')));
  return errs;
}

const sysctlSegment = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const sysctlRe = new RegExp(`^(${sysctlSegment}[\\./])*${sysctlSegment}$`);

/** utilsysctl.GetNamespace: the kernel namespace a sysctl belongs to ('net', 'ipc' or ''). */
function sysctlNamespace(name: string): string {
  const n = name.replace(/\//g, '.');
  if (n.startsWith('net.')) return 'net';
  if (['kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni'].includes(n) || n.startsWith('fs.mqueue.')) return 'ipc';
  return '';
}

export function validatePodSecurityContext(spec: PodSpec, path: string): FieldError[] {
  const sc = optStruct(spec.securityContext);
  if (!sc) return [];
  const errs: FieldError[] = [];
  const fsGroup = optNum(sc.fsGroup);
  if (fsGroup !== undefined) for (const msg of isValidGroupID(fsGroup)) errs.push(fieldError.invalid(child(path, 'fsGroup'), fsGroup, msg));
  const runAsUser = optNum(sc.runAsUser);
  if (runAsUser !== undefined) for (const msg of isValidUserID(runAsUser)) errs.push(fieldError.invalid(child(path, 'runAsUser'), runAsUser, msg));
  const runAsGroup = optNum(sc.runAsGroup);
  if (runAsGroup !== undefined) for (const msg of isValidGroupID(runAsGroup)) errs.push(fieldError.invalid(child(path, 'runAsGroup'), runAsGroup, msg));
  list(sc.supplementalGroups).forEach((g, i) => {
    for (const msg of isValidGroupID(num(g))) errs.push(fieldError.invalid(index(child(path, 'supplementalGroups'), i), num(g), msg));
  });
  if (spec.shareProcessNamespace === true && bool(spec.hostPID)) errs.push(fieldError.invalid(child(path, 'shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  const names = new Set<string>();
  structs(sc.sysctls).forEach((s, i) => {
    const p = child(index(child(path, 'sysctls'), i), 'name');
    const name = str(s.name);
    if (name === '') errs.push(fieldError.required(p));
    else if (byteLength(name) > 253 || !sysctlRe.test(name)) errs.push(fieldError.invalid(p, name, `must have at most 253 characters and match regex ^(${sysctlSegment}[\\./])*${sysctlSegment}$`));
    else if (names.has(name)) errs.push(fieldError.duplicate(p, name));
    const ns = sysctlNamespace(name);
    if (bool(spec.hostNetwork) && ns === 'net') errs.push(fieldError.invalid(p, name, "may not be specified when 'hostNetwork' is true"));
    else if (bool(spec.hostIPC) && ns === 'ipc') errs.push(fieldError.invalid(p, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  const fsPolicy = optStr(sc.fsGroupChangePolicy);
  if (fsPolicy !== undefined && fsPolicy !== 'OnRootMismatch' && fsPolicy !== 'Always') errs.push(fieldError.notSupported(child(path, 'fsGroupChangePolicy'), fsPolicy, ['Always', 'OnRootMismatch']));
  errs.push(...validateSeccompProfileField(sc.seccompProfile, child(path, 'seccompProfile')));
  errs.push(...validateWindowsSecurityContextOptions(sc.windowsOptions, child(path, 'windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, child(path, 'appArmorProfile')));
  const sgp = optStr(sc.supplementalGroupsPolicy);
  if (sgp !== undefined && sgp !== 'Merge' && sgp !== 'Strict') errs.push(fieldError.notSupported(child(path, 'supplementalGroupsPolicy'), sgp, ['Merge', 'Strict']));
  const selinux = optStr(sc.seLinuxChangePolicy);
  if (selinux !== undefined && selinux !== 'MountOption' && selinux !== 'Recursive') errs.push(fieldError.notSupported(child(path, 'seLinuxChangePolicy'), selinux, ['MountOption', 'Recursive']));
  return errs;
}
