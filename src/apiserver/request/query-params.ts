// The query parameters kube-apiserver decodes generically (its ParameterCodec into ListOptions and
// GetOptions, and the request-deadline filter), with Kubernetes' answers to bad values:
// - ListOptions' integers (limit, timeoutSeconds) are Go's strconv.ParseInt of the first value:
//   "abc", "" or an overflow is a 400 BadRequest carrying strconv's own message. Booleans never
//   fail (only "0" and "false" are false). Parameters ListOptions no longer has — `export`,
//   `exact` (gone in 1.18) and `includeUninitialized` (gone in 1.14) — are ignored.
// - A GET of one object still refuses a true `export` (400), as 1.33's GetResource does.
// - `timeout` (a Go duration) bounds a request that is not long-running; unset or 0, or above
//   the server's maximum, it is the maximum (--request-timeout, 60 s); malformed: 400.
import { DurationError, parseDuration } from '../../machinery/codec/time.js';
import { StatusError } from '../../machinery/status.js';
import { apiError } from '../../registry/errors.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Go's strconv.ParseInt(s, 10, 64), throwing its error text. */
export function goParseInt64(s: string): bigint {
  const quoted = JSON.stringify(s);
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.ParseInt: parsing ${quoted}: invalid syntax`);
  const n = BigInt(s);
  if (n < INT64_MIN || n > INT64_MAX) throw new Error(`strconv.ParseInt: parsing ${quoted}: value out of range`);
  return n;
}

/** A ListOptions int64 parameter: undefined when absent, else its first value parsed (400 when it does not parse). */
export function int64Param(query: URLSearchParams, name: string): bigint | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  try {
    return goParseInt64(values[0]!);
  } catch (err) {
    throw apiError.badRequest((err as Error).message);
  }
}

/** Seconds of a list's or watch's `timeoutSeconds` (undefined: not given). */
export function timeoutSecondsOf(query: URLSearchParams): number | undefined {
  const n = int64Param(query, 'timeoutSeconds');
  return n === undefined ? undefined : Number(n);
}

/** Kubernetes' Convert_Slice_string_To_bool: only "0" and "false" (any case) of the first value are false. */
function queryBool(values: string[]): boolean {
  const v = values[0];
  return v === undefined ? false : !(v === '0' || v.toLowerCase() === 'false');
}

/** GetResource's check: `export`, removed in 1.18, is refused unless it reads as false. */
export function refuseExport(query: URLSearchParams): void {
  const values = query.getAll('export');
  if (values.length > 0 && queryBool(values)) throw apiError.badRequest('the export parameter, deprecated since v1.14, is no longer supported');
}

/** kube-apiserver's --request-timeout default. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** The deadline of a non-long-running request from `timeout` (ms), as the request-deadline filter computes it. */
export function requestTimeoutMs(query: URLSearchParams, maximumMs = REQUEST_TIMEOUT_MS): number {
  const value = query.get('timeout') ?? '';
  if (value === '') return maximumMs;
  let ns: bigint;
  try {
    ns = parseDuration(value);
  } catch (err) {
    if (err instanceof DurationError) throw apiError.badRequest(`invalid timeout specified in the request URL - ${err.message}`);
    throw err;
  }
  const ms = Number(ns / 1_000_000n);
  return ns > 0n && ms < maximumMs ? Math.max(ms, 1) : maximumMs;
}

/** What kube-apiserver's timeout filter answers a request that passed its deadline. */
export function requestTimedOut(): StatusError {
  return new StatusError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', { details: {} });
}

/**
 * `work`, or a 504 Timeout when it has not finished by the request's deadline (what kube-apiserver's
 * timeout filter answers; the work's own result is then dropped, as there).
 */
export async function withinDeadline<T>(timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(requestTimedOut()), timeoutMs);
  });
  work.catch(() => undefined); // a late failure after the 504 is nobody's to report
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
