import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cronScheduleError, isKnownTimeZone } from '../../../../machinery/cron.js';
import { create, created, edit, lines, OBJECTS, readJSON, updateErrors } from '../../kinds.testutil.js';

const cronJob = readJSON(`${OBJECTS}/CronJob.minimal.request.json`);
const errorsOf = (obj: Record<string, unknown>, fn: (o: any) => void): string[] => lines(create(edit(obj, fn)).errors);

test('cron schedules: what robfig/cron ParseStandard accepts, and its errors', () => {
  for (const ok of ['* * * * *', '*/5 * * * *', '0 0 1 jan *', '0 9-17/2 * * MON-FRI', '15,45 */2 1-15 1,6 0', '@hourly', '@every 1h30m', '0 0 ? * *', 'TZ=UTC 0 3 * * *', 'CRON_TZ=Europe/Berlin 0 3 * * *']) {
    assert.equal(cronScheduleError(ok), undefined, ok);
  }
  const cases: [string, string][] = [
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['* * * foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every soon', 'failed to parse duration @every soon: time: invalid duration "soon"'],
    ['TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
  ];
  for (const [spec, want] of cases) assert.equal(cronScheduleError(spec), want, spec);
  assert.ok(isKnownTimeZone('America/New_York'));
  assert.ok(!isKnownTimeZone('america/new_york'), 'Go opens zoneinfo files by their exact name');
});

test('cronjobs: schedule, time zone, concurrency policy, job template, history limits, name length', () => {
  assert.deepEqual(errorsOf(cronJob, () => {}), []);
  assert.deepEqual(
    errorsOf(cronJob, (c) => {
      c.metadata.name = 'c'.repeat(53);
      c.spec.schedule = '61 * * * *';
      c.spec.timeZone = 'Local';
      c.spec.concurrencyPolicy = 'Sometimes';
      c.spec.successfulJobsHistoryLimit = -1;
      c.spec.jobTemplate.spec.selector = { matchLabels: { a: 'b' } };
    }),
    [
      'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      `metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`,
    ],
  );
  assert.deepEqual(errorsOf(cronJob, (c) => (c.spec.timeZone = 'Nowhere/Special')), ['spec.timeZone: Invalid value: "Nowhere/Special": unknown time zone Nowhere/Special']);
  assert.deepEqual(
    errorsOf(cronJob, (c) => {
      c.spec.schedule = 'TZ=UTC 0 * * * *';
      c.spec.timeZone = 'UTC';
    }),
    ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule'],
  );
  assert.deepEqual(errorsOf(cronJob, (c) => (c.spec.jobTemplate.spec.template.spec.restartPolicy = 'Always')), [
    'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
  ]);
  const old = created('CronJob.minimal.created.json');
  assert.deepEqual(updateErrors(edit(old, (c) => (c.spec.schedule = '*/10 * * * *')), old), []);
  assert.deepEqual(updateErrors(edit(old, (c) => (c.metadata.name = 'x'.repeat(60))), old), [], 'the name length is checked on create only');
});
