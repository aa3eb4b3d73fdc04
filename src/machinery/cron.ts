// CronJob schedules as Kubernetes parses them (github.com/robfig/cron/v3's ParseStandard: five
// fields — minute, hour, day of month, month, day of week — with ranges, steps, lists, month and
// weekday names, `?`, the @yearly/@annually/@monthly/@weekly/@daily/@midnight/@hourly/@every
// descriptors and a `TZ=`/`CRON_TZ=` prefix). Errors are robfig's texts, which Kubernetes puts in
// the field error's detail. Parsing only: computing run times belongs to the CronJob controller,
// which builds its schedule from what `parseCron` returns.

export interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

export const minutes: Bounds = { min: 0, max: 59 };
export const hours: Bounds = { min: 0, max: 23 };
export const dom: Bounds = { min: 1, max: 31 };
export const months: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
export const dow: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** robfig's error, its text as Kubernetes shows it. */
export class CronError extends Error {}

/** One comma-separated part of a field: every `step`-th value from `start` to `end`. */
export interface CronRange {
  start: number;
  end: number;
  step: number;
  /** robfig's starBit: the part was `*` or `?` without a step above 1. */
  star: boolean;
}

/** A parsed spec: its TZ=/CRON_TZ= zone if any, and a descriptor (`@daily`, `@every 5m`) or the five fields (minute, hour, day of month, month, day of week). */
export type ParsedCron = { timeZone: string | undefined } & ({ descriptor: string; fields?: undefined } | { descriptor?: undefined; fields: CronRange[][] });

/** Go's strconv.Atoi error text. */
function atoiError(s: string): string {
  const digits = /^[+-]?\d+$/.test(s);
  return `strconv.Atoi: parsing ${JSON.stringify(s)}: ${digits ? 'value out of range' : 'invalid syntax'}`;
}

function mustParseInt(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr) || Math.abs(Number(expr)) > Number.MAX_SAFE_INTEGER) {
    throw new CronError(`failed to parse int from ${expr}: ${atoiError(expr)}`);
  }
  const num = Number(expr);
  if (num < 0) throw new CronError(`negative number (${num}) not allowed: ${expr}`);
  return num;
}

function parseIntOrName(expr: string, names: Record<string, number> | undefined): number {
  const named = names?.[expr.toLowerCase()];
  return named !== undefined ? named : mustParseInt(expr);
}

function getRange(expr: string, r: Bounds): CronRange {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step: number;
  if (rangeAndStep.length === 1) step = 1;
  else if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    // "N/step" means "N-max/step".
    if (singleDigit) end = r.max;
    if (step > 1) star = false;
  } else throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
  return { start, end, step, star };
}

function getField(field: string, r: Bounds): CronRange[] {
  return field.split(',').map((expr) => getRange(expr, r));
}

/** Go's time.ParseDuration for the @every descriptor ("1h30m", "90s", "1.5h"). */
function isGoDuration(s: string): boolean {
  if (s === '0') return true;
  return /^[+-]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(s);
}

/** A time zone Go's time.LoadLocation accepts ("UTC", "Local", IANA names). */
export function isKnownTimeZone(tz: string): boolean {
  if (tz === '' || tz === 'UTC' || tz === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return false;
  }
  // Intl accepts any letter case; Go (which opens zoneinfo files) does not.
  const supported = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone');
  if (supported && !supported.includes(tz)) {
    const lower = tz.toLowerCase();
    if (supported.some((z) => z.toLowerCase() === lower)) return false;
  }
  return true;
}

function parseDescriptor(descriptor: string): void {
  switch (descriptor) {
    case '@yearly':
    case '@annually':
    case '@monthly':
    case '@weekly':
    case '@daily':
    case '@midnight':
    case '@hourly':
      return;
  }
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const d = descriptor.slice(every.length);
    if (!isGoDuration(d)) throw new CronError(`failed to parse duration ${descriptor}: time: invalid duration ${JSON.stringify(d)}`);
    return;
  }
  throw new CronError(`unrecognized descriptor: ${descriptor}`);
}

/** cron.ParseStandard's parse; throws a CronError with robfig's text. */
export function parseCron(spec: string): ParsedCron {
  if (spec.length === 0) throw new CronError('empty spec string');
  let s = spec;
  let timeZone: string | undefined;
  if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) {
    const i = s.indexOf(' ');
    const eq = s.indexOf('=');
    timeZone = i < 0 ? s.slice(eq + 1) : s.slice(eq + 1, i);
    if (!isKnownTimeZone(timeZone)) throw new CronError(`provided bad location ${timeZone}: unknown time zone ${timeZone}`);
    s = i < 0 ? '' : s.slice(i).trim();
  }
  if (s.startsWith('@')) {
    parseDescriptor(s);
    return { timeZone, descriptor: s };
  }
  const fields = s.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  return { timeZone, fields: [getField(fields[0]!, minutes), getField(fields[1]!, hours), getField(fields[2]!, dom), getField(fields[3]!, months), getField(fields[4]!, dow)] };
}

/** cron.ParseStandard: undefined when the schedule parses, else robfig's error text. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    parseCron(spec);
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
