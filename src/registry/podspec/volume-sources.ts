// The checks of the volume sources a pod's volume and a PersistentVolume share (the same Go types
// in both unions): validateHostPathVolumeSource, validateGCEPersistentDiskVolumeSource, ... Each
// takes the source and the path Kubernetes reports it at.
import { child, nonEmpty, num, optNum, optStr, str, strs } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { byteLength, inclusiveRangeError, isDNS1123Subdomain } from '../../machinery/validation/names.js';
import { validatePathNoBacksteps } from './paths.js';

type Source = Record<string, unknown>;

const supportedHostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** Required-value errors for the string fields of `s` that are empty. */
export function requiredFields(s: Source, p: string, ...fields: string[]): FieldError[] {
  return fields.filter((f) => str(s[f]) === '').map((f) => fieldError.required(child(p, f)));
}

export function validateHostPathVolumeSource(s: Source, p: string): FieldError[] {
  if (str(s.path) === '') return [fieldError.required(child(p, 'path'))];
  const e = validatePathNoBacksteps(str(s.path), child(p, 'path'));
  const t = optStr(s.type);
  if (t !== undefined && !supportedHostPathTypes.includes(t)) e.push(fieldError.notSupported(child(p, 'type'), t, supportedHostPathTypes));
  return e;
}

/** GCE PD and AWS EBS: the disk's id and a partition number. */
export function validatePartitionedDisk(s: Source, p: string, idField: 'pdName' | 'volumeID'): FieldError[] {
  const e = requiredFields(s, p, idField);
  const part = num(s.partition);
  if (part < 0 || part > 255) e.push(fieldError.invalid(child(p, 'partition'), part, inclusiveRangeError(1, 255)));
  return e;
}

export function validateNFSVolumeSource(s: Source, p: string): FieldError[] {
  const e = requiredFields(s, p, 'server', 'path');
  if (!str(s.path).startsWith('/')) e.push(fieldError.invalid(child(p, 'path'), str(s.path), 'must be an absolute path'));
  return e;
}

export function validateFlockerVolumeSource(s: Source, p: string): FieldError[] {
  const e: FieldError[] = [];
  if (str(s.datasetName) === '' && str(s.datasetUUID) === '') e.push(fieldError.required(p, 'one of datasetName and datasetUUID is required'));
  if (str(s.datasetName) !== '' && str(s.datasetUUID) !== '') e.push(fieldError.invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (str(s.datasetName).includes('/')) e.push(fieldError.invalid(child(p, 'datasetName'), str(s.datasetName), "must not contain '/'"));
  return e;
}

export function validateQuobyteVolumeSource(s: Source, p: string): FieldError[] {
  const e: FieldError[] = [];
  if (str(s.registry) === '') e.push(fieldError.required(child(p, 'registry'), 'must be a host:port pair or multiple pairs separated by commas'));
  else if (str(s.tenant).length >= 65) e.push(fieldError.required(child(p, 'tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  else for (const pair of str(s.registry).split(',')) if (!/^.*:[^:]*$/.test(pair)) e.push(fieldError.invalid(child(p, 'registry'), str(s.registry), 'must be a host:port pair or multiple pairs separated by commas'));
  if (str(s.volume) === '') e.push(fieldError.required(child(p, 'volume')));
  return e;
}

export function validateFCVolumeSource(s: Source, p: string): FieldError[] {
  const e: FieldError[] = [];
  const wwns = strs(s.targetWWNs);
  const wwids = strs(s.wwids);
  if (wwns.length < 1 && wwids.length < 1) e.push(fieldError.required(child(p, 'targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) e.push(fieldError.invalid(child(p, 'targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    const lun = optNum(s.lun);
    if (lun === undefined) e.push(fieldError.required(child(p, 'lun'), 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) e.push(fieldError.invalid(child(p, 'lun'), lun, inclusiveRangeError(0, 255)));
  }
  return e;
}

export function validateAzureDiskVolumeSource(s: Source, p: string): FieldError[] {
  const e = requiredFields(s, p, 'diskName', 'diskURI');
  const caching = optStr(s.cachingMode);
  if (caching !== undefined && !['None', 'ReadOnly', 'ReadWrite'].includes(caching)) e.push(fieldError.notSupported(child(p, 'cachingMode'), caching, ['None', 'ReadOnly', 'ReadWrite']));
  const kind = optStr(s.kind);
  if (kind !== undefined && !['Dedicated', 'Managed', 'Shared'].includes(kind)) e.push(fieldError.notSupported(child(p, 'kind'), kind, ['Dedicated', 'Managed', 'Shared']));
  if (kind === 'Managed' && !str(s.diskURI).startsWith('/subscriptions/')) {
    e.push(fieldError.notSupported(child(p, 'diskURI'), str(s.diskURI), ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  }
  if (kind !== undefined && kind !== 'Managed' && !str(s.diskURI).startsWith('https://')) {
    e.push(fieldError.notSupported(child(p, 'diskURI'), str(s.diskURI), ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return e;
}

/** Sources with monitors and an image (RBD) or only monitors (CephFS). */
export function validateMonitors(s: Source, p: string): FieldError[] {
  return nonEmpty(s.monitors) ? [] : [fieldError.required(child(p, 'monitors'))];
}

/** ValidateCSIDriverName: a lower-cased DNS subdomain of at most 63 characters (CSI sources, CSINode drivers, attachers). */
export function validateCSIDriverName(name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(fieldError.required(path));
  if (byteLength(name) > 63) errs.push(fieldError.tooLong(path, 63));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(fieldError.invalid(path, name, msg));
  return errs;
}
