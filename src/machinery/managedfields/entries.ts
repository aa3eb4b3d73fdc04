// metadata.managedFields ⇄ the managers' field sets, as Kubernetes' fieldmanager decodes and
// encodes them: one entry per manager identity (manager, operation, apiVersion for updaters,
// subresource), FieldsV1 sets, entries written sorted by operation, time, manager, apiVersion.
import { fieldsToSet, setToFields } from '../fieldpath/fieldsv1.js';
import type { FieldSet } from '../fieldpath/set.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  /** The group/version the manager's fields are expressed in. */
  apiVersion: string;
  /** RFC 3339, seconds; absent when Kubernetes would not record one. */
  time?: string;
  subresource?: string;
  set: FieldSet;
}

/** Managers by identity (managerId). */
export type Managed = Map<string, ManagerEntry>;

/**
 * BuildManagerIdentifier: the JSON of the entry without fields, fieldsType and time, and without
 * apiVersion for appliers (an applier is the same manager whatever version it applies in).
 */
export function managerId(manager: string, operation: Operation, apiVersion: string, subresource: string | undefined): string {
  const o: Record<string, string> = {};
  if (manager !== '') o.manager = manager;
  o.operation = operation;
  if (operation !== 'Apply' && apiVersion !== '') o.apiVersion = apiVersion;
  if (subresource) o.subresource = subresource;
  return JSON.stringify(o);
}

/** `[{}]`: the client asks for managedFields to be reset (an empty list does not). */
export function isResetRequest(v: unknown): boolean {
  return Array.isArray(v) && v.length === 1 && v[0] !== null && typeof v[0] === 'object' && Object.keys(v[0] as object).length === 0;
}

/** DecodeManagedFields; throws an Error with Kubernetes' message on an invalid entry. */
export function decodeManagedFields(v: unknown): Managed {
  const managed: Managed = new Map();
  if (v === undefined || v === null) return managed;
  if (!Array.isArray(v)) throw new Error('managedFields must be a list');
  v.forEach((raw, i) => {
    const e = (raw ?? {}) as Record<string, unknown>;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (typeof e.apiVersion !== 'string' || e.apiVersion === '') throw new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const manager = typeof e.manager === 'string' ? e.manager : '';
    const subresource = typeof e.subresource === 'string' && e.subresource !== '' ? e.subresource : undefined;
    let set: FieldSet;
    try {
      set = fieldsToSet(e.fieldsV1);
    } catch (err) {
      throw new Error(`error decoding versioned set from managed fields entry ${i}: ${(err as Error).message}`);
    }
    const entry: ManagerEntry = { manager, operation: e.operation, apiVersion: e.apiVersion, set };
    if (typeof e.time === 'string' && e.time !== '') entry.time = e.time;
    if (subresource) entry.subresource = subresource;
    managed.set(managerId(manager, e.operation, e.apiVersion, subresource), entry);
  });
  return managed;
}

function seconds(time: string | undefined): number {
  if (!time) return 0;
  const t = Date.parse(time);
  return Number.isNaN(t) ? 0 : Math.floor(t / 1000);
}

/** The managedFields list, sorted as Kubernetes writes it; undefined when no manager is left. */
export function encodeManagedFields(managed: Managed): Array<Record<string, unknown>> | undefined {
  const entries = [...managed.values()].filter((e) => !e.set.isEmpty());
  if (entries.length === 0) return undefined;
  entries.sort((p, q) => {
    if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
    const ps = seconds(p.time);
    const qs = seconds(q.time);
    if (ps !== qs) return ps - qs;
    if (p.manager !== q.manager) return p.manager < q.manager ? -1 : 1;
    return p.apiVersion < q.apiVersion ? -1 : p.apiVersion > q.apiVersion ? 1 : 0;
  });
  return entries.map((e) => {
    const out: Record<string, unknown> = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.manager === '') delete out.manager;
    if (e.time !== undefined) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = setToFields(e.set);
    if (e.subresource) out.subresource = e.subresource;
    return out;
  });
}

/** metav1.Time of now: RFC 3339 in UTC, whole seconds. */
let lastSecond = NaN;
let lastTime = '';

export function timeOf(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastTime = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  }
  return lastTime;
}
