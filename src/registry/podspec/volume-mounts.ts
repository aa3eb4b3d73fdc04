// Where a container sees its volumes: volume mounts (as a filesystem) and volume devices (as a
// block device), each naming a validated volume, unique, and not both for the same volume or path.
import type { Container, EphemeralContainer } from '../../api/types.js';
import { bool, child, index, isObj, nonEmpty, optStr, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { struct, structs } from '../../machinery/validation/structs.js';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './paths.js';
import type { Volumes } from './volumes.js';

/** Shared empty collections for the common case of a container without volume devices (never written). */
export const NO_PATHS: ReadonlyMap<string, string> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();

export function validateVolumeMounts(mounts: Container['volumeMounts'], devices: ReadonlyMap<string, string>, volumes: Volumes, container: Container | EphemeralContainer, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountpoints = new Set<string>();
  const devicePaths: ReadonlySet<string> = devices.size === 0 ? NO_NAMES : new Set(devices.values());
  structs(mounts).forEach((mnt, i) => {
    const p = index(path, i);
    const name = str(mnt.name);
    const mountPath = str(mnt.mountPath);
    if (name === '') errs.push(fieldError.required(child(p, 'name')));
    if (!volumes.has(name)) errs.push(fieldError.notFound(child(p, 'name'), name));
    if (mountPath === '') errs.push(fieldError.required(child(p, 'mountPath')));
    if (mountpoints.has(mountPath)) errs.push(fieldError.invalid(child(p, 'mountPath'), mountPath, 'must be unique'));
    mountpoints.add(mountPath);
    if (devices.has(name)) errs.push(fieldError.invalid(child(p, 'name'), name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errs.push(fieldError.invalid(child(p, 'mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    const vol = volumes.get(name);
    const subPath = str(mnt.subPath);
    const subPathExpr = str(mnt.subPathExpr);
    if (vol && isObj(vol.image)) {
      if (subPath !== '') errs.push(fieldError.invalid(child(p, 'subPath'), subPath, 'not allowed in image volume sources'));
      if (subPathExpr !== '') errs.push(fieldError.invalid(child(p, 'subPathExpr'), subPathExpr, 'not allowed in image volume sources'));
    }
    // Kubernetes reports these two on the list's path (fldPath.Child), not the mount's.
    if (subPath !== '') errs.push(...validateLocalDescendingPath(subPath, child(path, 'subPath')));
    if (subPathExpr !== '') {
      if (subPath !== '') errs.push(fieldError.invalid(child(p, 'subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, child(path, 'subPathExpr')));
    }
    const prop = optStr(mnt.mountPropagation);
    if (prop !== undefined) {
      const pp = child(path, 'mountPropagation');
      if (!['Bidirectional', 'HostToContainer', 'None'].includes(prop)) errs.push(fieldError.notSupported(pp, prop, ['Bidirectional', 'HostToContainer', 'None']));
      const privileged = struct(container.securityContext).privileged === true;
      if (prop === 'Bidirectional' && !privileged) errs.push(fieldError.forbidden(pp, 'Bidirectional mount propagation is available only to privileged containers'));
    }
    const rro = optStr(mnt.recursiveReadOnly);
    if (rro !== undefined) {
      const rp = child(path, 'recursiveReadOnly');
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (!bool(mnt.readOnly)) errs.push(fieldError.forbidden(rp, 'may only be specified when readOnly is true'));
        if (prop !== undefined && prop !== 'None') errs.push(fieldError.forbidden(rp, 'may only be specified when mountPropagation is None or not specified'));
      } else if (rro !== 'Disabled') errs.push(fieldError.notSupported(rp, rro, ['Disabled', 'Enabled', 'IfPossible']));
    }
  });
  return errs;
}

export function validateVolumeDevices(devices: Container['volumeDevices'], mounts: ReadonlyMap<string, string>, volumes: Volumes, path: string): FieldError[] {
  // Nearly every container has none: no sets to build.
  if (!nonEmpty(devices)) return [];
  const errs: FieldError[] = [];
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  const mountPaths = new Set(mounts.values());
  structs(devices).forEach((dev, i) => {
    const p = index(path, i);
    const name = str(dev.name);
    const devPath = str(dev.devicePath);
    const vol = volumes.get(name);
    const isPVC = vol !== undefined && (isObj(vol.persistentVolumeClaim) || isObj(vol.ephemeral));
    if (name === '') errs.push(fieldError.required(child(p, 'name')));
    if (deviceNames.has(name)) errs.push(fieldError.invalid(child(p, 'name'), name, 'must be unique'));
    if (vol && !isPVC) errs.push(fieldError.invalid(child(p, 'name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!vol) errs.push(fieldError.notFound(child(p, 'name'), name));
    if (devPath === '') errs.push(fieldError.required(child(p, 'devicePath')));
    if (devicePaths.has(devPath)) errs.push(fieldError.invalid(child(p, 'devicePath'), devPath, 'must be unique'));
    if (devPath !== '' && validatePathNoBacksteps(devPath, '').length > 0) errs.push(fieldError.invalid(child(p, 'devicePath'), devPath, "can not contain backsteps ('..')"));
    else devicePaths.add(devPath);
    if (mounts.has(name)) errs.push(fieldError.invalid(child(p, 'name'), name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devPath)) errs.push(fieldError.invalid(child(p, 'devicePath'), devPath, 'must not already exist as a path in volumeMounts'));
    if (name !== '') deviceNames.add(name);
  });
  return errs;
}
