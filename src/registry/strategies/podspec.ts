// PodSpec and PodTemplateSpec validation (pkg/apis/core/validation: ValidatePodSpec and what it
// calls), on core/v1 JSON. Errors come in Kubernetes' order with its messages (v1.26's where the
// golden vectors show them) and field paths. Used by the Pod strategy and by every workload's
// pod template.
import { parseQuantity } from '../../api/meta/quantity.js';
import {
  bool,
  child,
  hasKeys,
  index,
  isObj,
  key,
  labelSelectorAsSelector,
  list,
  nonEmpty,
  num,
  obj,
  objs,
  optNum,
  optObj,
  optStr,
  str,
  stringMap,
  strs,
  validateAnnotations,
  validateLabelName,
  validateLabels,
  validateLabelSelector,
  validateNonnegativeField,
  type Obj,
} from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { goQuote, goString, goStruct, rawError } from '../../machinery/validation/go-syntax.js';
import {
  byteLength,
  inclusiveRangeError,
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isEnvVarName,
  isHTTPHeaderName,
  isQualifiedName,
  isValidGroupID,
  isValidIP,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
  isValidUserID,
  nameIsDNSSubdomain,
  validateNamespaceName,
  validateServiceAccountName,
} from '../../machinery/validation/names.js';
import { quantityString, validateContainerResourceName, validateResourceRequirements, validateResourceName, resourceEntries } from './resources.js';

const MaxInt32 = 2147483647;

export interface PodValidationOptions {
  /** The PodSpec is a Pod's (not a template's): hostPort must equal containerPort with host networking, image volumes need a reference. */
  resourceIsPod?: boolean;
  /** Tolerate an invalid pod-deletion-cost annotation (when the old object already had one). */
  allowInvalidPodDeletionCost?: boolean;
  /** Tolerate invalid label values in pod (anti-)affinity selectors (when the old object already had them). */
  allowInvalidLabelValueInSelector?: boolean;
}

type Volumes = Map<string, Obj>;

// ---- helpers ----

const dns1123Label = (value: string, path: string): FieldError[] => isDNS1123Label(value).map((msg) => fieldError.invalid(path, value, msg));
const dns1123Subdomain = (value: string, path: string): FieldError[] => isDNS1123Subdomain(value).map((msg) => fieldError.invalid(path, value, msg));
const qualifiedName = (value: string, path: string): FieldError[] => isQualifiedName(value).map((msg) => fieldError.invalid(path, value, msg));
const validIP = (value: string, path: string): FieldError[] => isValidIP(value).map((msg) => fieldError.invalid(path, value, msg));
const sortedList = (values: Iterable<string>): string[] => [...values].sort();

function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => fieldError.invalid(path, port, msg));
  const s = str(port);
  return isValidPortName(s).map((msg) => fieldError.invalid(path, s, msg));
}

// ---- paths on disk ----

/** validatePathNoBacksteps: no ".." element. */
function validatePathNoBacksteps(target: string, path: string): FieldError[] {
  return target.split('/').some((p) => p === '..') ? [fieldError.invalid(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, no "..". */
function validateLocalDescendingPath(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldError.invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** ValidateLocalNonReservedPath: relative, no "..", does not start with "..". */
function validateLocalNonReservedPath(target: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(fieldError.invalid(path, target, "must not start with '..'"));
  return errs;
}

const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
function validateMode(mode: unknown, path: string): FieldError[] {
  const m = optNum(mode);
  return m !== undefined && (m > 0o777 || m < 0) ? [fieldError.invalid(path, m, fileModeErrorMsg)] : [];
}

// ---- volumes ----

const validVolumeDownwardAPIFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const validEnvDownwardAPIFieldPaths = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
];
const validContainerResourceFieldPaths = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const downwardAPIFieldLabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs', 'spec.host',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` → path and subscript. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

function validateObjectFieldSelector(fs: Obj, expressions: string[], path: string): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (apiVersion === '') return [fieldError.required(child(path, 'apiVersion'))];
  if (fieldPath === '') return [fieldError.required(child(path, 'fieldPath'))];
  let internal = fieldPath;
  let convErr: string | undefined;
  if (apiVersion !== 'v1') convErr = `unsupported pod version: ${apiVersion}`;
  else {
    const sub = splitSubscript(fieldPath);
    if (sub) {
      if (sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') convErr = `field label does not support subscript: ${fieldPath}`;
    } else if (!downwardAPIFieldLabels.has(fieldPath)) convErr = `field label not supported: ${fieldPath}`;
    else if (fieldPath === 'spec.host') internal = 'spec.nodeName';
  }
  if (convErr) return [fieldError.invalid(child(path, 'fieldPath'), fieldPath, `error converting fieldPath: ${convErr}`)];
  const sub = splitSubscript(internal);
  if (sub) {
    if (sub[0] === 'metadata.annotations') return qualifiedName(sub[1].toLowerCase(), path);
    if (sub[0] === 'metadata.labels') return qualifiedName(sub[1], path);
    return [fieldError.invalid(path, sub[0], 'does not support subscript')];
  }
  if (!expressions.includes(internal)) return [fieldError.notSupported(child(path, 'fieldPath'), internal, expressions)];
  return [];
}

const cpuDivisors = new Set(['1m', '1']);
const byteDivisors = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);

function validateContainerResourceDivisor(resource: string, divisor: unknown, path: string): FieldError[] {
  if (divisor === undefined || divisor === null) return [];
  const q = parseQuantity(String(divisor));
  if (!q || q.isZero()) return [];
  const d = quantityString(divisor);
  const errs: FieldError[] = [];
  const p = child(path, 'divisor');
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !cpuDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if ((resource === 'limits.memory' || resource === 'requests.memory') && !byteDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"));
  } else if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !byteDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"));
  }
  if ((resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) && !byteDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"));
  }
  return errs;
}

function validateContainerResourceFieldSelector(fs: Obj, path: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && str(fs.containerName) === '') errs.push(fieldError.required(child(path, 'containerName')));
  else if (resource === '') errs.push(fieldError.required(child(path, 'resource')));
  else if (!validContainerResourceFieldPaths.includes(resource) && !resource.startsWith('requests.hugepages-') && !resource.startsWith('limits.hugepages-')) {
    errs.push(fieldError.notSupported(child(path, 'resource'), resource, validContainerResourceFieldPaths));
  }
  errs.push(...validateContainerResourceDivisor(resource, fs.divisor, path));
  return errs;
}

