// Test support for the codec tests: the golden vectors, type resolution by apiVersion/kind, and the
// "v1.26 view" of a schema (the vectors were written by kube-apiserver v1.26.1; the schema
// declares some newer non-pointer fields that Go's marshaler writes even when zero).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findKind } from '../../api/kinds.js';
import { Scale } from '../../api/autoscaling/v1.js';
import * as meta from '../../api/meta/v1.js';
import type { Field, StructType, Type } from '../../api/schema/dsl.js';
import type { TypeMeta } from './protobuf.js';
import { TESTDATA } from '../../../test/support/vectors.js';

export { TESTDATA };

export function vectorBytes(...path: string[]): Buffer {
  return readFileSync(join(TESTDATA, ...path));
}

export function vectorText(...path: string[]): string {
  return readFileSync(join(TESTDATA, ...path), 'utf8');
}

export function vectorFiles(...path: string[]): string[] {
  return readdirSync(join(TESTDATA, ...path)).sort();
}

/** The body of a `<case>.txt` dump (status line, headers, blank line, body). */
export function dumpBody(...path: string[]): { status: number; body: string; headers: string[] } {
  const text = vectorText(...path);
  const m = /\r?\n\r?\n/.exec(text);
  const status = Number(/^HTTP (\d+)/.exec(text)?.[1] ?? 0);
  const head = m ? text.slice(0, m.index) : text;
  return { status, body: m ? text.slice(m.index + m[0].length) : '', headers: head.split(/\r?\n/).slice(1) };
}

const metaKinds: Record<string, StructType> = {
  Status: meta.Status,
  PartialObjectMetadata: meta.PartialObjectMetadata,
  PartialObjectMetadataList: meta.PartialObjectMetadataList,
  Table: meta.Table,
  WatchEvent: meta.WatchEvent,
  DeleteOptions: meta.DeleteOptions,
};

/** The schema of an object by apiVersion/kind (lists via their item kind), if declared. */
export function resolveType(tm: TypeMeta): StructType | undefined {
  if ((tm.apiVersion === 'v1' || tm.apiVersion.startsWith('meta.k8s.io/')) && metaKinds[tm.kind]) return metaKinds[tm.kind];
  if (tm.apiVersion === 'autoscaling/v1' && tm.kind === 'Scale') return Scale;
  if (tm.kind.endsWith('List')) return findKind(tm.apiVersion, tm.kind.slice(0, -4))?.list;
  return findKind(tm.apiVersion, tm.kind)?.type;
}

/** Fields declared in the schema that kube-apiserver v1.26 did not have (non-pointer: always on the protobuf wire). */
export const NEWER_THAN_V126: Record<string, readonly string[]> = {
  'io.k8s.api.core.v1.PodCondition': ['observedGeneration'],
  'io.k8s.api.core.v1.PodStatus': ['observedGeneration', 'resize'],
};

/** A copy of `root`'s type tree without the NEWER_THAN_V126 fields (unregistered copies). */
export function v126View<T extends Type>(root: T): T {
  return fixpoint(root) as T;

  function fixpoint(t: Type): Type {
    const changed = new Map<Type, boolean>();
    const needs = (x: Type, seen: Set<Type>): boolean => {
      if (changed.has(x)) return changed.get(x)!;
      if (x.kind === 'scalar') return false;
      if (x.kind === 'list' || x.kind === 'map') return needs(x.of, seen);
      if (seen.has(x)) return false;
      seen.add(x);
      const r = (NEWER_THAN_V126[x.name]?.length ?? 0) > 0 || Object.values(x.fields).some((f) => needs(f.type, seen));
      changed.set(x, r);
      return r;
    };
    const out = new Map<Type, Type>();
    const rebuild = (x: Type): Type => {
      if (!needs(x, new Set())) return x;
      const hit = out.get(x);
      if (hit) return hit;
      if (x.kind === 'list' || x.kind === 'map') {
        const r = { ...x, of: rebuild(x.of) } as Type;
        out.set(x, r);
        return r;
      }
      const s = x as StructType;
      const copy = { ...s, fields: {} as Record<string, Field> } as StructType;
      out.set(x, copy);
      const drop = new Set(NEWER_THAN_V126[s.name] ?? []);
      const fields: Record<string, Field> = {};
      for (const [k, f] of Object.entries(s.fields)) {
        if (drop.has(k)) continue;
        const ft = rebuild(f.type);
        fields[k] = ft === f.type ? f : ({ ...f, type: ft } as Field);
      }
      (copy as { fields: Record<string, Field> }).fields = fields;
      return copy;
    };
    return rebuild(t);
  }
}
