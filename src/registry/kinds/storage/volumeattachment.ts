// storage.k8s.io VolumeAttachment: ValidateVolumeAttachment(+V1, Update) (exactly one source, a
// read-only spec), status reset on create and spec kept on status writes, `kubectl get
// volumeattachments`.
import type { VolumeAttachment } from '../../../api/types.js';
import { isObj, obj, optNum, semanticEqual, stringMap } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { inclusiveRangeError, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { validatePersistentVolumeSpec } from '../core/persistent-volumes/persistentvolume.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import { validateCSIDriverName } from '../../podspec/volume-sources.js';

const maxAttachedVolumeMetadataSize = 256 * 1024;
const maxVolumeErrorMessageSize = 1024;
const EXACTLY_ONE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

function validateSource(source: Record<string, unknown>): FieldError[] {
  const path = 'spec.source';
  const pvName = source.persistentVolumeName;
  const inline = source.inlineVolumeSpec;
  const hasName = typeof pvName === 'string';
  if (!isObj(inline) && !hasName) return [fieldError.required(path, EXACTLY_ONE)];
  if (isObj(inline) && hasName) return [fieldError.forbidden(path, EXACTLY_ONE)];
  if (hasName) return pvName === '' ? [fieldError.required(`${path}.persistentVolumeName`, 'must specify non empty persistentVolumeName')] : [];
  return validatePersistentVolumeSpec(obj(inline), `${path}.inlineVolumeSpec`, true);
}

function validateVolumeError(e: unknown, path: string): FieldError[] {
  if (!isObj(e)) return [];
  const errs: FieldError[] = [];
  // Kubernetes reports the metadata limit here, not the message limit.
  if (typeof e.message === 'string' && e.message.length > maxVolumeErrorMessageSize) errs.push(fieldError.tooLong(`${path}.message`, maxAttachedVolumeMetadataSize));
  const code = optNum(e.errorCode);
  if (code !== undefined && code < 0) errs.push(fieldError.invalid(`${path}.errorCode`, code, inclusiveRangeError(0, 2147483647)));
  return errs;
}

/** ValidateVolumeAttachment and ValidateVolumeAttachmentV1, ObjectMeta aside. */
export function validateVolumeAttachment(va: VolumeAttachment): FieldError[] {
  const spec = obj(va.spec);
  const errs: FieldError[] = [];
  const attacher = typeof spec.attacher === 'string' ? spec.attacher : '';
  if (attacher === '') errs.push(fieldError.required('spec.attacher'));
  errs.push(...validateSource(obj(spec.source)));
  const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
  for (const msg of nameIsDNSSubdomain(nodeName, false)) errs.push(fieldError.invalid('spec.nodeName', nodeName, msg));
  const status = obj(va.status);
  let size = 0;
  for (const [k, v] of Object.entries(stringMap(status.attachmentMetadata))) size += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (size > maxAttachedVolumeMetadataSize) errs.push(fieldError.tooLong('status.attachmentMetadata', maxAttachedVolumeMetadataSize));
  errs.push(...validateVolumeError(status.attachError, 'status.attachError'));
  errs.push(...validateVolumeError(status.detachError, 'status.detachError'));
  // The v1-only checks.
  errs.push(...validateCSIDriverName(attacher, 'spec.attacher'));
  const pvName = obj(spec.source).persistentVolumeName;
  if (typeof pvName === 'string') for (const msg of nameIsDNSSubdomain(pvName, false)) errs.push(fieldError.invalid('spec.source.persistentVolumeName', pvName, msg));
  return errs;
}

function validateVolumeAttachmentUpdate(va: VolumeAttachment, old: VolumeAttachment): FieldError[] {
  const errs = validateVolumeAttachment(va);
  // Kubernetes prints the whole Go struct as the value; kubelite leaves it out.
  if (!semanticEqual(va.spec, old.spec)) errs.push(fieldError.invalidOmit('spec', 'field is immutable'));
  return errs;
}

export const volumeAttachmentStrategy: ResourceStrategy<VolumeAttachment> = {
  hasStatus: true,
  tracksGeneration: false,
  prepareForCreate(va) {
    va.status = { attached: false };
  },
  prepareForStatusUpdate(va, old) {
    va.spec = old.spec;
  },
  validate: (va) => validateVolumeAttachment(va),
  validateUpdate: (va, old) => validateVolumeAttachmentUpdate(va, old),
  validateStatusUpdate: (va, old) => validateVolumeAttachmentUpdate(va, old),
};

const volumeAttachmentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Attacher', 'string', 'The CSI driver that attaches the volume.'),
    column('PV', 'string', 'The persistent volume attached.'),
    column('Node', 'string', 'The node the volume is attached to.'),
    column('Attached', 'boolean', 'Whether the volume is attached.'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    return [fmt.nameCell(o), fmt.str(spec.attacher), fmt.str(fmt.obj(spec.source).persistentVolumeName), fmt.str(spec.nodeName), fmt.obj(o.status).attached === true, fmt.ageCell(o, now)];
  },
};

export const volumeAttachmentModule: KindModule = {
  group: 'storage.k8s.io',
  kind: 'VolumeAttachment',
  strategy: volumeAttachmentStrategy,
  printer: volumeAttachmentPrinter,
};
