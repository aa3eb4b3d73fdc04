// Secret: ValidateSecret / ValidateSecretUpdate (keys, 1 MiB, type-specific keys, immutability)
// and the strategy (stringData merged into data on every write, type kept when omitted).
import { mergeSecretStringData } from '../../../api/core/v1/defaults-other.js';
import type { Secret } from '../../../api/types.js';
import { annotationsOf } from '../../../api/meta/object.js';
import { child, key, obj, semanticEqual, str, validateImmutableField } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isConfigMapKey } from '../../../machinery/validation/names.js';
import type { ResourceStrategy } from '../../strategy.js';
import { base64Length, MaxSecretSize } from './configmap.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import { fieldAt, fieldLabelErrors, META_FIELD_LABELS } from '../../../machinery/selectors/index.js';

const decoded = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : '', 'base64');

/** The error Go's encoding/json reports unmarshalling `text` into a map[string]interface{}, if any. */
export function goJSONObjectError(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 'unexpected end of JSON input';
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    const first = trimmed[0]!;
    if (!'{["-0123456789tfn'.includes(first)) return `invalid character '${first}' looking for beginning of value`;
    return 'unexpected end of JSON input';
  }
  if (Array.isArray(value)) return 'json: cannot unmarshal array into Go value of type map[string]interface {}';
  if (value === null) return undefined;
  if (typeof value === 'string') return 'json: cannot unmarshal string into Go value of type map[string]interface {}';
  if (typeof value === 'number') return 'json: cannot unmarshal number into Go value of type map[string]interface {}';
  if (typeof value === 'boolean') return 'json: cannot unmarshal bool into Go value of type map[string]interface {}';
  return undefined;
}

export function validateSecret(secret: Secret): FieldError[] {
  const errs: FieldError[] = [];
  const data = obj(secret.data);
  const has = (k: string) => Object.prototype.hasOwnProperty.call(data, k);
  let total = 0;
  for (const k of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(k)) errs.push(fieldError.invalid(key('data', k), k, msg));
    total += base64Length(data[k]);
  }
  if (total > MaxSecretSize) errs.push(fieldError.tooLong('data', MaxSecretSize));
  const type = str(secret.type);
  switch (type) {
    case 'kubernetes.io/service-account-token': {
      const name = str(annotationsOf(secret)['kubernetes.io/service-account.name']);
      if (!name) errs.push(fieldError.required(key(child('metadata', 'annotations'), 'kubernetes.io/service-account.name')));
      break;
    }
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const k = type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(k)) {
        errs.push(fieldError.required(key('data', k)));
        break;
      }
      const err = goJSONObjectError(decoded(data[k]).toString('utf8'));
      if (err) errs.push(fieldError.invalid(key('data', k), '<secret contents redacted>', err));
      break;
    }
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) {
        errs.push(fieldError.required(key('data', 'username')), fieldError.required(key('data', 'password')));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (decoded(data['ssh-privatekey']).length === 0) errs.push(fieldError.required(key('data', 'ssh-privatekey')));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(fieldError.required(key('data', 'tls.crt')));
      if (!has('tls.key')) errs.push(fieldError.required(key('data', 'tls.key')));
      break;
    default:
  }
  return errs;
}

export function validateSecretUpdate(secret: Secret, old: Secret): FieldError[] {
  const errs = validateImmutableField(str(secret.type), str(old.type), 'type');
  if (old.immutable === true) {
    if (secret.immutable !== true) errs.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
    if (!semanticEqual(secret.data, old.data)) errs.push(fieldError.forbidden('data', 'field is immutable when `immutable` is set'));
  }
  errs.push(...validateSecret(secret));
  return errs;
}

export const secretStrategy: ResourceStrategy<Secret> = {
  hasStatus: false,
  tracksGeneration: false,
  prepareForCreate(secret) {
    mergeSecretStringData(secret);
  },
  prepareForUpdate(secret, old) {
    mergeSecretStringData(secret);
    if (str(secret.type) === '') secret.type = old.type;
  },
  validate: (secret) => validateSecret(secret),
  validateUpdate: (secret, old) => validateSecretUpdate(secret, old),
};

const secretPrinter: TablePrinter = {
  columns: [nameColumn, column('Type', 'string', 'The type of the secret.'), column('Data', 'integer', 'Number of keys in data.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), fmt.str(o.type), Object.keys(fmt.obj(o.data)).length, fmt.ageCell(o, now)],
};

export const secretModule: KindModule = {
  group: '',
  kind: 'Secret',
  strategy: secretStrategy,
  printer: secretPrinter,
  selectableFields: { type: fieldAt.string('type') },
  fieldLabels: () => ({ labels: ['type', ...META_FIELD_LABELS], error: fieldLabelErrors.notSupported }),
};
