// Reading the controller manager's options record (camelCase keys of seed 001's flags) with
// defaults, whatever form the daemon stored a value in.
import { parseDuration } from '../../machinery/codec/time.js';

type Options = Readonly<Record<string, unknown>>;

export function intOption(options: Options, key: string, dflt: number): number {
  const v = options[key];
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Math.trunc(Number(v));
  return dflt;
}

/** A string option, '' when unset or not a string. */
export function stringOption(options: Options, key: string): string {
  const v = options[key];
  return typeof v === 'string' ? v : '';
}

export function boolOption(options: Options, key: string, dflt: boolean): boolean {
  const v = options[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return dflt;
}

/**
 * A duration option in milliseconds: a Go duration string (`5m0s`), a bigint of nanoseconds, or a
 * number (milliseconds).
 */
export function durationOption(options: Options, key: string, dfltMs: number): number {
  const v = options[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v / 1_000_000n);
  if (typeof v === 'string') {
    try {
      return Number(parseDuration(v) / 1_000_000n);
    } catch {
      return dfltMs;
    }
  }
  if (typeof v === 'object' && v !== null) {
    const o = v as { ms?: unknown; nanoseconds?: unknown };
    if (typeof o.ms === 'number') return o.ms;
  }
  return dfltMs;
}
