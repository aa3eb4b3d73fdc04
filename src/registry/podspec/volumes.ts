// Volumes: each volume's name and its one source (ValidateVolumes, validateVolumeSource), with
// the checks of every in-tree source kind. The files some sources project are in
// volume-projections.ts, generic ephemeral volumes in ephemeral-volumes.ts.
import { parseQuantity } from '../../api/meta/quantity.js';
import type { Volume } from '../../api/types.js';
import { bool, child, index, isObj, key, nonEmpty, num, obj, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { inclusiveRangeError, nameIsDNSSubdomain } from '../../machinery/validation/names.js';
import { optStruct, structs } from '../../machinery/validation/structs.js';
import { validateEphemeralVolumeSource } from './ephemeral-volumes.js';
import { dns1123Label } from './name-errors.js';
import type { PodValidationOptions } from './options.js';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './paths.js';
import { validatePullPolicy } from './pull-policy.js';
import {
  validateAzureDiskVolumeSource,
  validateCSIDriverName,
  validateFCVolumeSource,
  validateFlockerVolumeSource,
  validateHostPathVolumeSource,
  validateMonitors,
  validateNFSVolumeSource,
  validatePartitionedDisk,
  validateQuobyteVolumeSource,
} from './volume-sources.js';
import { validateDownwardAPIVolumeFile, validateKeyToPath, validateMode, validateProjectedSources } from './volume-projections.js';

/** The volumes that validated, by name: what volume mounts and devices may refer to. */
export type Volumes = Map<string, Volume>;

function validateVolumeSource(source: Volume, path: string, volName: string, podName: string | undefined, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  let numVolumes = 0;
  const one = <K extends keyof Volume>(jsonKey: K, reportKey: string, validate: (s: NonNullable<Volume[K]>) => FieldError[]) => {
    const s = source[jsonKey];
    if (!isObj(s)) return;
    if (numVolumes > 0) errs.push(fieldError.forbidden(child(path, reportKey), 'may not specify more than 1 volume type'));
    else {
      numVolumes++;
      errs.push(...validate(s));
    }
  };
  const required = <S extends object>(s: S, p: string, ...fields: (keyof S & string)[]) => fields.filter((f) => str(s[f]) === '').map((f) => fieldError.required(child(p, f)));
  const emptyDir = optStruct(source.emptyDir);
  if (emptyDir) {
    numVolumes++;
    const limit = emptyDir.sizeLimit;
    if (limit !== undefined && limit !== null) {
      const q = parseQuantity(String(limit));
      if (q && q.sign() < 0) errs.push(fieldError.forbidden(child(path, 'emptyDir', 'sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
    }
  }
  if (isObj(source.hostPath)) one('hostPath', 'hostPath', (s) => validateHostPathVolumeSource(s, child(path, 'hostPath')));
  if (isObj(source.gitRepo)) one('gitRepo', 'gitRepo', (s) => {
    const p = child(path, 'gitRepo');
    return [...required(s, p, 'repository'), ...validateLocalDescendingPath(str(s.directory), child(p, 'directory'))];
  });
  if (isObj(source.gcePersistentDisk)) one('gcePersistentDisk', 'gcePersistentDisk', (s) => validatePartitionedDisk(s, child(path, 'persistentDisk'), 'pdName'));
  if (isObj(source.awsElasticBlockStore)) one('awsElasticBlockStore', 'awsElasticBlockStore', (s) => validatePartitionedDisk(s, child(path, 'awsElasticBlockStore'), 'volumeID'));
  if (isObj(source.secret)) one('secret', 'secret', (s) => {
    const p = child(path, 'secret');
    const e = required(s, p, 'secretName');
    e.push(...validateMode(s.defaultMode, child(p, 'defaultMode')));
    structs(s.items).forEach((kp, i) => e.push(...validateKeyToPath(kp, index(child(p, 'items'), i))));
    return e;
  });
  if (isObj(source.nfs)) one('nfs', 'nfs', (s) => validateNFSVolumeSource(s, child(path, 'nfs')));
  if (isObj(source.iscsi)) one('iscsi', 'iscsi', (s) => {
    const p = child(path, 'iscsi');
    const e = required(s, p, 'targetPortal', 'iqn');
    const lun = num(s.lun);
    if (lun < 0 || lun > 255) e.push(fieldError.invalid(child(p, 'lun'), lun, inclusiveRangeError(0, 255)));
    if ((bool(s.chapAuthDiscovery) || bool(s.chapAuthSession)) && !isObj(s.secretRef)) e.push(fieldError.required(child(p, 'secretRef')));
    return e;
  });
  if (isObj(source.glusterfs)) one('glusterfs', 'glusterfs', (s) => required(s, child(path, 'glusterfs'), 'endpoints', 'path'));
  if (isObj(source.flocker)) one('flocker', 'flocker', (s) => validateFlockerVolumeSource(s, child(path, 'flocker')));
  if (isObj(source.persistentVolumeClaim)) one('persistentVolumeClaim', 'persistentVolumeClaim', (s) => required(s, child(path, 'persistentVolumeClaim'), 'claimName'));
  if (isObj(source.rbd)) one('rbd', 'rbd', (s) => {
    const p = child(path, 'rbd');
    const e: FieldError[] = [];
    if (!nonEmpty(s.monitors)) e.push(fieldError.required(child(p, 'monitors')));
    if (str(s.image) === '') e.push(fieldError.required(child(p, 'image')));
    return e;
  });
  if (isObj(source.cinder)) one('cinder', 'cinder', (s) => {
    const p = child(path, 'cinder');
    const e = required(s, p, 'volumeID');
    if (isObj(s.secretRef) && str(s.secretRef.name) === '') e.push(fieldError.required(child(p, 'secretRef', 'name')));
    return e;
  });
  if (isObj(source.cephfs)) one('cephfs', 'cephFS', (s) => validateMonitors(s, child(path, 'cephfs')));
  if (isObj(source.quobyte)) one('quobyte', 'quobyte', (s) => validateQuobyteVolumeSource(s, child(path, 'quobyte')));
  if (isObj(source.downwardAPI)) one('downwardAPI', 'downwarAPI', (s) => {
    const p = child(path, 'downwardAPI');
    const e = validateMode(s.defaultMode, child(p, 'defaultMode'));
    for (const file of structs(s.items)) e.push(...validateDownwardAPIVolumeFile(file, p));
    return e;
  });
  if (isObj(source.fc)) one('fc', 'fc', (s) => validateFCVolumeSource(s, child(path, 'fc')));
  if (isObj(source.flexVolume)) one('flexVolume', 'flexVolume', (s) => {
    const p = child(path, 'flexVolume');
    const e = required(s, p, 'driver');
    for (const k of Object.keys(obj(s.options)).sort()) {
      const ns = k.includes('/') ? k.slice(0, k.indexOf('/')) : k;
      const normalized = `.${ns.toLowerCase()}`;
      if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) e.push(fieldError.invalid(key(child(p, 'options'), k), k, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
    return e;
  });
  if (isObj(source.configMap)) one('configMap', 'configMap', (s) => {
    const p = child(path, 'configMap');
    const e = required(s, p, 'name');
    e.push(...validateMode(s.defaultMode, child(p, 'defaultMode')));
    structs(s.items).forEach((kp, i) => e.push(...validateKeyToPath(kp, index(child(p, 'items'), i))));
    return e;
  });
  if (isObj(source.azureFile)) one('azureFile', 'azureFile', (s) => required(s, child(path, 'azureFile'), 'secretName', 'shareName'));
  if (isObj(source.vsphereVolume)) one('vsphereVolume', 'vsphereVolume', (s) => required(s, child(path, 'vsphereVolume'), 'volumePath'));
  if (isObj(source.photonPersistentDisk)) one('photonPersistentDisk', 'photonPersistentDisk', (s) => required(s, child(path, 'photonPersistentDisk'), 'pdID'));
  if (isObj(source.portworxVolume)) one('portworxVolume', 'portworxVolume', (s) => required(s, child(path, 'portworxVolume'), 'volumeID'));
  if (isObj(source.azureDisk)) one('azureDisk', 'azureDisk', (s) => validateAzureDiskVolumeSource(s, child(path, 'azureDisk')));
  if (isObj(source.storageos)) one('storageos', 'storageos', (s) => {
    const p = child(path, 'storageos');
    const e: FieldError[] = [];
    if (str(s.volumeName) === '') e.push(fieldError.required(child(p, 'volumeName')));
    else e.push(...dns1123Label(str(s.volumeName), child(p, 'volumeName')));
    if (str(s.volumeNamespace) !== '') e.push(...dns1123Label(str(s.volumeNamespace), child(p, 'volumeNamespace')));
    if (isObj(s.secretRef) && str(s.secretRef.name) === '') e.push(fieldError.required(child(p, 'secretRef', 'name')));
    return e;
  });
  if (isObj(source.projected)) one('projected', 'projected', (s) => {
    const p = child(path, 'projected');
    return [...validateMode(s.defaultMode, child(p, 'defaultMode')), ...validateProjectedSources(s, p)];
  });
  if (isObj(source.scaleIO)) one('scaleIO', 'scaleIO', (s) => required(s, child(path, 'scaleIO'), 'gateway', 'system', 'volumeName'));
  if (isObj(source.csi)) one('csi', 'csi', (s) => {
    const p = child(path, 'csi');
    const e = validateCSIDriverName(str(s.driver), child(p, 'driver'));
    const ref = optStruct(s.nodePublishSecretRef);
    if (ref) {
      if (str(ref.name) === '') e.push(fieldError.required(child(p, 'nodePublishSecretRef', 'name')));
      else for (const msg of nameIsDNSSubdomain(str(ref.name), false)) e.push(fieldError.invalid(child(p, 'name'), str(ref.name), msg));
    }
    return e;
  });
  if (isObj(source.ephemeral)) one('ephemeral', 'ephemeral', (s) => validateEphemeralVolumeSource(s, path, volName, podName));
  if (isObj(source.image)) one('image', 'image', (s) => {
    const p = child(path, 'image');
    const e: FieldError[] = [];
    if (opts.resourceIsPod && str(s.reference) === '') e.push(fieldError.required(child(p, 'reference')));
    e.push(...validatePullPolicy(str(s.pullPolicy), child(p, 'pullPolicy')));
    return e;
  });
  if (numVolumes === 0) errs.push(fieldError.required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: names (DNS-1123 labels, unique) and sources; returns the volumes that validated. */
export function validateVolumes(volumes: readonly Volume[] | null | undefined, podName: string | undefined, path: string, opts: PodValidationOptions): { vols: Volumes; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const vols: Volumes = new Map();
  const all = structs(volumes);
  const createdPVCs = new Set<string>();
  if (podName) for (const v of all) if (isObj(v.ephemeral)) createdPVCs.add(`${podName}-${str(v.name)}`);
  all.forEach((vol, i) => {
    const idxPath = index(path, i);
    const name = str(vol.name);
    const namePath = child(idxPath, 'name');
    const el = validateVolumeSource(vol, idxPath, name, podName, opts);
    if (name === '') el.push(fieldError.required(namePath));
    else el.push(...dns1123Label(name, namePath));
    if (vols.has(name)) el.push(fieldError.duplicate(namePath, name));
    if (el.length === 0) vols.set(name, vol);
    else errs.push(...el);
    const pvc = optStruct(vol.persistentVolumeClaim);
    if (pvc && createdPVCs.has(str(pvc.claimName))) {
      errs.push(fieldError.invalid(child(idxPath, 'persistentVolumeClaim', 'claimName'), str(pvc.claimName), 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { vols, errs };
}
