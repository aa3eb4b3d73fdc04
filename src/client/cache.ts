// The informer's local cache: objects by `namespace/name` key with the indexes controllers use
// (client-go's thread-safe store + indexer + lister, in one class). Shared by the real informers
// and the fakes.
import { labelsOf, metadataOf, nameOf, namespaceOf } from '../api/meta/object.js';
import { compileLabelSelector } from '../machinery/selectors/index.js';
import type { KubeObject, Lister, Tombstone } from './types.js';

export type IndexFunc = (obj: KubeObject) => string[];

/** client-go's MetaNamespaceKeyFunc: `namespace/name`, or `name` when cluster-scoped. */
export function keyOf(obj: KubeObject | Tombstone): string {
  if (isTombstone(obj)) return obj.key;
  const ns = namespaceOf(obj);
  return ns === '' ? nameOf(obj) : `${ns}/${nameOf(obj)}`;
}

/** Splits a key made by keyOf into [namespace, name]. */
export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return i < 0 ? ['', key] : [key.slice(0, i), key.slice(i + 1)];
}

export function isTombstone(obj: unknown): obj is Tombstone {
  return typeof obj === 'object' && obj !== null && (obj as Tombstone).finalStateUnknown === true && 'key' in obj;
}

/** The object behind a handler's delete argument (unwraps a tombstone). */
export function objectOf(obj: KubeObject | Tombstone): KubeObject {
  return isTombstone(obj) ? obj.obj : obj;
}

export const defaultIndexers: Readonly<Record<string, IndexFunc>> = {
  namespace: (obj) => [namespaceOf(obj)],
  ownerUid: (obj) => {
    const refs = metadataOf(obj).ownerReferences;
    if (!Array.isArray(refs)) return [];
    return refs.map((r) => (r as { uid?: unknown }).uid).filter((u): u is string => typeof u === 'string' && u !== '');
  },
  /** Objects without a controller ownerReference (what a controller may adopt), by namespace. */
  orphan: (obj) => {
    const refs = metadataOf(obj).ownerReferences;
    return Array.isArray(refs) && refs.some((r) => (r as { controller?: unknown }).controller === true) ? [] : [namespaceOf(obj)];
  },
  nodeName: (obj) => {
    const spec = obj.spec as { nodeName?: unknown } | undefined;
    return typeof spec?.nodeName === 'string' && spec.nodeName !== '' ? [spec.nodeName] : [];
  },
};

export class Store implements Lister {
  private readonly items = new Map<string, KubeObject>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(private readonly indexers: Readonly<Record<string, IndexFunc>> = defaultIndexers) {
    for (const name of Object.keys(indexers)) this.indices.set(name, new Map());
  }

  get size(): number {
    return this.items.size;
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  getByKey(key: string): KubeObject | undefined {
    return this.items.get(key);
  }

  /** Adds or replaces; returns the previous object. */
  set(obj: KubeObject): KubeObject | undefined {
    const key = keyOf(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    this.index(key, obj);
    return old;
  }

  /** Removes by key; returns the removed object. */
  remove(key: string): KubeObject | undefined {
    const old = this.items.get(key);
    if (old) {
      this.unindex(key, old);
      this.items.delete(key);
    }
    return old;
  }

  clear(): void {
    this.items.clear();
    for (const idx of this.indices.values()) idx.clear();
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.items.get(namespace === '' ? name : `${namespace}/${name}`);
  }

  list(namespace?: string, labelSelector?: string | ((labels: Record<string, string>) => boolean)): KubeObject[] {
    let objs: KubeObject[];
    if (namespace) objs = this.byIndex('namespace', namespace);
    else objs = [...this.items.values()];
    if (labelSelector === undefined || labelSelector === '') return objs;
    const match = typeof labelSelector === 'function' ? labelSelector : compileLabelSelector(labelSelector);
    return objs.filter((o) => match(labelsOf(o)));
  }

  byIndex(index: string, value: string): KubeObject[] {
    const idx = this.indices.get(index);
    if (!idx) throw new Error(`index ${index} does not exist`);
    const keys = idx.get(value);
    if (!keys) return [];
    const out: KubeObject[] = [];
    for (const k of keys) {
      const o = this.items.get(k);
      if (o) out.push(o);
    }
    return out;
  }

  private index(key: string, obj: KubeObject): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const idx = this.indices.get(name)!;
      for (const v of fn(obj)) {
        let set = idx.get(v);
        if (!set) idx.set(v, (set = new Set()));
        set.add(key);
      }
    }
  }

  private unindex(key: string, obj: KubeObject): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const idx = this.indices.get(name)!;
      for (const v of fn(obj)) {
        const set = idx.get(v);
        if (!set) continue;
        set.delete(key);
        if (set.size === 0) idx.delete(v);
      }
    }
  }
}
