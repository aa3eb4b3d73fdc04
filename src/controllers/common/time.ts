// Times as the API writes them (metav1.Time: RFC 3339, seconds precision) and back.

/** Milliseconds of an RFC 3339 time, 0 for none. */
export function timeMs(t: unknown): number {
  if (typeof t !== 'string' || t === '') return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

/** metav1.Time's JSON form: RFC 3339 with seconds precision, UTC. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
