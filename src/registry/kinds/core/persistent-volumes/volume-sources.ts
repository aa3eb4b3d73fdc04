// The checks of each PersistentVolumeSource member (ValidatePersistentVolumeSpec's per-source
// calls): the sources a pod volume shares are checked by podspec's validators, the PV variants
// (with namespaced secret references) here.
import { child, isObj, num, obj, str } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { inclusiveRangeError, isDNS1123Label, nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import { validatePathNoBacksteps } from '../../../podspec/paths.js';
import * as shared from '../../../podspec/volume-sources.js';

type Source = Record<string, unknown>;
type SourceValidator = (s: Source, path: string) => FieldError[];

const label = (value: string, path: string): FieldError[] => isDNS1123Label(value).map((msg) => fieldError.invalid(path, value, msg));

/** A SecretReference a PV source carries: name and namespace both required. */
function requiredSecretRef(ref: unknown, path: string): FieldError[] {
  if (!isObj(ref)) return [];
  return shared.requiredFields(ref, path, 'name', 'namespace');
}

/** ValidateCSISecretRef: name (a DNS subdomain) and namespace (a DNS label) required. */
function csiSecretRef(ref: unknown, path: string): FieldError[] {
  if (!isObj(ref)) return [];
  const e: FieldError[] = [];
  const name = str(ref.name);
  const ns = str(ref.namespace);
  if (name === '') e.push(fieldError.required(child(path, 'name')));
  else for (const msg of nameIsDNSSubdomain(name, false)) e.push(fieldError.invalid(child(path, 'name'), name, msg));
  if (ns === '') e.push(fieldError.required(child(path, 'namespace')));
  else e.push(...label(ns, child(path, 'namespace')));
  return e;
}

const csiSecretRefs = ['controllerPublishSecretRef', 'nodeStageSecretRef', 'nodePublishSecretRef', 'controllerExpandSecretRef', 'nodeExpandSecretRef'];

/** The validator of each PersistentVolumeSource member, by its JSON key. */
export const persistentVolumeSourceValidators: Readonly<Record<string, SourceValidator>> = {
  hostPath: shared.validateHostPathVolumeSource,
  // Kubernetes reports GCE PD errors under `persistentDisk`.
  gcePersistentDisk: (s, p) => shared.validatePartitionedDisk(s, p.replace(/gcePersistentDisk$/, 'persistentDisk'), 'pdName'),
  awsElasticBlockStore: (s, p) => shared.validatePartitionedDisk(s, p, 'volumeID'),
  glusterfs: (s, p) => {
    const e = shared.requiredFields(s, p, 'endpoints', 'path');
    const ns = s.endpointsNamespace;
    if (typeof ns === 'string') {
      if (ns === '') e.push(fieldError.invalid(child(p, 'endpointsNamespace'), ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
      else e.push(...label(ns, child(p, 'endpointsNamespace')));
    }
    return e;
  },
  flocker: shared.validateFlockerVolumeSource,
  nfs: shared.validateNFSVolumeSource,
  rbd: (s, p) => [...shared.validateMonitors(s, p), ...shared.requiredFields(s, p, 'image')],
  quobyte: shared.validateQuobyteVolumeSource,
  cephfs: shared.validateMonitors,
  iscsi: (s, p) => {
    const e = shared.requiredFields(s, p, 'targetPortal', 'iqn');
    const lun = num(s.lun);
    if (lun < 0 || lun > 255) e.push(fieldError.invalid(child(p, 'lun'), lun, inclusiveRangeError(0, 255)));
    if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !isObj(s.secretRef)) e.push(fieldError.required(child(p, 'secretRef')));
    if (isObj(s.secretRef)) e.push(...shared.requiredFields(s.secretRef, child(p, 'secretRef'), 'name'));
    return e;
  },
  cinder: (s, p) => [...shared.requiredFields(s, p, 'volumeID'), ...requiredSecretRef(s.secretRef, child(p, 'secretRef'))],
  fc: shared.validateFCVolumeSource,
  flexVolume: (s, p) => {
    const e = shared.requiredFields(s, p, 'driver');
    for (const k of Object.keys(obj(s.options)).sort()) {
      const ns = k.includes('/') ? k.slice(0, k.indexOf('/')) : k;
      const normalized = `.${ns.toLowerCase()}`;
      if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) e.push(fieldError.invalid(`${child(p, 'options')}[${k}]`, k, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
    return e;
  },
  azureFile: (s, p) => {
    const e = shared.requiredFields(s, p, 'secretName', 'shareName');
    if (s.secretNamespace === '') e.push(fieldError.required(child(p, 'secretNamespace')));
    return e;
  },
  vsphereVolume: (s, p) => shared.requiredFields(s, p, 'volumePath'),
  photonPersistentDisk: (s, p) => shared.requiredFields(s, p, 'pdID'),
  portworxVolume: (s, p) => shared.requiredFields(s, p, 'volumeID'),
  azureDisk: shared.validateAzureDiskVolumeSource,
  scaleIO: (s, p) => shared.requiredFields(s, p, 'gateway', 'system', 'volumeName'),
  local: (s, p) => (str(s.path) === '' ? [fieldError.required(child(p, 'path'))] : validatePathNoBacksteps(str(s.path), child(p, 'path'))),
  storageos: (s, p) => {
    const e: FieldError[] = [];
    if (str(s.volumeName) === '') e.push(fieldError.required(child(p, 'volumeName')));
    else e.push(...label(str(s.volumeName), child(p, 'volumeName')));
    if (str(s.volumeNamespace) !== '') e.push(...label(str(s.volumeNamespace), child(p, 'volumeNamespace')));
    e.push(...requiredSecretRef(s.secretRef, child(p, 'secretRef')));
    return e;
  },
  csi: (s, p) => {
    const e = shared.validateCSIDriverName(str(s.driver), child(p, 'driver'));
    if (str(s.volumeHandle) === '') e.push(fieldError.required(child(p, 'volumeHandle')));
    for (const ref of csiSecretRefs) e.push(...csiSecretRef(s[ref], child(p, ref)));
    return e;
  },
};

