// What the admission plugins' unit tests share: attributes of a write, the refusal a plugin
// throws, and cluster objects held in memory.
import assert from 'node:assert/strict';
import { findResource } from '../../api/kinds.js';
import { nameOf } from '../../api/meta/object.js';
import type { KindVersion } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import type { ClusterObjects } from './cluster-objects.js';
import type { AdmissionAttributes } from './types.js';

export function attrsOf(resource: string, over: Partial<AdmissionAttributes>): AdmissionAttributes {
  const [group, res] = resource.includes('/') ? (resource.split('/') as [string, string]) : ['', resource];
  const kind = findResource(group, 'v1', res) as KindVersion;
  return { operation: 'CREATE', kind, group, resource: res, subresource: '', namespace: group === '' ? 'ns' : '', name: '', user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, ...over };
}

/** The StatusError a refused admission throws (fails when admitted). */
export async function refused(p: Promise<unknown> | unknown): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('admitted');
}

export async function refusal(p: Promise<unknown>): Promise<string> {
  return (await refused(p)).message;
}

export function memoryObjects<T extends object>(objects: T[]): ClusterObjects<T> {
  return {
    get: async (name) => objects.find((o) => nameOf(o as Record<string, unknown>) === name),
    list: async () => [...objects],
  };
}
