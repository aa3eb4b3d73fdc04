// LimitRange: ValidateLimitRange (pkg/apis/core/validation) and the columns of `kubectl get
// limits` (printLimitRange: NAME, CREATED AT). The LimitRanger admission plugin applies and
// enforces what a LimitRange says.
import type { LimitRange } from '../../../api/types.js';
import type { Quantity } from '../../../api/meta/quantity.js';
import { metadataOf } from '../../../api/meta/object.js';
import { child, index, key, list, obj, sortedKeys, str } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isQualifiedName } from '../../../machinery/validation/names.js';
import type { KindModule } from '../../kind-module.js';
import { metaOf } from '../../meta.js';
import { goQuantity, isOvercommitAllowed, toQuantity, validateContainerResourceName, validateResourceName } from '../../podspec/resource-names.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';

const STANDARD_LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

function validateLimitType(value: string, path: string): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => fieldError.invalid(path, value, msg));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !STANDARD_LIMIT_TYPES.has(value)) return [fieldError.invalid(path, value, 'must be a standard limit type or fully qualified')];
  return [];
}

function validateLimitResourceName(type: string, name: string, path: string): FieldError[] {
  return type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, path) : validateResourceName(name, path);
}

/** Go's %f: six decimals. */
const goFloat = (v: number): string => (Number.isFinite(v) ? v.toFixed(6) : v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN');

/** resource.MaxMilliValue: the largest value whose milli value fits an int64. */
const MAX_MILLI_VALUE = 9223372036854775n;

export function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs: FieldError[] = [];
  const seenTypes = new Set<string>();
  list(lr.spec?.limits).forEach((item, i) => {
    const limit = obj(item);
    const type = str(limit.type);
    const p = index('spec.limits', i);
    errs.push(...validateLimitType(type, child(p, 'type')));
    if (seenTypes.has(type)) errs.push(fieldError.duplicate(child(p, 'type'), type));
    seenTypes.add(type);

    const keys = new Set<string>();
    // The text each quantity was written as: Go's messages print the amount as parsed from it.
    const raw = new Map<Quantity, unknown>();
    const read = (field: string): Map<string, Quantity> => {
      const m = new Map<string, Quantity>();
      const o = obj(limit[field]);
      for (const k of sortedKeys(o)) {
        errs.push(...validateLimitResourceName(type, k, key(child(p, field), k)));
        keys.add(k);
        const q = toQuantity(o[k]);
        if (q) {
          m.set(k, q);
          raw.set(q, o[k]);
        }
      }
      return m;
    };
    const max = read('max');
    const min = read('min');
    let defaults = new Map<string, Quantity>();
    let defaultRequests = new Map<string, Quantity>();
    if (type === 'Pod') {
      if (Object.keys(obj(limit.default)).length > 0) errs.push(fieldError.forbidden(child(p, 'default'), "may not be specified when `type` is 'Pod'"));
      if (Object.keys(obj(limit.defaultRequest)).length > 0) errs.push(fieldError.forbidden(child(p, 'defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      defaults = read('default');
      defaultRequests = read('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && !('storage' in obj(limit.min)) && !('storage' in obj(limit.max))) {
      errs.push(fieldError.required(child(p, 'limits'), 'either minimum or maximum storage value is required, but neither was provided'));
    }
    const ratios = read('maxLimitRequestRatio');

    for (const k of [...keys].sort()) {
      const mn = min.get(k);
      const mx = max.get(k);
      const def = defaults.get(k);
      const defReq = defaultRequests.get(k);
      const ratio = ratios.get(k);
      const bad = (field: string, q: Quantity, detail: string) => errs.push(fieldError.invalidRaw(key(child(p, field), k), goQuantity(q, raw.get(q)), detail));
      if (mn && mx && mn.cmp(mx) > 0) bad('min', mn, `min value ${mn} is greater than max value ${mx}`);
      if (defReq && mn && mn.cmp(defReq) > 0) bad('defaultRequest', defReq, `min value ${mn} is greater than default request value ${defReq}`);
      if (defReq && mx && defReq.cmp(mx) > 0) bad('defaultRequest', defReq, `default request value ${defReq} is greater than max value ${mx}`);
      if (defReq && def && defReq.cmp(def) > 0) bad('defaultRequest', defReq, `default request value ${defReq} is greater than default limit value ${def}`);
      if (def && mn && mn.cmp(def) > 0) bad('default', mn, `min value ${mn} is greater than default value ${def}`);
      if (def && mx && def.cmp(mx) > 0) bad('default', mx, `default value ${def} is greater than max value ${mx}`);
      if (ratio && ratio.cmp(toQuantity('1')!) < 0) bad('maxLimitRequestRatio', ratio, `ratio ${ratio} is less than 1`);
      if (ratio && mn && mx) {
        let ratioValue = Number(ratio.scaledValueBig(0));
        let minValue = mn.scaledValueBig(0);
        let maxValue = mx.scaledValueBig(0);
        if (ratio.scaledValueBig(0) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
          ratioValue = Number(ratio.scaledValueBig(-3)) / 1000;
          minValue = mn.scaledValueBig(-3);
          maxValue = mx.scaledValueBig(-3);
        }
        const limitRatio = Number(maxValue) / Number(minValue);
        if (ratioValue > limitRatio) bad('maxLimitRequestRatio', ratio, `ratio ${ratio} is greater than max/min = ${goFloat(limitRatio)}`);
      }
      // Resources that cannot be overcommitted (extended resources, hugepages) need default == defaultRequest.
      if (!isOvercommitAllowed(k) && def && defReq && def.cmp(defReq) !== 0) bad('defaultRequest', defReq, `default value ${def} must equal to defaultRequest value ${defReq} in ${k}`);
    }
  });
  return errs;
}

export const limitRangeStrategy: ResourceStrategy<LimitRange> = {
  hasStatus: false,
  tracksGeneration: false,
  // A PUT to a missing LimitRange creates it, as Kubernetes' strategy allows.
  allowCreateOnUpdate: true,
  prepareForCreate(lr, ctx) {
    // Kubernetes names a LimitRange sent without a name with a fresh UUID (before generateName).
    const meta = metaOf(lr);
    if (!meta.name) meta.name = ctx.newUid();
  },
  validate: (lr) => validateLimitRange(lr),
  validateUpdate: (lr) => validateLimitRange(lr),
};

const limitRangePrinter: TablePrinter = {
  columns: [nameColumn, column('Created At', 'date', ageColumn.description)],
  cells: (o) => [fmt.nameCell(o), metadataOf(o).creationTimestamp ?? null],
};

export const limitRangeModule: KindModule = { group: '', kind: 'LimitRange', strategy: limitRangeStrategy, printer: limitRangePrinter };
