// Discovery documents, derived from the kind table and serialized once: legacy discovery
// (/api, /apis, /apis/<group>, /api/v1, /apis/<group>/<version>) and aggregated discovery
// (apidiscovery.k8s.io/v2 APIGroupDiscoveryList, what kubectl ≥ 1.30 asks for first).
import { createHash } from 'node:crypto';
import { SUBRESOURCE_DISCOVERY, subresourceDiscoveryOf, type KindVersion, type SubresourceDiscovery } from '../../api/schema/kind.js';
import { ALL_KIND_VERBS } from '../../registry/kind-module.js';
import { moduleOf } from '../../registry/kinds/index.js';

/** Virtual resources that are only POSTed (the access reviews). */
const CREATE_ONLY_VERBS = ['create'];
/** A computed read-only resource (componentstatuses): get and list. */
const COMPUTED_VERBS = ['get', 'list'];


/** Kubernetes' version priority: GA before beta before alpha; higher major, then higher minor first. */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return { ok: false, major: 0, stage: -1, minor: 0 };
    return { ok: true, major: Number(m[1]), stage: m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, minor: Number(m[3] ?? 0) };
  };
  const x = parse(a);
  const y = parse(b);
  if (x.ok !== y.ok) return x.ok ? -1 : 1;
  if (!x.ok) return a < b ? -1 : a > b ? 1 : 0;
  if (x.stage !== y.stage) return y.stage - x.stage;
  if (x.major !== y.major) return y.major - x.major;
  return y.minor - x.minor;
}

/** kube-apiserver's storageVersionHash: base64 of the first 8 bytes of sha256("group/version/kind"). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

interface GroupInfo {
  name: string;
  /** Served versions, preferred first. */
  versions: string[];
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

export class Discovery {
  private readonly groups: GroupInfo[] = [];
  private readonly byGroupVersion = new Map<string, KindVersion[]>();
  private readonly resourceLists = new Map<string, Buffer>();
  private readonly groupDocs = new Map<string, Buffer>();
  readonly apiGroupList: Buffer;
  readonly aggregatedCore: Buffer;
  readonly aggregatedGroups: Buffer;