function validateKeyToPath(kp: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(kp.key) === '') errs.push(fieldError.required(child(path, 'key')));
  if (str(kp.path) === '') errs.push(fieldError.required(child(path, 'path')));
  errs.push(...validateLocalNonReservedPath(str(kp.path), child(path, 'path')));
  errs.push(...validateMode(kp.mode, child(path, 'mode')));
  return errs;
}

function validateDownwardAPIVolumeFile(file: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(file.path) === '') errs.push(fieldError.required(child(path, 'path')));
  errs.push(...validateLocalNonReservedPath(str(file.path), child(path, 'path')));
  const fieldRef = optObj(file.fieldRef);
  const resourceFieldRef = optObj(file.resourceFieldRef);
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

function validateProjectedSources(projected: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const allPaths = new Set<string>();
  const addPath = (p: string, badValue: string) => {
    if (p === '') return;
    if (allPaths.has(p)) errs.push(fieldError.invalid(path, badValue, 'conflicting duplicate paths'));
    else allPaths.add(p);
  };
  objs(projected.sources).forEach((source, i) => {
    let numSources = 0;
    const srcPath = index(child(path, 'sources'), i);
    for (const kind of ['secret', 'configMap'] as const) {
      const s = optObj(source[kind]);
      if (!s) continue;
      numSources++;
      const projPath = child(srcPath, kind);
      if (str(s.name) === '') errs.push(fieldError.required(child(projPath, 'name')));
      objs(s.items).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, index(child(projPath, 'items'), j)));
        addPath(str(kp.path), str(s.name));
      });
    }
    const dapi = optObj(source.downwardAPI);
    if (dapi) {
      numSources++;
      for (const file of objs(dapi.items)) {
        errs.push(...validateDownwardAPIVolumeFile(file, child(srcPath, 'downwardAPI')));
        addPath(str(file.path), str(file.path));
      }
    }
    const sat = optObj(source.serviceAccountToken);
    if (sat) {
      numSources++;
      const p = child(srcPath, 'serviceAccountToken');
      const exp = num(sat.expirationSeconds);
      if (exp < 600) errs.push(fieldError.invalid(child(p, 'expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
      if (exp > 2 ** 32) errs.push(fieldError.invalid(child(p, 'expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
      if (str(sat.path) === '') errs.push(fieldError.required(child(path, 'path')));
      else errs.push(...validateLocalNonReservedPath(str(sat.path), child(path, 'path')));
    }
    const ctb = optObj(source.clusterTrustBundle);
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

const supportedHostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const supportedPullPolicies = ['Always', 'IfNotPresent', 'Never'];

function validatePullPolicy(policy: string, path: string): FieldError[] {
  if (supportedPullPolicies.includes(policy)) return [];
  if (policy === '') return [fieldError.required(path)];
  return [fieldError.notSupported(path, policy, supportedPullPolicies)];
}

const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/** ValidatePersistentVolumeClaimSpec, as generic ephemeral volumes need it. */
function validatePersistentVolumeClaimSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const modes = strs(spec.accessModes);
  if (modes.length === 0) errs.push(fieldError.required(child(path, 'accessModes'), 'at least 1 access mode is required'));
  if (isObj(spec.selector)) errs.push(...validateLabelSelector(spec.selector, child(path, 'selector')));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!supportedAccessModes.includes(mode)) errs.push(fieldError.notSupported(child(path, 'accessModes'), mode, supportedAccessModes));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (supportedAccessModes.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(fieldError.forbidden(child(path, 'accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  const requests = obj(obj(spec.resources).requests);
  const storagePath = key(child(path, 'resources'), 'storage');
  if (!Object.prototype.hasOwnProperty.call(requests, 'storage')) errs.push(fieldError.required(storagePath));
  else {
    const q = parseQuantity(String(requests.storage));
    if (q && q.sign() <= 0) errs.push(fieldError.invalid(storagePath, quantityString(requests.storage), 'must be greater than zero'));
  }
  const scn = optStr(spec.storageClassName);
  if (scn) for (const msg of nameIsDNSSubdomain(scn, false)) errs.push(fieldError.invalid(child(path, 'storageClassName'), scn, msg));
  const vm = optStr(spec.volumeMode);
  if (vm !== undefined && vm !== 'Block' && vm !== 'Filesystem') errs.push(fieldError.notSupported(child(path, 'volumeMode'), vm, ['Block', 'Filesystem']));
  return errs;
}

const allowedTemplateMetaFields = new Set(['annotations', 'labels']);

function validateVolumeSource(source: Obj, path: string, volName: string, podName: string | undefined, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  let numVolumes = 0;
  const one = (jsonKey: string, reportKey: string, validate: (s: Obj) => FieldError[]) => {
    const s = optObj(source[jsonKey]);
    if (!s) return;
    if (numVolumes > 0) errs.push(fieldError.forbidden(child(path, reportKey), 'may not specify more than 1 volume type'));
    else {
      numVolumes++;
      errs.push(...validate(s));
    }
  };
  const required = (s: Obj, p: string, ...fields: string[]) => fields.filter((f) => str(s[f]) === '').map((f) => fieldError.required(child(p, f)));
  const emptyDir = optObj(source.emptyDir);
  if (emptyDir) {
    numVolumes++;
    const limit = emptyDir.sizeLimit;
    if (limit !== undefined && limit !== null) {
      const q = parseQuantity(String(limit));
      if (q && q.sign() < 0) errs.push(fieldError.forbidden(child(path, 'emptyDir', 'sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
    }
  }
  if (isObj(source.hostPath)) one('hostPath', 'hostPath', (s) => {
    const p = child(path, 'hostPath');
    if (str(s.path) === '') return [fieldError.required(child(p, 'path'))];
    const e = validatePathNoBacksteps(str(s.path), child(p, 'path'));
    const t = optStr(s.type);
    if (t !== undefined && !supportedHostPathTypes.includes(t)) e.push(fieldError.notSupported(child(p, 'type'), t, supportedHostPathTypes));
    return e;
  });
  if (isObj(source.gitRepo)) one('gitRepo', 'gitRepo', (s) => {
    const p = child(path, 'gitRepo');
    return [...required(s, p, 'repository'), ...validateLocalDescendingPath(str(s.directory), child(p, 'directory'))];
  });
  if (isObj(source.gcePersistentDisk)) one('gcePersistentDisk', 'gcePersistentDisk', (s) => {
    const p = child(path, 'persistentDisk');
    const e = required(s, p, 'pdName');
    const part = num(s.partition);
    if (part < 0 || part > 255) e.push(fieldError.invalid(child(p, 'partition'), part, inclusiveRangeError(1, 255)));
    return e;
  });
  if (isObj(source.awsElasticBlockStore)) one('awsElasticBlockStore', 'awsElasticBlockStore', (s) => {
    const p = child(path, 'awsElasticBlockStore');
    const e = required(s, p, 'volumeID');
    const part = num(s.partition);
    if (part < 0 || part > 255) e.push(fieldError.invalid(child(p, 'partition'), part, inclusiveRangeError(1, 255)));
    return e;
  });
  if (isObj(source.secret)) one('secret', 'secret', (s) => {
    const p = child(path, 'secret');
    const e = required(s, p, 'secretName');
    e.push(...validateMode(s.defaultMode, child(p, 'defaultMode')));
    objs(s.items).forEach((kp, i) => e.push(...validateKeyToPath(kp, index(child(p, 'items'), i))));
    return e;
  });
  if (isObj(source.nfs)) one('nfs', 'nfs', (s) => {
    const p = child(path, 'nfs');
    const e = required(s, p, 'server', 'path');
    if (!str(s.path).startsWith('/')) e.push(fieldError.invalid(child(p, 'path'), str(s.path), 'must be an absolute path'));
    return e;
  });
  if (isObj(source.iscsi)) one('iscsi', 'iscsi', (s) => {
    const p = child(path, 'iscsi');
    const e = required(s, p, 'targetPortal', 'iqn');
    const lun = num(s.lun);
    if (lun < 0 || lun > 255) e.push(fieldError.invalid(child(p, 'lun'), lun, inclusiveRangeError(0, 255)));
    if ((bool(s.chapAuthDiscovery) || bool(s.chapAuthSession)) && !isObj(s.secretRef)) e.push(fieldError.required(child(p, 'secretRef')));
    return e;
  });
  if (isObj(source.glusterfs)) one('glusterfs', 'glusterfs', (s) => required(s, child(path, 'glusterfs'), 'endpoints', 'path'));
  if (isObj(source.flocker)) one('flocker', 'flocker', (s) => {
    const p = child(path, 'flocker');
    const e: FieldError[] = [];
    if (str(s.datasetName) === '' && str(s.datasetUUID) === '') e.push(fieldError.required(p, 'one of datasetName and datasetUUID is required'));
    if (str(s.datasetName) !== '' && str(s.datasetUUID) !== '') e.push(fieldError.invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
    if (str(s.datasetName).includes('/')) e.push(fieldError.invalid(child(p, 'datasetName'), str(s.datasetName), "must not contain '/'"));
    return e;
  });
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
  if (isObj(source.cephfs)) one('cephfs', 'cephFS', (s) => (nonEmpty(s.monitors) ? [] : [fieldError.required(child(path, 'cephfs', 'monitors'))]));
  if (isObj(source.quobyte)) one('quobyte', 'quobyte', (s) => {
    const p = child(path, 'quobyte');
    const e: FieldError[] = [];
    if (str(s.registry) === '') e.push(fieldError.required(child(p, 'registry'), 'must be a host:port pair or multiple pairs separated by commas'));
    else if (str(s.tenant).length >= 65) e.push(fieldError.required(child(p, 'tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
    else for (const pair of str(s.registry).split(',')) if (!/^.*:[^:]*$/.test(pair)) e.push(fieldError.invalid(child(p, 'registry'), str(s.registry), 'must be a host:port pair or multiple pairs separated by commas'));
    if (str(s.volume) === '') e.push(fieldError.required(child(p, 'volume')));
    return e;
  });
  if (isObj(source.downwardAPI)) one('downwardAPI', 'downwarAPI', (s) => {
    const p = child(path, 'downwardAPI');
    const e = validateMode(s.defaultMode, child(p, 'defaultMode'));
    for (const file of objs(s.items)) e.push(...validateDownwardAPIVolumeFile(file, p));
    return e;
  });
  if (isObj(source.fc)) one('fc', 'fc', (s) => {
    const p = child(path, 'fc');
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
  });
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
    objs(s.items).forEach((kp, i) => e.push(...validateKeyToPath(kp, index(child(p, 'items'), i))));
    return e;
  });
  if (isObj(source.azureFile)) one('azureFile', 'azureFile', (s) => required(s, child(path, 'azureFile'), 'secretName', 'shareName'));
  if (isObj(source.vsphereVolume)) one('vsphereVolume', 'vsphereVolume', (s) => required(s, child(path, 'vsphereVolume'), 'volumePath'));
  if (isObj(source.photonPersistentDisk)) one('photonPersistentDisk', 'photonPersistentDisk', (s) => required(s, child(path, 'photonPersistentDisk'), 'pdID'));
  if (isObj(source.portworxVolume)) one('portworxVolume', 'portworxVolume', (s) => required(s, child(path, 'portworxVolume'), 'volumeID'));
  if (isObj(source.azureDisk)) one('azureDisk', 'azureDisk', (s) => {
    const p = child(path, 'azureDisk');
    const e = required(s, p, 'diskName', 'diskURI');
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
  });
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
    const driver = str(s.driver);
    const e: FieldError[] = [];
    if (driver === '') e.push(fieldError.required(child(p, 'driver')));
    if (byteLength(driver) > 63) e.push(fieldError.tooLong(child(p, 'driver'), 63));
    for (const msg of isDNS1123Subdomain(driver.toLowerCase())) e.push(fieldError.invalid(child(p, 'driver'), driver, msg));
    const ref = optObj(s.nodePublishSecretRef);
    if (ref) {
      if (str(ref.name) === '') e.push(fieldError.required(child(p, 'nodePublishSecretRef', 'name')));
      else for (const msg of nameIsDNSSubdomain(str(ref.name), false)) e.push(fieldError.invalid(child(p, 'name'), str(ref.name), msg));
    }
    return e;
  });
  if (isObj(source.ephemeral)) one('ephemeral', 'ephemeral', (s) => {
    const p = child(path, 'ephemeral');
    const tpl = optObj(s.volumeClaimTemplate);
    const e: FieldError[] = [];
    if (!tpl) e.push(fieldError.required(child(p, 'volumeClaimTemplate')));
    else {
      const tp = child(p, 'volumeClaimTemplate');
      const meta = obj(tpl.metadata);
      e.push(...validateAnnotations(meta.annotations, child(tp, 'metadata', 'annotations')));
      e.push(...validateLabels(meta.labels, child(tp, 'metadata', 'labels')));
      for (const k of Object.keys(meta)) {
        if (!allowedTemplateMetaFields.has(k) && !(k === 'creationTimestamp' && meta[k] === null)) {
          if (meta[k] !== undefined && meta[k] !== null && meta[k] !== '' && !(Array.isArray(meta[k]) && (meta[k] as unknown[]).length === 0)) {
            e.push(fieldError.forbidden(child(tp, 'metadata', k), 'cannot be set'));
          }
        }
      }
      e.push(...validatePersistentVolumeClaimSpec(obj(tpl.spec), child(tp, 'spec')));
    }
    if (podName && volName) {
      const pvcName = `${podName}-${volName}`;
      for (const msg of nameIsDNSSubdomain(pvcName, false)) e.push(fieldError.invalid(child(path, 'name'), volName, `PVC name ${goQuote(pvcName)}: ${msg}`));
    }
    return e;
  });
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
export function validateVolumes(volumes: unknown, podName: string | undefined, path: string, opts: PodValidationOptions): { vols: Volumes; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const vols: Volumes = new Map();
  const all = objs(volumes);
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
    const pvc = optObj(vol.persistentVolumeClaim);
    if (pvc && createdPVCs.has(str(pvc.claimName))) {
      errs.push(fieldError.invalid(child(idxPath, 'persistentVolumeClaim', 'claimName'), str(pvc.claimName), 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { vols, errs };
}

// ---- containers ----

const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];

function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(ports).forEach((port, i) => {
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

function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(env).forEach((ev, i) => {
    const p = index(path, i);
    const name = str(ev.name);
    if (name === '') errs.push(fieldError.required(child(p, 'name')));
    else for (const msg of isEnvVarName(name)) errs.push(fieldError.invalid(child(p, 'name'), name, msg));
    const from = optObj(ev.valueFrom);
    if (!from) return;
    const fp = child(p, 'valueFrom');
    let numSources = 0;
    const fieldRef = optObj(from.fieldRef);
    if (fieldRef) {
      numSources++;
      errs.push(...validateObjectFieldSelector(fieldRef, validEnvDownwardAPIFieldPaths, child(fp, 'fieldRef')));
    }
    const resourceFieldRef = optObj(from.resourceFieldRef);
    if (resourceFieldRef) {
      numSources++;
      errs.push(...validateContainerResourceFieldSelector(resourceFieldRef, child(fp, 'resourceFieldRef'), false));
    }
    for (const kind of ['configMapKeyRef', 'secretKeyRef'] as const) {
      const sel = optObj(from[kind]);
      if (!sel) continue;
      numSources++;
      const sp = child(fp, kind);
      for (const msg of nameIsDNSSubdomain(str(sel.name), false)) errs.push(fieldError.invalid(child(sp, 'name'), str(sel.name), msg));
      const k = str(sel.key);
      if (k === '') errs.push(fieldError.required(child(sp, 'key')));
      else for (const msg of isConfigMapKey(k)) errs.push(fieldError.invalid(child(sp, 'key'), k, msg));
    }
    if (numSources === 0) errs.push(fieldError.invalid(fp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (str(ev.value) !== '') errs.push(fieldError.invalid(fp, '', 'may not be specified when `value` is not empty'));
    else if (numSources > 1) errs.push(fieldError.invalid(fp, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateEnvFrom(envFrom: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(envFrom).forEach((ev, i) => {
    const p = index(path, i);
    const prefix = str(ev.prefix);
    if (prefix !== '') for (const msg of isEnvVarName(prefix)) errs.push(fieldError.invalid(child(p, 'prefix'), prefix, msg));
    let numSources = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      const ref = optObj(ev[kind]);
      if (!ref) continue;
      numSources++;
      const name = str(ref.name);
      if (name === '') errs.push(fieldError.required(child(p, kind, 'name')));
      else for (const msg of nameIsDNSSubdomain(name, true)) errs.push(fieldError.invalid(child(p, kind, 'name'), name, msg));
    }
    if (numSources === 0) errs.push(fieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (numSources > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

/** Shared empty collections for the common case of a container without volume devices (never written). */
const NO_PATHS: ReadonlyMap<string, string> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();

function validateVolumeMounts(mounts: unknown, devices: ReadonlyMap<string, string>, volumes: Volumes, container: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountpoints = new Set<string>();
  const devicePaths: ReadonlySet<string> = devices.size === 0 ? NO_NAMES : new Set(devices.values());
  objs(mounts).forEach((mnt, i) => {
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
      const privileged = obj(container.securityContext).privileged === true;
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

function validateVolumeDevices(devices: unknown, mounts: ReadonlyMap<string, string>, volumes: Volumes, path: string): FieldError[] {
  // Nearly every container has none: no sets to build.
  if (!nonEmpty(devices)) return [];
  const errs: FieldError[] = [];
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  const mountPaths = new Set(mounts.values());
  objs(devices).forEach((dev, i) => {
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

function validateResizePolicy(policies: unknown, path: string, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(policies).forEach((p, i) => {
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

function validateSeccompProfileField(sp: unknown, path: string): FieldError[] {
  if (!isObj(sp)) return [];
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

function validateAppArmorProfileField(profile: unknown, path: string): FieldError[] {
  if (!isObj(profile)) return [];
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

function validateWindowsSecurityContextOptions(wo: unknown, path: string): FieldError[] {
  if (!isObj(wo)) return [];
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
function validateSecurityContext(sc: unknown, path: string, hostUsers: boolean): FieldError[] {
  if (!isObj(sc)) return [];
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
    for (const cap of strs(obj(sc.capabilities).add)) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(rawError('FieldValueInvalid', path, text, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateWindowsSecurityContextOptions(sc.windowsOptions, child(path, 'windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, child(path, 'appArmorProfile')));
  return errs;
}

function validateContainerCommon(c: Obj, volumes: Volumes, claims: Set<string>, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
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
  const mounts: ReadonlyMap<string, string> = hasDevices ? new Map(objs(c.volumeMounts).map((m) => [str(m.name), str(m.mountPath)] as const)) : NO_PATHS;
  const devices: ReadonlyMap<string, string> = hasDevices ? new Map(objs(c.volumeDevices).map((d) => [str(d.name), str(d.devicePath)] as const)) : NO_PATHS;
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

// ---- probes and lifecycle handlers ----

function validateHandler(h: Obj, gracePeriod: number | undefined, path: string, kinds: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let numHandlers = 0;
  for (const kind of kinds) {
    const a = optObj(h[kind]);
    if (!a) continue;
    const p = child(path, kind);
    if (numHandlers > 0) {
      errs.push(fieldError.forbidden(p, 'may not specify more than 1 handler type'));
      continue;
    }
    numHandlers++;
    switch (kind) {
      case 'exec':
        if (!nonEmpty(a.command)) errs.push(fieldError.required(child(p, 'command')));
        break;
      case 'httpGet': {
        if (str(a.path) === '') errs.push(fieldError.required(child(p, 'path')));
        errs.push(...validatePortNumOrName(a.port, child(p, 'port')));
        const scheme = str(a.scheme);
        if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(fieldError.notSupported(child(p, 'scheme'), scheme, ['HTTP', 'HTTPS']));
        for (const header of objs(a.httpHeaders)) for (const msg of isHTTPHeaderName(str(header.name))) errs.push(fieldError.invalid(child(p, 'httpHeaders'), str(header.name), msg));
        break;
      }
      case 'tcpSocket':
        errs.push(...validatePortNumOrName(a.port, child(p, 'port')));
        break;
      case 'grpc':
        errs.push(...validatePortNumOrName(num(a.port), child(p, 'port')));
        break;
      case 'sleep': {
        const seconds = num(a.seconds);
        if (gracePeriod !== undefined && (seconds < 0 || seconds > gracePeriod)) {
          errs.push(fieldError.invalid(p, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`));
        }
        break;
      }
    }
  }
  if (numHandlers === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  return errs;
}

const probeHandlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const lifecycleHandlers = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;

function validateProbe(probe: Obj, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs = validateHandler(probe, gracePeriod, path, probeHandlers);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...validateNonnegativeField(num(probe[f]), child(path, f)));
  }
  const tgps = optNum(probe.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps <= 0) errs.push(fieldError.invalid(child(path, 'terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  return errs;
}

function validateProbes(c: Obj, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const lifecycle = optObj(c.lifecycle);
  if (lifecycle) {
    for (const h of ['postStart', 'preStop']) {
      const handler = optObj(lifecycle[h]);
      if (handler) errs.push(...validateHandler(handler, gracePeriod, child(path, 'lifecycle', h), lifecycleHandlers));
    }
  }
  const liveness = optObj(c.livenessProbe);
  if (liveness) {
    errs.push(...validateProbe(liveness, gracePeriod, child(path, 'livenessProbe')));
    if (num(liveness.successThreshold) !== 1) errs.push(fieldError.invalid(child(path, 'livenessProbe', 'successThreshold'), num(liveness.successThreshold), 'must be 1'));
  }
  const readiness = optObj(c.readinessProbe);
  if (readiness) {
    errs.push(...validateProbe(readiness, gracePeriod, child(path, 'readinessProbe')));
    const t = optNum(readiness.terminationGracePeriodSeconds);
    if (t !== undefined) errs.push(fieldError.invalid(child(path, 'readinessProbe', 'terminationGracePeriodSeconds'), t, 'must not be set for readinessProbes'));
  }
  const startup = optObj(c.startupProbe);
  if (startup) {
    errs.push(...validateProbe(startup, gracePeriod, child(path, 'startupProbe')));
    if (num(startup.successThreshold) !== 1) errs.push(fieldError.invalid(child(path, 'startupProbe', 'successThreshold'), num(startup.successThreshold), 'must be 1'));
  }
  return errs;
}

/** checkHostPortConflicts: protocol/hostIP/hostPort unique across the given containers. */
function checkHostPortConflicts(containers: Obj[], path: string, offset = 0): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    objs(c.ports).forEach((port, pi) => {
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

function validateContainers(containers: Obj[], volumes: Volumes, claims: Set<string>, gracePeriod: number | undefined, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
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

function validateInitContainers(inits: Obj[], regular: Obj[], volumes: Volumes, claims: Set<string>, gracePeriod: number | undefined, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
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
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
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
export function validateEphemeralContainers(ephemeral: Obj[], containers: Obj[], inits: Obj[], volumes: Volumes, claims: Set<string>, path: string, podRestartPolicy: string, hostUsers: boolean): FieldError[] {
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
    for (const [k, v] of Object.entries(ec)) {
      if (allowedEphemeralContainerFields.has(k) || v === undefined || v === null) continue;
      if (Array.isArray(v) ? v.length === 0 : isObj(v) ? Object.keys(v).length === 0 && k === 'resources' : v === '' || v === 0 || v === false) continue;
      errs.push(fieldError.forbidden(child(p, k), 'cannot be set for an Ephemeral Container'));
    }
    objs(ec.volumeMounts).forEach((vm, j) => {
      if (str(vm.subPath) !== '') errs.push(fieldError.forbidden(child(index(child(p, 'volumeMounts'), j), 'subPath'), 'cannot be set for an Ephemeral Container'));
      if (str(vm.subPathExpr) !== '') errs.push(fieldError.forbidden(child(index(child(p, 'volumeMounts'), j), 'subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

// ---- scheduling: affinity, tolerations, topology spread ----

function validateNodeSelectorRequirement(rq: Obj, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(rq.operator);
  const values = strs(rq.values);
  switch (op) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldError.required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldError.forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldError.required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldError.invalid(child(path, 'operator'), op, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(rq.key), child(path, 'key')));
  if (!allowInvalidValues) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
    });
  }
  return errs;
}

function validateNodeFieldSelectorRequirement(req: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(req.operator);
  const values = strs(req.values);
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1) errs.push(fieldError.required(child(path, 'values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(fieldError.invalid(child(path, 'operator'), op, 'not a valid selector operator'));
  if (str(req.key) !== 'metadata.name') errs.push(fieldError.invalid(child(path, 'key'), str(req.key), 'not a valid field selector key'));
  else values.forEach((v, i) => {
    for (const msg of nameIsDNSSubdomain(v, false)) errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
  });
  return errs;
}

function validateNodeSelectorTerm(term: Obj, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(term.matchExpressions).forEach((r, j) => errs.push(...validateNodeSelectorRequirement(r, allowInvalidValues, index(child(path, 'matchExpressions'), j))));
  objs(term.matchFields).forEach((r, j) => errs.push(...validateNodeFieldSelectorRequirement(r, index(child(path, 'matchFields'), j))));
  return errs;
}

function validatePodAffinityTerm(term: Obj, allowInvalid: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector, child(path, 'labelSelector'), allowInvalid));
  errs.push(...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector'), allowInvalid));
  for (const ns of strs(term.namespaces)) for (const msg of validateNamespaceName(ns, false)) errs.push(fieldError.invalid(child(path, 'namespace'), ns, msg));
  const selector = optObj(term.labelSelector);
  for (const which of ['matchLabelKeys', 'mismatchLabelKeys'] as const) {
    const keys = strs(term[which]);
    if (keys.length === 0) continue;
    if (!selector) errs.push(fieldError.forbidden(child(path, which), 'must not be specified when labelSelector is not set'));
    else keys.forEach((k, i) => errs.push(...validateLabelName(k, index(child(path, which), i))));
  }
  const matchKeys = strs(term.matchLabelKeys);
  const mismatch = new Set(strs(term.mismatchLabelKeys));
  matchKeys.forEach((k, i) => {
    if (mismatch.has(k)) errs.push(fieldError.invalid(index(child(path, 'matchLabelKeys'), i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  const topologyKey = str(term.topologyKey);
  if (topologyKey === '') errs.push(fieldError.required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, child(path, 'topologyKey')));
  return errs;
}

function validatePodAffinityKind(a: Obj, allowInvalid: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
    errs.push(...validatePodAffinityTerm(t, allowInvalid, index(child(path, 'requiredDuringSchedulingIgnoredDuringExecution'), i))),
  );
  objs(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((w, j) => {
    const p = index(child(path, 'preferredDuringSchedulingIgnoredDuringExecution'), j);
    const weight = num(w.weight);
    if (weight <= 0 || weight > 100) errs.push(fieldError.invalid(child(p, 'weight'), weight, 'must be in the range 1-100'));
    errs.push(...validatePodAffinityTerm(obj(w.podAffinityTerm), allowInvalid, child(p, 'podAffinityTerm')));
  });
  return errs;
}

function validateAffinity(affinity: unknown, opts: PodValidationOptions, path: string): FieldError[] {
  if (!isObj(affinity)) return [];
  const errs: FieldError[] = [];
  const na = optObj(affinity.nodeAffinity);
  if (na) {
    const np = child(path, 'nodeAffinity');
    const required = optObj(na.requiredDuringSchedulingIgnoredDuringExecution);
    if (required) {
      const rp = child(np, 'requiredDuringSchedulingIgnoredDuringExecution');
      const terms = objs(required.nodeSelectorTerms);
      if (terms.length === 0) errs.push(fieldError.required(child(rp, 'nodeSelectorTerms'), 'must have at least one node selector term'));
      else terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(t, false, index(child(rp, 'nodeSelectorTerms'), i))));
    }
    objs(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const p = index(child(np, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
      const weight = num(t.weight);
      if (weight <= 0 || weight > 100) errs.push(fieldError.invalid(child(p, 'weight'), weight, 'must be in the range 1-100'));
      errs.push(...validateNodeSelectorTerm(obj(t.preference), true, child(p, 'preference')));
    });
  }
  const pa = optObj(affinity.podAffinity);
  if (pa) errs.push(...validatePodAffinityKind(pa, opts.allowInvalidLabelValueInSelector === true, child(path, 'podAffinity')));
  const paa = optObj(affinity.podAntiAffinity);
  if (paa) errs.push(...validatePodAffinityKind(paa, opts.allowInvalidLabelValueInSelector === true, child(path, 'podAntiAffinity')));
  return errs;
}

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaintEffect. */
export function validateTaintEffect(effect: string, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && effect === '') return [fieldError.required(path)];
  return taintEffects.includes(effect) ? [] : [fieldError.notSupported(path, effect, taintEffects)];
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(tolerations).forEach((t, i) => {
    const p = index(path, i);
    const k = str(t.key);
    const op = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (k !== '') errs.push(...validateLabelName(k, child(p, 'key')));
    if (k === '' && op !== 'Exists') errs.push(fieldError.invalid(child(p, 'operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(child(p, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op === 'Equal' || op === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(fieldError.invalid(child(p, 'operator'), value, msgs.join(';')));
    } else if (op === 'Exists') {
      if (value !== '') errs.push(fieldError.invalid(child(p, 'operator'), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(fieldError.notSupported(child(p, 'operator'), op, ['Equal', 'Exists']));
    }
    if (effect !== '') errs.push(...validateTaintEffect(effect, true, child(p, 'effect')));
  });
  return errs;
}

function validateTopologySpreadConstraints(constraints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const all = objs(constraints);
  all.forEach((c, i) => {
    const p = index(path, i);
    const maxSkew = num(c.maxSkew);
    if (maxSkew <= 0) errs.push(fieldError.invalid(child(p, 'maxSkew'), maxSkew, 'must be greater than zero'));
    const topologyKey = str(c.topologyKey);
    if (topologyKey === '') errs.push(fieldError.required(child(p, 'topologyKey'), 'can not be empty'));
    const action = str(c.whenUnsatisfiable);
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') errs.push(fieldError.notSupported(child(p, 'whenUnsatisfiable'), action, ['DoNotSchedule', 'ScheduleAnyway']));
    if (all.slice(i + 1).some((o) => str(o.topologyKey) === topologyKey && str(o.whenUnsatisfiable) === action)) {
      errs.push(fieldError.duplicate(child(p, '{topologyKey, whenUnsatisfiable}'), `{${topologyKey}, ${action}}`));
    }
    const minDomains = optNum(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(fieldError.invalid(child(p, 'minDomains'), minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(fieldError.invalid(child(p, 'minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      const v = optStr(c[policy]);
      if (v !== undefined && v !== 'Honor' && v !== 'Ignore') errs.push(fieldError.notSupported(child(p, policy), v, ['Honor', 'Ignore']));
    }
    const matchLabelKeys = strs(c.matchLabelKeys);
    if (matchLabelKeys.length > 0) {
      const selector = optObj(c.labelSelector);
      const selectorKeys = new Set<string>();
      if (selector) {
        for (const k of Object.keys(obj(selector.matchLabels))) selectorKeys.add(k);
        for (const e of objs(selector.matchExpressions)) selectorKeys.add(str(e.key));
      } else errs.push(fieldError.forbidden(child(p, 'matchLabelKeys'), 'must not be specified when labelSelector is not set'));
      matchLabelKeys.forEach((k, j) => {
        errs.push(...validateLabelName(k, index(child(p, 'matchLabelKeys'), j)));
        if (selectorKeys.has(k)) errs.push(fieldError.invalid(index(child(p, 'matchLabelKeys'), j), k, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    errs.push(...validateLabelSelector(c.labelSelector, child(p, 'labelSelector')));
  });
  return errs;
}

// ---- pod-level settings ----

const MaxDNSNameservers = 3;
const MaxDNSSearchPaths = 32;
const MaxDNSSearchListChars = 2048;

function validatePodDNSConfig(dnsConfig: unknown, dnsPolicy: string, path: string): FieldError[] {
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
  objs(dnsConfig.options).forEach((o, i) => {
    if (str(o.name) === '') errs.push(fieldError.required(index(child(path, 'options'), i), 'must not be empty'));
  });
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

function validatePodSecurityContext(spec: Obj, path: string): FieldError[] {
  const sc = optObj(spec.securityContext);
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
  objs(sc.sysctls).forEach((s, i) => {
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

function validatePodResourceClaims(claims: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(claims).forEach((c, i) => {
    const p = index(path, i);
    const name = str(c.name);
    if (name === '') errs.push(fieldError.required(child(p, 'name')));
    else if (names.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
    else {
      errs.push(...dns1123Label(name, child(p, 'name')));
      names.add(name);
    }
    const rcn = optStr(c.resourceClaimName);
    const rctn = optStr(c.resourceClaimTemplateName);
    const text = goStruct('core.PodResourceClaim', [
      ['Name', goString(name)],
      ['ResourceClaimName', rcn === undefined ? '(*string)(nil)' : '(*string)(0xc000000000)'],
      ['ResourceClaimTemplateName', rctn === undefined ? '(*string)(nil)' : '(*string)(0xc000000000)'],
    ]);
    if (rcn !== undefined && rctn !== undefined) errs.push(rawError('FieldValueInvalid', p, text, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (rcn === undefined && rctn === undefined) errs.push(rawError('FieldValueInvalid', p, text, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (rcn !== undefined) for (const msg of nameIsDNSSubdomain(rcn, false)) errs.push(fieldError.invalid(child(p, 'resourceClaimName'), rcn, msg));
    if (rctn !== undefined) for (const msg of nameIsDNSSubdomain(rctn, false)) errs.push(fieldError.invalid(child(p, 'resourceClaimTemplateName'), rctn, msg));
  });
  return errs;
}

const supportedPodLevelResources = ['cpu', 'hugepages-*', 'memory'];

function validatePodResources(spec: Obj, claims: Set<string>, path: string): FieldError[] {
  const res = optObj(spec.resources);
  if (!res) return [];
  const errs: FieldError[] = [];
  if (res.claims !== undefined && res.claims !== null) errs.push(fieldError.forbidden(child(path, 'claims'), 'claims cannot be set for Resources at pod-level'));
  const podResourceName = (name: string, p: string): FieldError[] => {
    const e = validateResourceName(name, p);
    if (e.length > 0) return e;
    if (name !== 'cpu' && name !== 'memory' && !name.startsWith('hugepages-')) return [fieldError.notSupported(p, name, supportedPodLevelResources)];
    return [];
  };
  errs.push(...validateResourceRequirements({ limits: res.limits, requests: res.requests }, podResourceName, claims, path));
  // Individual container limits must not exceed pod-level limits.
  const podLimits = obj(res.limits);
  objs(spec.containers).forEach((c, i) => {
    for (const [name, value] of resourceEntries(obj(c.resources).limits)) {
      if (!Object.prototype.hasOwnProperty.call(podLimits, name)) continue;
      const cq = parseQuantity(String(value));
      const pq = parseQuantity(String(podLimits[name]));
      if (cq && pq && cq.cmp(pq) > 0) {
        errs.push(fieldError.invalid(child(key(index(child(path, 'containers'), i), name), 'limits'), quantityString(value), `must be less than or equal to pod limits of ${quantityString(podLimits[name])}`));
      }
    }
  });
  return errs;
}

function validateOS(spec: Obj, path: string): FieldError[] {
  const os = optObj(spec.os);
  if (!os) return [];
  const name = str(os.name);
  if (name === '') return [fieldError.required(child(path, 'name'), 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [fieldError.notSupported(path, name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const root = path.slice(0, -'.os'.length);
  const forEachContainer = (fn: (c: Obj, p: string) => void) => {
    objs(spec.initContainers).forEach((c, i) => fn(c, index(child(root, 'initContainers'), i)));
    objs(spec.containers).forEach((c, i) => fn(c, index(child(root, 'containers'), i)));
    objs(spec.ephemeralContainers).forEach((c, i) => fn(c, index(child(root, 'ephemeralContainers'), i)));
  };
  const psc = obj(spec.securityContext);
  if (name === 'linux') {
    if (isObj(psc.windowsOptions)) errs.push(fieldError.forbidden(child(root, 'securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    forEachContainer((c, p) => {
      if (isObj(obj(c.securityContext).windowsOptions)) errs.push(fieldError.forbidden(child(p, 'securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
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
    const sc = optObj(c.securityContext);
    if (!sc) return;
    const sp = child(p, 'securityContext');
    for (const f of ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup']) {
      windowsForbidden(set(sc[f]), child(sp, f));
    }
  });
  return errs;
}

/** The pod-specific annotations (mirror pods, deletion cost, seccomp/AppArmor beta annotations). */
export function validatePodSpecificAnnotations(annotations: unknown, spec: Obj, path: string, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const a = stringMap(annotations);
  const mirror = 'kubernetes.io/config.mirror';
  if (Object.prototype.hasOwnProperty.call(a, mirror) && str(spec.nodeName) === '') {
    errs.push(fieldError.invalid(key(path, mirror), a[mirror], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const cost = 'controller.kubernetes.io/pod-deletion-cost';
  if (!opts.allowInvalidPodDeletionCost && Object.prototype.hasOwnProperty.call(a, cost)) {
    const v = a[cost]!;
    if (!/^[+-]?\d+$/.test(v) || Number(v) > MaxInt32 || Number(v) < -MaxInt32 - 1) errs.push(fieldError.invalid(key(path, cost), v, 'must be a 32bit integer'));
  }
  const seccompProfile = (p: string, k: string) => {
    if (p === 'runtime/default' || p === 'docker/default' || p === 'unconfined') return;
    if (p.startsWith('localhost/')) errs.push(...validateLocalDescendingPath(p.slice('localhost/'.length), child(path, k)));
    else errs.push(fieldError.invalid(child(path, k), p, 'must be a valid seccomp profile'));
  };
  const podSeccomp = 'seccomp.security.alpha.kubernetes.io/pod';
  if (Object.prototype.hasOwnProperty.call(a, podSeccomp)) seccompProfile(a[podSeccomp]!, podSeccomp);
  for (const [k, v] of Object.entries(a)) if (k.startsWith('container.seccomp.security.alpha.kubernetes.io/')) seccompProfile(v, k);
  const apparmorPrefix = 'container.apparmor.security.beta.kubernetes.io/';
  const containerNames = new Set([...objs(spec.initContainers), ...objs(spec.containers), ...objs(spec.ephemeralContainers)].map((c) => str(c.name)));
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(apparmorPrefix)) continue;
    const name = k.slice(apparmorPrefix.length);
    if (!containerNames.has(name)) errs.push(fieldError.invalid(key(path, k), name, 'container not found'));
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/')) errs.push(fieldError.invalid(key(path, k), v, `invalid AppArmor profile name: ${goQuote(v)}`));
  }
  return errs;
}

/**
 * ValidatePodSpec. `podName` is the pod's name when the spec is a real pod's (checks of generic
 * ephemeral volumes' PVC names need it); undefined for templates.
 */
export function validatePodSpec(spec: Obj, podName: string | undefined, path: string, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const gracePeriod = optNum(spec.terminationGracePeriodSeconds);
  if (gracePeriod === undefined) errs.push(fieldError.required(child(path, 'terminationGracePeriodSeconds')));
  const hostUsers = spec.hostUsers !== false;
  const { vols, errs: vErrs } = validateVolumes(spec.volumes, podName, child(path, 'volumes'), opts);
  errs.push(...vErrs);
  const claims = new Set(objs(spec.resourceClaims).map((c) => str(c.name)).filter((n) => n !== ''));
  errs.push(...validatePodResourceClaims(spec.resourceClaims, child(path, 'resourceClaims')));
  const restartPolicy = str(spec.restartPolicy);
  const containers = objs(spec.containers);
  const inits = objs(spec.initContainers);
  errs.push(...validateContainers(containers, vols, claims, gracePeriod, child(path, 'containers'), restartPolicy, hostUsers));
  errs.push(...validateInitContainers(inits, containers, vols, claims, gracePeriod, child(path, 'initContainers'), restartPolicy, hostUsers));
  errs.push(...validateEphemeralContainers(objs(spec.ephemeralContainers), containers, inits, vols, claims, child(path, 'ephemeralContainers'), restartPolicy, hostUsers));
  errs.push(...validatePodResources(spec, claims, child(path, 'resources')));
  if (bool(spec.hostNetwork)) {
    containers.forEach((c, i) => {
      objs(c.ports).forEach((port, j) => {
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
  objs(spec.imagePullSecrets).forEach((ref, i) => {
    if (Object.keys(ref).some((k) => k !== 'name' && ref[k] !== undefined && ref[k] !== null && ref[k] !== '')) {
      errs.push(rawError('FieldValueInvalid', index(child(path, 'imagePullSecrets'), i), goStruct('core.LocalObjectReference', [['Name', goString(ref.name)]]), 'only name may be set'));
    }
  });
  errs.push(...validateAffinity(spec.affinity, opts, child(path, 'affinity')));
  errs.push(...validatePodDNSConfig(spec.dnsConfig, dnsPolicy, child(path, 'dnsConfig')));
  objs(spec.readinessGates).forEach((g, i) => errs.push(...qualifiedName(str(g.conditionType), child(index(child(path, 'readinessGates'), i), 'conditionType'))));
  const gates = new Set<string>();
  objs(spec.schedulingGates).forEach((g, i) => {
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
  objs(spec.hostAliases).forEach((ha, i) => {
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

/** validateSeccompAnnotationsAndFields: beta annotations and fields must agree where both are set. */
function validateSeccompAnnotationsAndFields(annotations: Record<string, string>, spec: Obj, specPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const match = (annotation: string, field: Obj, p: string) => {
    const type = str(field.type);
    if (type === 'Unconfined' && annotation !== 'unconfined') errs.push(fieldError.forbidden(child(p, 'type'), 'seccomp type in annotation and field must match'));
    else if (type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default') errs.push(fieldError.forbidden(child(p, 'type'), 'seccomp type in annotation and field must match'));
    else if (type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) errs.push(fieldError.forbidden(child(p, 'type'), 'seccomp type in annotation and field must match'));
      else if (optStr(field.localhostProfile) !== annotation.slice('localhost/'.length)) errs.push(fieldError.forbidden(child(p, 'localhostProfile'), 'seccomp profile in annotation and field must match'));
    }
  };
  const pod = optObj(obj(spec.securityContext).seccompProfile);
  const podAnn = annotations['seccomp.security.alpha.kubernetes.io/pod'];
  if (pod && podAnn !== undefined) match(podAnn, pod, child(specPath, 'securityContext', 'seccompProfile'));
  const visit = (cs: Obj[], field: string) =>
    cs.forEach((c, i) => {
      const f = optObj(obj(c.securityContext).seccompProfile);
      const ann = annotations[`container.seccomp.security.alpha.kubernetes.io/${str(c.name)}`];
      if (f && ann !== undefined) match(ann, f, child(index(child(specPath, field), i), 'securityContext', 'seccompProfile'));
    });
  visit(objs(spec.initContainers), 'initContainers');
  visit(objs(spec.containers), 'containers');
  visit(objs(spec.ephemeralContainers), 'ephemeralContainers');
  return errs;
}

/** ValidatePodTemplateSpec (template at `path`). */
export function validatePodTemplateSpec(template: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const t = obj(template);
  const meta = obj(t.metadata);
  const spec = obj(t.spec);
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
export function validatePodMetadataAndSpec(pod: Obj, opts: PodValidationOptions): FieldError[] {
  const meta = obj(pod.metadata);
  const spec = obj(pod.spec);
  const errs: FieldError[] = [];
  errs.push(...validatePodSpecificAnnotations(meta.annotations, spec, 'metadata.annotations', opts));
  errs.push(...validatePodSpec(spec, str(meta.name) || undefined, 'spec', { ...opts, resourceIsPod: true }));
  if (str(spec.serviceAccountName) === '') {
    objs(spec.volumes).forEach((v, vi) => {
      const projected = optObj(v.projected);
      if (!projected) return;
      objs(projected.sources).forEach((s, si) => {
        if (isObj(s.serviceAccountToken)) {
          errs.push(fieldError.forbidden(child(index(child(index('spec.volumes', vi), 'projected', 'sources'), si), 'serviceAccountToken'), 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  for (const field of ['containers', 'initContainers']) {
    objs(spec[field]).forEach((c, i) => {
      const image = str(c.image);
      if (image.length !== image.trim().length) errs.push(fieldError.invalid(child(index(child('spec', field), i), 'image'), image, 'must not have leading or trailing whitespace'));
    });
  }
  return errs;
}

/** ValidatePodCreate minus ObjectMeta. */
export function validatePodCreate(pod: Obj, opts: PodValidationOptions = {}): FieldError[] {
  const spec = obj(pod.spec);
  const errs = validatePodMetadataAndSpec(pod, opts);
  if (nonEmpty(spec.ephemeralContainers)) errs.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (str(spec.nodeName) !== '' && nonEmpty(spec.schedulingGates)) errs.push(fieldError.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  errs.push(...validateSeccompAnnotationsAndFields(stringMap(obj(pod.metadata).annotations), spec, 'spec'));
  return errs;
}

/** Whether a label selector (JSON) selects the given labels; undefined selector JSON selects nothing. */
export function selectorSelects(selector: unknown, labels: unknown): boolean {
  const sel = labelSelectorAsSelector(selector);
  if (!sel || sel.kind === 'nothing') return false;
  if (sel.kind === 'everything') return true;
  return sel.match(stringMap(labels));
}

