// ConfigMap: ValidateConfigMap / ValidateConfigMapUpdate (keys, 1 MiB total, immutability).
import type { ConfigMap } from '../../../api/types.js';
import { key, obj, semanticEqual, str } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { byteLength, isConfigMapKey } from '../../../machinery/validation/names.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

/** core.MaxSecretSize: the limit on a ConfigMap's or Secret's data. */
export const MaxSecretSize = 1 * 1024 * 1024;

/** Bytes of a base64 []byte value as JSON carries it. */
export function base64Length(v: unknown): number {
  return typeof v === 'string' ? Buffer.from(v, 'base64').length : 0;
}

export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  const data = obj(cm.data);
  const binary = obj(cm.binaryData);
  let total = 0;
  for (const k of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(k)) errs.push(fieldError.invalid(key('data', k), k, msg));
    if (Object.prototype.hasOwnProperty.call(binary, k)) errs.push(fieldError.invalid(key('data', k), k, 'duplicate of key present in binaryData'));
    total += byteLength(str(data[k]));
  }
  for (const k of Object.keys(binary).sort()) {
    for (const msg of isConfigMapKey(k)) errs.push(fieldError.invalid(key('binaryData', k), k, msg));
    total += base64Length(binary[k]);
  }
  // Kubernetes reports the size on the empty path, which its Status renders as "[]".
  if (total > MaxSecretSize) errs.push(fieldError.tooLong('[]', MaxSecretSize));
  return errs;
}

export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
    if (!semanticEqual(cm.data, old.data)) errs.push(fieldError.forbidden('data', 'field is immutable when `immutable` is set'));
    if (!semanticEqual(cm.binaryData, old.binaryData)) errs.push(fieldError.forbidden('binaryData', 'field is immutable when `immutable` is set'));
  }
  errs.push(...validateConfigMap(cm));
  return errs;
}

export const configMapStrategy: ResourceStrategy<ConfigMap> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (cm) => validateConfigMap(cm),
  validateUpdate: (cm, old) => validateConfigMapUpdate(cm, old),
};

const keyCount = (map: unknown) => Object.keys(fmt.obj(map)).length;

const configMapPrinter: TablePrinter = {
  columns: [nameColumn, column('Data', 'integer', 'Number of keys in data and binaryData.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), keyCount(o.data) + keyCount(o.binaryData), fmt.ageCell(o, now)],
};

export const configMapModule: KindModule = { group: '', kind: 'ConfigMap', strategy: configMapStrategy, printer: configMapPrinter };
