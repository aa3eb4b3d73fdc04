// batch/v1 CronJob: pkg/apis/batch/validation and pkg/registry/batch/cronjob/strategy.go: a valid
// schedule and time zone, a concurrency policy, and a job template whose selector the controller
// generates.
import { nameOf } from '../../../../api/meta/object.js';
import type { CronJob } from '../../../../api/types.js';
import { DNS1035LabelMaxLength } from '../../../../machinery/validation/names.js';
import { child, isObj, obj, optNum, str, validateNonnegativeField, type Obj } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { goLabelSelector, rawError } from '../../../../machinery/validation/go-syntax.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { cronScheduleError, isKnownTimeZone } from '../../../../machinery/cron.js';
import { podWarnings } from '../../pod-template-warnings.js';
import { cloneJson } from '../../../meta.js';
import { validateJobSpecCommon } from '../job-spec.js';

function validateTimeZone(tz: unknown, path: string): FieldError[] {
  if (typeof tz !== 'string') return [];
  if (tz === '') return [fieldError.invalid(path, tz, 'timeZone must be nil or non-empty string')];
  const errs: FieldError[] = [];
  if (tz.toLowerCase() === 'local') errs.push(fieldError.invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (!isKnownTimeZone(tz)) errs.push(fieldError.invalid(path, tz, `unknown time zone ${tz}`));
  return errs;
}

function validateCronJobSpec(spec: Obj, oldSpec: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = str(spec.schedule);
  if (schedule === '') errs.push(fieldError.required('spec.schedule'));
  else {
    const err = cronScheduleError(schedule);
    if (err) errs.push(fieldError.invalid('spec.schedule', schedule, err));
    if (schedule.includes('TZ') && typeof spec.timeZone === 'string') errs.push(fieldError.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  const sds = optNum(spec.startingDeadlineSeconds);
  if (sds !== undefined) errs.push(...validateNonnegativeField(sds, 'spec.startingDeadlineSeconds'));
  if (!oldSpec || oldSpec.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, 'spec.timeZone'));
  const cp = str(spec.concurrencyPolicy);
  if (cp === '') errs.push(fieldError.required('spec.concurrencyPolicy'));
  else if (!['Allow', 'Forbid', 'Replace'].includes(cp)) errs.push(fieldError.notSupported('spec.concurrencyPolicy', cp, ['Allow', 'Forbid', 'Replace']));
  const jobSpec = obj(obj(spec.jobTemplate).spec);
  errs.push(...validateJobSpecCommon(jobSpec, 'spec.jobTemplate.spec'));
  if (isObj(jobSpec.selector)) errs.push(rawError('FieldValueInvalid', 'spec.jobTemplate.spec.selector', goLabelSelector(jobSpec.selector), '`selector` will be auto-generated'));
  if (jobSpec.manualSelector === true) errs.push(fieldError.notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const v = optNum(spec[f]);
    if (v !== undefined) errs.push(...validateNonnegativeField(v, child('spec', f)));
  }
  return errs;
}

/** ValidateCronJobCreate minus ObjectMeta (names longer than 52 characters leave no room for the job suffix). */
export function validateCronJob(cj: Obj): FieldError[] {
  const errs = validateCronJobSpec(obj(cj.spec), undefined);
  const name = nameOf(cj);
  if (name.length > DNS1035LabelMaxLength - 11) errs.push(fieldError.invalid('metadata.name', name, 'must be no more than 52 characters'));
  return errs;
}

export const cronJobStrategy: ResourceStrategy<CronJob> = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (cj) => podWarnings(obj(obj(obj(obj(cj.spec).jobTemplate).spec).template), 'spec.jobTemplate.spec.template'),
  prepareForUpdate(cj, old) {
    cj.status = cloneJson(old.status);
  },
  validate: (cj) => validateCronJob(cj),
  validateUpdate: (cj, old) => validateCronJobSpec(obj(cj.spec), obj(old.spec)),
  prepareForStatusUpdate(cj, old) {
    cj.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: () => [],
};