  constructor(private readonly kinds: readonly KindVersion[]) {
    for (const k of kinds) {
      const gv = `${k.group}/${k.version}`;
      const list = this.byGroupVersion.get(gv) ?? [];
      list.push(k);
      this.byGroupVersion.set(gv, list);
      let g = this.groups.find((x) => x.name === k.group);
      if (!g) this.groups.push((g = { name: k.group, versions: [] }));
      if (!g.versions.includes(k.version)) g.versions.push(k.version);
    }
    for (const g of this.groups) g.versions.sort(compareKubeVersions);
    this.groups.sort((a, b) => (a.name === '' ? -1 : b.name === '' ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    for (const [gv, list] of this.byGroupVersion) {
      const [group, version] = splitGroupVersion(gv);
      this.resourceLists.set(gv, json({
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: group === '' ? version : `${group}/${version}`,
        resources: this.legacyResources(list),
      }));
    }
    const named = this.groups.filter((g) => g.name !== '');
    for (const g of named) this.groupDocs.set(g.name, json({ kind: 'APIGroup', apiVersion: 'v1', ...this.groupEntry(g) }));
    this.apiGroupList = json({ kind: 'APIGroupList', apiVersion: 'v1', groups: named.map((g) => this.groupEntry(g)) });
    const aggregated = (gs: GroupInfo[]) =>
      json({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items: gs.map((g) => this.aggregatedGroup(g)) });
    this.aggregatedCore = aggregated(this.groups.filter((g) => g.name === ''));
    this.aggregatedGroups = aggregated(named);
  }

  /** `/api`: the core group's versions and the address clients should use. */
  apiVersions(serverAddress: string): Buffer {
    const core = this.groups.find((g) => g.name === '');
    return json({
      kind: 'APIVersions',
      versions: core?.versions ?? [],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    });
  }

  /** `/apis/<group>`, or undefined when the group is not served. */
  apiGroup(group: string): Buffer | undefined {
    return this.groupDocs.get(group);
  }

  /** `/api/v1` or `/apis/<group>/<version>`, or undefined when not served. */
  resourceList(group: string, version: string): Buffer | undefined {
    return this.resourceLists.get(`${group}/${version}`);
  }

  private groupEntry(g: GroupInfo) {
    const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
    return { name: g.name, versions, preferredVersion: versions[0] };
  }

  private storageOf(k: KindVersion): KindVersion {
    if (k.custom) return k.custom.hub ?? k;
    return this.kinds.find((s) => s.storage && s.kind === k.kind && s.resource === k.resource) ?? k;
  }

  /** The verbs of a resource: create only for the virtual kinds, else those its module declares. */
  private verbsOf(k: KindVersion): readonly string[] {
    if (k.computed) return COMPUTED_VERBS;
    return k.createOnly ? CREATE_ONLY_VERBS : (moduleOf(this.storageOf(k)).verbs ?? ALL_KIND_VERBS);
  }

  private subresourcesOf(k: KindVersion): Array<[string, SubresourceDiscovery]> {
    const declared = k.subresources ?? {};
    return (Object.keys(SUBRESOURCE_DISCOVERY) as (keyof typeof SUBRESOURCE_DISCOVERY)[])
      .filter((name) => declared[name] === true)
      .sort()
      .map((name) => [name, subresourceDiscoveryOf(k, name)]);
  }

  private legacyResources(list: KindVersion[]) {
    const out: Array<Record<string, unknown>> = [];
    for (const k of [...list].sort((a, b) => (a.resource < b.resource ? -1 : 1))) {
      const storage = this.storageOf(k);
      const entry: Record<string, unknown> = {
        name: k.resource,
        singularName: k.singular,
        namespaced: k.namespaced,
        kind: k.kind,
        verbs: this.verbsOf(k),
      };
      if (k.shortNames?.length) entry.shortNames = [...k.shortNames];
      if (k.categories?.length) entry.categories = [...k.categories];
      // Virtual kinds have no storage, so no storage version hash (as kube-apiserver).
      if (!k.createOnly && !k.computed) entry.storageVersionHash = storageVersionHash(storage.group, storage.version, storage.kind);
      out.push(entry);
      for (const [name, sub] of this.subresourcesOf(k)) {
        const e: Record<string, unknown> = { name: `${k.resource}/${name}`, singularName: '', namespaced: k.namespaced };
        if (sub.group !== undefined) {
          e.group = sub.group;
          e.version = sub.version;
        }
        e.kind = sub.kind ?? k.kind;
        e.verbs = sub.verbs;
        out.push(e);
      }
    }
    return out;
  }

  private aggregatedGroup(g: GroupInfo) {
    return {
      metadata: g.name === '' ? {} : { name: g.name },
      versions: g.versions.map((version) => ({
        version,
        resources: [...(this.byGroupVersion.get(`${g.name}/${version}`) ?? [])]
          .sort((a, b) => (a.resource < b.resource ? -1 : 1))
          .map((k) => {
            const r: Record<string, unknown> = {
              resource: k.resource,
              responseKind: { group: k.group, version: k.version, kind: k.kind },
              scope: k.namespaced ? 'Namespaced' : 'Cluster',
              singularResource: k.singular,
              verbs: this.verbsOf(k),
            };
            if (k.shortNames?.length) r.shortNames = [...k.shortNames];
            if (k.categories?.length) r.categories = [...k.categories];
            const subs = this.subresourcesOf(k);
            if (subs.length > 0) {
              r.subresources = subs.map(([name, sub]) => ({
                subresource: name,
                responseKind: { group: sub.group ?? k.group, version: sub.version ?? k.version, kind: sub.kind ?? k.kind },
                verbs: sub.verbs,
              }));
            }
            return r;
          }),
        freshness: 'Current',
      })),
    };
  }
}

function splitGroupVersion(gv: string): [string, string] {
  const i = gv.lastIndexOf('/');
  return [gv.slice(0, i), gv.slice(i + 1)];
}
