// Which fields a pod's OS (spec.os.name) forbids: Windows options on Linux, Linux-only security
// settings and host namespaces on Windows.
import type { Container, EphemeralContainer, PodSpec } from '../../api/types.js';
import { bool, child, index, isObj, nonEmpty, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { optStruct, struct, structs } from '../../machinery/validation/structs.js';

export function validateOS(spec: PodSpec, path: string): FieldError[] {
  const os = optStruct(spec.os);
  if (!os) return [];
  const name = str(os.name);
  if (name === '') return [fieldError.required(child(path, 'name'), 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [fieldError.notSupported(path, name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const root = path.slice(0, -'.os'.length);
  const forEachContainer = (fn: (c: Container | EphemeralContainer, p: string) => void) => {
    structs(spec.initContainers).forEach((c, i) => fn(c, index(child(root, 'initContainers'), i)));
    structs(spec.containers).forEach((c, i) => fn(c, index(child(root, 'containers'), i)));
    structs(spec.ephemeralContainers).forEach((c, i) => fn(c, index(child(root, 'ephemeralContainers'), i)));
  };
  const psc = struct(spec.securityContext);
  if (name === 'linux') {
    if (isObj(psc.windowsOptions)) errs.push(fieldError.forbidden(child(root, 'securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    forEachContainer((c, p) => {
      if (isObj(struct(c.securityContext).windowsOptions)) errs.push(fieldError.forbidden(child(p, 'securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    });
    return errs;
  }
  const windowsForbidden = (present: boolean, p: string) => present && errs.push(fieldError.forbidden(p, 'cannot be set for a windows pod'));
  const set = (v: unknown) => v !== undefined && v !== null;
  const scp = child(root, 'securityContext');
  windowsForbidden(set(psc.appArmorProfile), child(scp, 'appArmorProfile'));
  windowsForbidden(set(psc.seLinuxOptions), child(scp, 'seLinuxOptions'));
  windowsForbidden(set(spec.hostUsers), child(root, 'hostUsers'));
  windowsForbidden(bool(spec.hostPID), child(root, 'hostPID'));
  windowsForbidden(bool(spec.hostIPC), child(root, 'hostIPC'));
  windowsForbidden(set(psc.seccompProfile), child(scp, 'seccompProfile'));
  windowsForbidden(set(psc.fsGroup), child(scp, 'fsGroup'));
  windowsForbidden(set(psc.fsGroupChangePolicy), child(scp, 'fsGroupChangePolicy'));
  windowsForbidden(nonEmpty(psc.sysctls), child(scp, 'sysctls'));
  windowsForbidden(set(spec.shareProcessNamespace), child(root, 'shareProcessNamespace'));
  windowsForbidden(set(psc.runAsUser), child(scp, 'runAsUser'));
  windowsForbidden(set(psc.runAsGroup), child(scp, 'runAsGroup'));
  windowsForbidden(set(psc.supplementalGroups), child(scp, 'supplementalGroups'));
  windowsForbidden(set(psc.supplementalGroupsPolicy), child(scp, 'supplementalGroupsPolicy'));
  windowsForbidden(set(psc.seLinuxChangePolicy), child(scp, 'seLinuxChangePolicy'));
  forEachContainer((c, p) => {
    const sc = optStruct(c.securityContext);
    if (!sc) return;
    const sp = child(p, 'securityContext');
    for (const f of ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'] as const) {
      windowsForbidden(set(sc[f]), child(sp, f));
    }
  });
  return errs;
}
