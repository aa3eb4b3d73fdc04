// CronJob schedules as kube-controller-manager computes them: a port of github.com/robfig/cron/v3's
// ParseStandard and SpecSchedule.Next (five fields with ranges, steps, lists, month and weekday
// names, `?`, the @yearly…@hourly descriptors, `@every <duration>`, a `TZ=`/`CRON_TZ=` prefix).
// Next walks wall-clock fields in the schedule's IANA time zone the way robfig does with Go's
// time.Date (so DST gaps and repeats behave as in Kubernetes), with zone offsets from Intl.
//
// Why not an npm cron parser: the parsing already is robfig's (src/machinery/cron.ts, whose
// ranges and error texts this builds on), and what matters to a CronJob is the exact instants robfig
// picks — the day-of-month/day-of-week star rule, the DST adjustments, the 5-year search limit —
// which cron-parser/croner do not promise; this port is ~200 lines without dependencies.
import { CronError, dom as DOM, dow as DOW, hours as HOURS, isKnownTimeZone, minutes as MINUTES, months as MONTHS, parseCron, type Bounds, type CronRange } from '../../machinery/cron.js';

interface Field {
  bits: boolean[];
  /** robfig's starBit: the field was `*` or `?` (without a step above 1). */
  star: boolean;
}

export interface Schedule {
  /** The first activation strictly after `ms` (epoch ms, second precision), undefined if none within 5 years. */
  next(ms: number): number | undefined;
  readonly timeZone: string;
}

const SECONDS: Bounds = { min: 0, max: 59 };

function emptyField(b: Bounds): Field {
  return { bits: new Array<boolean>(b.max + 1).fill(false), star: false };
}

function rangeField(b: Bounds, start: number, end: number, step: number, star: boolean, into = emptyField(b)): Field {
  for (let i = start; i <= end; i += step) into.bits[i] = true;
  if (star) into.star = true;
  return into;
}

const all = (b: Bounds): Field => rangeField(b, b.min, b.max, 1, true);
const one = (b: Bounds, v: number): Field => rangeField(b, v, v, 1, false);

/** The bits of one field from its parsed parts. */
function fieldOf(b: Bounds, ranges: readonly CronRange[]): Field {
  const f = emptyField(b);
  for (const r of ranges) rangeField(b, r.start, r.end, r.step, r.star, f);
  return f;
}

// ---- time zones ----

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The zone's offset from UTC at the instant `ms`, in ms. */
export function zoneOffsetMs(tz: string, ms: number): number {
  if (tz === 'UTC' || tz === '') return 0;
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wallAsUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
  return wallAsUtc - Math.floor(ms / 1000) * 1000;
}

interface Wall {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  wd: number;
}

function wall(ms: number, tz: string): Wall {
  const d = new Date(ms + zoneOffsetMs(tz, ms));
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), wd: d.getUTCDay() };
}

/** Go's time.Date(y, mo, d, h, mi, s, 0, loc): fields normalised, a wall time in a DST gap or repeat resolved as Go does. */
export function fromWall(tz: string, y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const local = Date.UTC(y, mo - 1, d, h, mi, s);
  const off1 = zoneOffsetMs(tz, local);
  if (off1 === 0) return local;
  const utc = local - off1;
  const off2 = zoneOffsetMs(tz, utc);
  return off2 === off1 ? utc : local - off2;
}

