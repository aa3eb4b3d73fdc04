// PodLogOptions (core/v1) as the API server's pods/log and the kubelet's /containerLogs read them
// from a query: decoded as Kubernetes' parameter codec decodes query parameters (a bool is false
// only for 0/f/false/n/no, integers must parse, sinceTime is RFC 3339) and validated as
// ValidatePodLogOptions does. One implementation for both ends: the API server validates before
// forwarding, the simulated kubelet again on receipt, as the real pair does.
import { fieldError, type FieldError } from '../validation/field-errors.js';

export interface PodLogOptions {
  container?: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  /** Seconds before now from which lines are shown. */
  sinceSeconds?: number;
  /** Milliseconds since the epoch (RFC 3339 in the query). */
  sinceTime?: number;
  tailLines?: number;
  limitBytes?: number;
  insecureSkipTLSVerifyBackend: boolean;
  /** All, Stdout or Stderr (a simulated container writes one stream: its lines are stdout). */
  stream?: string;
}

/** A query value Kubernetes' codec cannot convert: answered 400 with this message. */
export class PodLogOptionsDecodeError extends Error {}

function bool(value: string | null): boolean {
  if (value === null) return false;
  const v = value.toLowerCase();
  return !(v === '0' || v === 'f' || v === 'false' || v === 'n' || v === 'no');
}

function int64(query: URLSearchParams, key: string): number | undefined {
  const v = query.get(key);
  if (v === null || v === '') return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw new PodLogOptionsDecodeError(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new PodLogOptionsDecodeError(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return n;
}

function rfc3339(query: URLSearchParams, key: string): number | undefined {
  const v = query.get(key);
  if (v === null || v === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) throw new PodLogOptionsDecodeError(`parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`);
  return ms;
}

/**
 * The options a query carries. `tail` is the kubelet's older name of tailLines (`all`: no limit),
 * honoured when `legacyTail` (the kubelet's /containerLogs does, the API server does not).
 */
export function decodePodLogOptions(query: URLSearchParams, legacyTail = false): PodLogOptions {
  let tailLines = int64(query, 'tailLines');
  if (legacyTail) {
    const tail = query.get('tail');
    if (tail !== null && tail !== '') tailLines = tail === 'all' ? undefined : int64(new URLSearchParams({ tail }), 'tail');
  }
  const container = query.get('container');
  const stream = query.get('stream');
  const sinceSeconds = int64(query, 'sinceSeconds');
  const sinceTime = rfc3339(query, 'sinceTime');
  const limitBytes = int64(query, 'limitBytes');
  return {
    ...(container !== null && container !== '' ? { container } : {}),
    follow: bool(query.get('follow')),
    previous: bool(query.get('previous')),
    timestamps: bool(query.get('timestamps')),
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTime !== undefined ? { sinceTime } : {}),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
    insecureSkipTLSVerifyBackend: bool(query.get('insecureSkipTLSVerifyBackend')),
    ...(stream !== null && stream !== '' ? { stream } : {}),
  };
}

export const LOG_STREAMS = ['All', 'Stdout', 'Stderr'] as const;

/** Kubernetes' ValidatePodLogOptions. */
export function validatePodLogOptions(o: PodLogOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (o.tailLines !== undefined && o.tailLines < 0) errs.push(fieldError.invalid('tailLines', o.tailLines, 'must be greater than or equal to 0'));
  if (o.limitBytes !== undefined && o.limitBytes < 1) errs.push(fieldError.invalid('limitBytes', o.limitBytes, 'must be greater than 0'));
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined) errs.push(fieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1) errs.push(fieldError.invalid('sinceSeconds', o.sinceSeconds, 'must be greater than 0'));
  if (o.stream !== undefined) {
    if (!(LOG_STREAMS as readonly string[]).includes(o.stream)) errs.push(fieldError.notSupported('stream', o.stream, LOG_STREAMS));
    else if (o.stream !== 'All' && o.tailLines !== undefined) errs.push(fieldError.forbidden('', "`tailLines` and specific `stream` are mutually exclusive for now"));
  }
  return errs;
}

/** The query the API server sends the kubelet for `o` (LogLocation's parameters). */
export function podLogQuery(o: PodLogOptions): URLSearchParams {
  const q = new URLSearchParams();
  if (o.follow) q.set('follow', 'true');
  if (o.previous) q.set('previous', 'true');
  if (o.timestamps) q.set('timestamps', 'true');
  if (o.sinceSeconds !== undefined) q.set('sinceSeconds', String(o.sinceSeconds));
  if (o.sinceTime !== undefined) q.set('sinceTime', new Date(o.sinceTime).toISOString().replace(/\.\d+Z$/, 'Z'));
  if (o.tailLines !== undefined) q.set('tailLines', String(o.tailLines));
  if (o.limitBytes !== undefined) q.set('limitBytes', String(o.limitBytes));
  if (o.stream !== undefined) q.set('stream', o.stream);
  return q;
}

/** Go's time.RFC3339Nano of a millisecond time, in UTC: trailing zeros of the fraction dropped. */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z').replace(/\.Z$/, 'Z');
}
