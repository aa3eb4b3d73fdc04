// The files configMap, secret, downwardAPI and projected volumes write into a container: their
// items' keys and paths, their file modes, and the sources of a projected volume.
import type { DownwardAPIVolumeFile, KeyToPath, ProjectedVolumeSource } from '../../api/types.js';
import { child, index, num, optNum, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { optStruct, structs } from '../../machinery/validation/structs.js';
import { validateContainerResourceFieldSelector, validateObjectFieldSelector, validVolumeDownwardAPIFieldPaths } from './downward-api.js';
import { validateLocalNonReservedPath } from './paths.js';

const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
export function validateMode(mode: unknown, path: string): FieldError[] {
  const m = optNum(mode);
  return m !== undefined && (m > 0o777 || m < 0) ? [fieldError.invalid(path, m, fileModeErrorMsg)] : [];
}

export function validateKeyToPath(kp: KeyToPath, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(kp.key) === '') errs.push(fieldError.required(child(path, 'key')));
  if (str(kp.path) === '') errs.push(fieldError.required(child(path, 'path')));
  errs.push(...validateLocalNonReservedPath(str(kp.path), child(path, 'path')));
  errs.push(...validateMode(kp.mode, child(path, 'mode')));
  return errs;
}

export function validateDownwardAPIVolumeFile(file: DownwardAPIVolumeFile, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(file.path) === '') errs.push(fieldError.required(child(path, 'path')));
  errs.push(...validateLocalNonReservedPath(str(file.path), child(path, 'path')));
  const fieldRef = optStruct(file.fieldRef);
  const resourceFieldRef = optStruct(file.resourceFieldRef);
  if (fieldRef) {
    errs.push(...validateObjectFieldSelector(fieldRef, validVolumeDownwardAPIFieldPaths, child(path, 'fieldRef')));
    if (resourceFieldRef) errs.push(fieldError.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (resourceFieldRef) {
    errs.push(...validateContainerResourceFieldSelector(resourceFieldRef, child(path, 'resourceFieldRef'), true));
  } else {
    errs.push(fieldError.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateMode(file.mode, child(path, 'mode')));
  return errs;
}

export function validateProjectedSources(projected: ProjectedVolumeSource, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const allPaths = new Set<string>();
  const addPath = (p: string, badValue: string) => {
    if (p === '') return;
    if (allPaths.has(p)) errs.push(fieldError.invalid(path, badValue, 'conflicting duplicate paths'));
    else allPaths.add(p);
  };
  structs(projected.sources).forEach((source, i) => {
    let numSources = 0;
    const srcPath = index(child(path, 'sources'), i);
    for (const kind of ['secret', 'configMap'] as const) {
      const s = optStruct(source[kind]);
      if (!s) continue;
      numSources++;
      const projPath = child(srcPath, kind);
      if (str(s.name) === '') errs.push(fieldError.required(child(projPath, 'name')));
      structs(s.items).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, index(child(projPath, 'items'), j)));
        addPath(str(kp.path), str(s.name));
      });
    }
    const dapi = optStruct(source.downwardAPI);
    if (dapi) {
      numSources++;
      for (const file of structs(dapi.items)) {
        errs.push(...validateDownwardAPIVolumeFile(file, child(srcPath, 'downwardAPI')));
        addPath(str(file.path), str(file.path));
      }
    }
    const sat = optStruct(source.serviceAccountToken);
    if (sat) {
      numSources++;
      const p = child(srcPath, 'serviceAccountToken');
      const exp = num(sat.expirationSeconds);
      if (exp < 600) errs.push(fieldError.invalid(child(p, 'expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
      if (exp > 2 ** 32) errs.push(fieldError.invalid(child(p, 'expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
      if (str(sat.path) === '') errs.push(fieldError.required(child(path, 'path')));
      else errs.push(...validateLocalNonReservedPath(str(sat.path), child(path, 'path')));
    }
    const ctb = optStruct(source.clusterTrustBundle);
    if (ctb) {
      numSources++;
      const p = child(srcPath, 'clusterTrustBundle');
      const usingName = typeof ctb.name === 'string';
      const usingSigner = typeof ctb.signerName === 'string';
      if (usingName && usingSigner) errs.push(fieldError.invalidOmit(p, 'only one of name and signerName may be used'));
      else if (usingName && str(ctb.name) === '') errs.push(fieldError.required(child(p, 'name'), 'must be a valid object name'));
      else if (usingSigner && str(ctb.signerName) === '') errs.push(fieldError.required(child(p, 'signerName'), 'must be a valid signer name'));
      else if (!usingName && !usingSigner) errs.push(fieldError.required(p, 'either name or signerName must be specified'));
      if (str(ctb.path) === '') errs.push(fieldError.required(child(p, 'path')));
      errs.push(...validateLocalNonReservedPath(str(ctb.path), child(p, 'path')));
      addPath(str(ctb.path), str(ctb.path));
    }
    if (numSources > 1) errs.push(fieldError.forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}