/** Go's t.In(loc).Format(time.RFC3339): seconds precision, `Z` for a zero offset. */
export function formatRFC3339In(ms: number, tz: string): string {
  const off = zoneOffsetMs(tz, ms);
  const base = new Date(Math.floor(ms / 1000) * 1000 + off).toISOString().slice(0, 19);
  if (off === 0) return `${base}Z`;
  const abs = Math.abs(off) / 60000;
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${base}${off < 0 ? '-' : '+'}${hh}:${mm}`;
}

// ---- schedules ----

class SpecSchedule implements Schedule {
  constructor(
    readonly timeZone: string,
    private readonly second: Field,
    private readonly minute: Field,
    private readonly hour: Field,
    private readonly dom: Field,
    private readonly month: Field,
    private readonly dow: Field,
  ) {}

  private dayMatches(w: Wall): boolean {
    const domMatch = this.dom.bits[w.d] === true;
    const dowMatch = this.dow.bits[w.wd] === true;
    if (this.dom.star || this.dow.star) return domMatch && dowMatch;
    return domMatch || dowMatch;
  }

  next(from: number): number | undefined {
    const tz = this.timeZone;
    let t = Math.floor(from / 1000) * 1000 + 1000;
    let added = false;
    const yearLimit = wall(t, tz).y + 5;
    wrap: for (;;) {
      let w = wall(t, tz);
      if (w.y > yearLimit) return undefined;
      while (!this.month.bits[w.mo]) {
        if (!added) {
          added = true;
          t = fromWall(tz, w.y, w.mo, 1, 0, 0, 0);
          w = wall(t, tz);
        }
        t = fromWall(tz, w.y, w.mo + 1, w.d, w.h, w.mi, w.s);
        w = wall(t, tz);
        if (w.mo === 1) continue wrap;
      }
      while (!this.dayMatches(w)) {
        if (!added) {
          added = true;
          t = fromWall(tz, w.y, w.mo, w.d, 0, 0, 0);
          w = wall(t, tz);
        }
        t = fromWall(tz, w.y, w.mo, w.d + 1, w.h, w.mi, w.s);
        w = wall(t, tz);
        // Notice if the hour is no longer midnight due to DST.
        if (w.h !== 0) {
          t += (w.h > 12 ? 24 - w.h : -w.h) * 3_600_000;
          w = wall(t, tz);
        }
        if (w.d === 1) continue wrap;
      }
      while (!this.hour.bits[w.h]) {
        if (!added) {
          added = true;
          t = fromWall(tz, w.y, w.mo, w.d, w.h, 0, 0);
        }
        t += 3_600_000;
        w = wall(t, tz);
        if (w.h === 0) continue wrap;
      }
      while (!this.minute.bits[w.mi]) {
        if (!added) {
          added = true;
          t = Math.floor(t / 60_000) * 60_000;
        }
        t += 60_000;
        w = wall(t, tz);
        if (w.mi === 0) continue wrap;
      }
      while (!this.second.bits[w.s]) {
        if (!added) {
          added = true;
          t = Math.floor(t / 1000) * 1000;
        }
        t += 1000;
        w = wall(t, tz);
        if (w.s === 0) continue wrap;
      }
      return t;
    }
  }
}

/** robfig's ConstantDelaySchedule (`@every`): whole seconds, at least one. */
class ConstantDelaySchedule implements Schedule {
  constructor(
    readonly timeZone: string,
    private readonly delayMs: number,
  ) {}
  next(from: number): number {
    return Math.floor(from / 1000) * 1000 + this.delayMs;
  }
}

/** Go's time.ParseDuration, for the validated `@every` argument. */
function goDurationMs(s: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(m[1]) * units[m[2]!]!;
  return s.startsWith('-') ? -total : total;
}

export class ScheduleError extends Error {}

/**
 * cron.ParseStandard. `timeZone` is the location a schedule without a TZ= prefix runs in (the
 * controller passes spec.timeZone as a prefix, as Kubernetes does; default UTC). Throws a
 * ScheduleError with robfig's text for a bad schedule.
 */
export function parseSchedule(spec: string, timeZone = 'UTC'): Schedule {
  let parsed;
  try {
    parsed = parseCron(spec);
  } catch (e) {
    if (e instanceof CronError) throw new ScheduleError(e.message);
    throw e;
  }
  let tz = parsed.timeZone ?? timeZone;
  if (tz === 'Local' || tz === '') tz = 'UTC';
  if (!isKnownTimeZone(tz)) throw new ScheduleError(`provided bad location ${tz}: unknown time zone ${tz}`);
  const sec0 = one(SECONDS, 0);
  if (parsed.descriptor !== undefined) {
    switch (parsed.descriptor) {
      case '@yearly':
      case '@annually':
        return new SpecSchedule(tz, sec0, one(MINUTES, 0), one(HOURS, 0), one(DOM, 1), one(MONTHS, 1), all(DOW));
      case '@monthly':
        return new SpecSchedule(tz, sec0, one(MINUTES, 0), one(HOURS, 0), one(DOM, 1), all(MONTHS), all(DOW));
      case '@weekly':
        return new SpecSchedule(tz, sec0, one(MINUTES, 0), one(HOURS, 0), all(DOM), all(MONTHS), one(DOW, 0));
      case '@daily':
      case '@midnight':
        return new SpecSchedule(tz, sec0, one(MINUTES, 0), one(HOURS, 0), all(DOM), all(MONTHS), all(DOW));
      case '@hourly':
        return new SpecSchedule(tz, sec0, one(MINUTES, 0), all(HOURS), all(DOM), all(MONTHS), all(DOW));
    }
    // @every <duration>, rounded down to whole seconds, at least one second.
    const ms = goDurationMs(parsed.descriptor.slice('@every '.length));
    return new ConstantDelaySchedule(tz, Math.max(1000, Math.floor(ms / 1000) * 1000));
  }
  const [mi, h, d, mo, w] = parsed.fields;
  return new SpecSchedule(tz, sec0, fieldOf(MINUTES, mi!), fieldOf(HOURS, h!), fieldOf(DOM, d!), fieldOf(MONTHS, mo!), fieldOf(DOW, w!));
}
