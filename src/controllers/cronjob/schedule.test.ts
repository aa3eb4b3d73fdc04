import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRFC3339In, parseSchedule, ScheduleError } from './schedule.js';

function nextTimes(spec: string, from: string, n: number, tz?: string): string[] {
  const s = parseSchedule(spec, tz);
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const next = s.next(t);
    if (next === undefined) {
      out.push('never');
      break;
    }
    out.push(formatRFC3339In(next, s.timeZone));
    t = next;
  }
  return out;
}

const cases: { name: string; spec: string; from: string; n: number; tz?: string; want: string[] }[] = [
  { name: 'steps', spec: '*/15 * * * *', from: '2026-01-01T00:07:00Z', n: 3, want: ['2026-01-01T00:15:00Z', '2026-01-01T00:30:00Z', '2026-01-01T00:45:00Z'] },
  { name: 'N/step is N-max/step', spec: '50/5 * * * *', from: '2026-01-01T00:00:00Z', n: 3, want: ['2026-01-01T00:50:00Z', '2026-01-01T00:55:00Z', '2026-01-01T01:50:00Z'] },
  { name: 'range with step', spec: '0 6-16/4 * * *', from: '2026-01-01T00:00:00Z', n: 4, want: ['2026-01-01T06:00:00Z', '2026-01-01T10:00:00Z', '2026-01-01T14:00:00Z', '2026-01-02T06:00:00Z'] },
  { name: '@hourly', spec: '@hourly', from: '2026-01-01T00:07:00Z', n: 2, want: ['2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z'] },
  { name: '@daily', spec: '@daily', from: '2026-01-01T00:00:00Z', n: 2, want: ['2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'] },
  { name: '@weekly (Sundays)', spec: '@weekly', from: '2026-01-01T00:00:00Z', n: 2, want: ['2026-01-04T00:00:00Z', '2026-01-11T00:00:00Z'] },
  { name: '@monthly', spec: '@monthly', from: '2026-01-15T00:00:00Z', n: 2, want: ['2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'] },
  { name: '@yearly', spec: '@yearly', from: '2026-01-15T00:00:00Z', n: 1, want: ['2027-01-01T00:00:00Z'] },
  { name: 'weekday names', spec: '0 9 * * mon-fri', from: '2026-01-02T10:00:00Z', n: 3, want: ['2026-01-05T09:00:00Z', '2026-01-06T09:00:00Z', '2026-01-07T09:00:00Z'] },
  { name: 'month names', spec: '0 0 1 jan,JUL *', from: '2026-01-02T00:00:00Z', n: 2, want: ['2026-07-01T00:00:00Z', '2027-01-01T00:00:00Z'] },
  { name: 'day of month OR day of week when both are restricted', spec: '0 0 1,15 * wed', from: '2026-01-01T00:00:00Z', n: 4, want: ['2026-01-07T00:00:00Z', '2026-01-14T00:00:00Z', '2026-01-15T00:00:00Z', '2026-01-21T00:00:00Z'] },
  { name: '*/2 day of month is not a star: OR with the weekday', spec: '0 0 */10 * sun', from: '2026-01-01T12:00:00Z', n: 3, want: ['2026-01-04T00:00:00Z', '2026-01-11T00:00:00Z', '2026-01-18T00:00:00Z'] },
  { name: 'February 29th', spec: '0 0 29 feb *', from: '2026-01-01T00:00:00Z', n: 1, want: ['2028-02-29T00:00:00Z'] },
  { name: 'never (31 February)', spec: '59 23 31 2 *', from: '2026-01-01T00:00:00Z', n: 1, want: ['never'] },
  { name: '@every', spec: '@every 1m30s', from: '2026-01-01T00:00:10Z', n: 2, want: ['2026-01-01T00:01:40Z', '2026-01-01T00:03:10Z'] },
  // Time zones and DST: a wall time in the spring-forward gap is skipped that day, the repeated
  // hour of the fall-back runs twice (robfig/cron's behaviour, so Kubernetes').
  { name: 'time zone: 9:00 New York', spec: '0 9 * * *', tz: 'America/New_York', from: '2026-01-01T00:00:00Z', n: 1, want: ['2026-01-01T09:00:00-05:00'] },
  { name: 'DST spring forward skips 2:30', spec: '30 2 * * *', tz: 'America/New_York', from: '2026-03-07T00:00:00Z', n: 3, want: ['2026-03-07T02:30:00-05:00', '2026-03-09T02:30:00-04:00', '2026-03-10T02:30:00-04:00'] },
  { name: 'DST across the change keeps wall time', spec: '0 9 * * *', tz: 'America/New_York', from: '2026-03-07T15:00:00Z', n: 2, want: ['2026-03-08T09:00:00-04:00', '2026-03-09T09:00:00-04:00'] },
  { name: 'DST fall back repeats 1:30', spec: '30 1 * * *', tz: 'America/New_York', from: '2026-10-31T12:00:00Z', n: 3, want: ['2026-11-01T01:30:00-04:00', '2026-11-01T01:30:00-05:00', '2026-11-02T01:30:00-05:00'] },
  { name: 'hourly across Berlin spring forward', spec: '0 * * * *', tz: 'Europe/Berlin', from: '2026-03-29T00:30:00Z', n: 2, want: ['2026-03-29T03:00:00+02:00', '2026-03-29T04:00:00+02:00'] },
  { name: 'TZ= prefix', spec: 'TZ=Asia/Kolkata 0 0 * * *', from: '2026-01-01T00:00:00Z', n: 1, want: ['2026-01-02T00:00:00+05:30'] },
];

for (const c of cases) {
  test(`cron schedule: ${c.name}`, () => {
    assert.deepEqual(nextTimes(c.spec, c.from, c.n, c.tz), c.want);
  });
}

test('cron schedule: robfig errors', () => {
  assert.throws(() => parseSchedule('* * * *'), (e: unknown) => e instanceof ScheduleError && /expected exactly 5 fields, found 4/.test((e as Error).message));
  assert.throws(() => parseSchedule('61 * * * *'), /end of range \(61\) above maximum \(59\): 61/);
  assert.throws(() => parseSchedule('TZ=Mars/Olympus * * * * *'), /unknown time zone Mars\/Olympus/);
  assert.throws(() => parseSchedule('@fortnightly'), /unrecognized descriptor: @fortnightly/);
});
