// Formatting helpers shared by the table printers, matching what kubectl shows for Kubernetes.
import { metadataOf, nameOf } from '../../api/meta/object.js';

/** Kubernetes' duration.HumanDuration: "45s", "2m3s", "15m", "5h20m", "3d4h", "2y10d". */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // Up to a second or two of clock skew between components counts as "now".
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** The age of an RFC 3339 timestamp at `now`, or "<unknown>" when it is unset. */
export function since(timestamp: unknown, now: number): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

type Requirement = { key: string; operator: string; values?: string[] };

/**
 * metav1.FormatLabelSelector: requirements sorted by key, `k=v`, `k in (a,b)`, `k notin (a,b)`,
 * `k`, `!k`; "<none>" for an empty or absent selector.
 */
export function formatLabelSelector(selector: unknown): string {
  if (!isObject(selector)) return '<none>';
  const reqs: Requirement[] = [];
  const matchLabels = isObject(selector.matchLabels) ? selector.matchLabels : {};
  for (const [key, value] of Object.entries(matchLabels)) reqs.push({ key, operator: 'In', values: [String(value)] });
  for (const e of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    if (!isObject(e) || typeof e.key !== 'string') return '<error>';
    reqs.push({ key: e.key, operator: String(e.operator), values: Array.isArray(e.values) ? e.values.map(String) : [] });
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const parts = reqs.map((r) => {
    const values = [...(r.values ?? [])].sort();
    switch (r.operator) {
      case 'In':
        return values.length === 1 ? `${r.key}=${values[0]}` : `${r.key} in (${values.join(',')})`;
      case 'NotIn':
        return `${r.key} notin (${values.join(',')})`;
      case 'Exists':
        return r.key;
      case 'DoesNotExist':
        return `!${r.key}`;
      default:
        return '<error>';
    }
  });
  if (parts.includes('<error>')) return '<error>';
  return parts.length === 0 ? '<none>' : parts.join(',');
}

/** `k=v` pairs of a plain map, sorted by key (a node selector), or "<none>". */
export function formatMap(map: unknown): string {
  if (!isObject(map)) return '<none>';
  const keys = Object.keys(map).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${String(map[k])}`).join(',');
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Record<string, unknown> {
  return isObject(v) ? v : {};
}

export function arr(v: unknown): Array<Record<string, unknown>> {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

export function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** "True"/"False" for a bool pointer, "<unset>" when absent (kubectl's printBoolPtr). */
export function boolPtr(v: unknown): string {
  return v === true ? 'True' : v === false ? 'False' : '<unset>';
}

/** Container names and images of a pod template, comma-joined (the wide columns of workloads). */
export function templateContainers(template: unknown): { names: string; images: string } {
  const containers = arr(obj(obj(template).spec).containers);
  return { names: containers.map((c) => str(c.name)).join(','), images: containers.map((c) => str(c.image)).join(',') };
}

/** The Name cell of an object's row. */
export const nameCell = (o: Record<string, unknown>): string => nameOf(o);

/** The Age cell of an object's row at time `now` (ms). */
export const ageCell = (o: Record<string, unknown>, now: number): string => since(metadataOf(o).creationTimestamp, now);
