// Discovery (client-go's discovery package, the parts controllers use): what the API server serves
// — groups, their versions in preference order, each version's resources with kind, scope, verbs
// and subresources — read from aggregated discovery (one request for /api and one for /apis), or
// from the legacy documents (/api, /apis, then one request per group version) when the server does
// not answer the aggregated form. Custom resources appear here and nowhere else, so controllers
// that must cover them (garbage collector, namespace deletion, quota) read this.
//
// A group version that failed (legacy request error, or aggregated freshness "Stale") does not
// fail the whole answer: its error is collected in ErrGroupDiscoveryFailed next to the resources
// that were found, as client-go's ServerGroupsAndResources does.

/** One resource of one group version as discovery lists it. */
export interface APIResourceInfo {
  group: string;
  version: string;
  /** Plural name: `deployments`. */
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: readonly string[];
  /** Names of its subresources (`status`, `scale`). */
  subresources: readonly string[];
  singular?: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
}

/** A group and its versions, the first preferred. */
export interface APIGroupInfo {
  name: string;
  versions: string[];
}

export interface DiscoveryDocument {
  groups: APIGroupInfo[];
  /** Every resource of every served group version. */
  resources: APIResourceInfo[];
  /** Group versions whose resources could not be read (`apps/v1` → error). */
  failed: Map<string, Error>;
}

/** Reads a server's discovery afresh at each call. */
export interface DiscoveryInterface {
  serverGroupsAndResources(): Promise<DiscoveryDocument>;
}

/** Some group versions could not be discovered (client-go's ErrGroupDiscoveryFailed); the rest were. */
export class ErrGroupDiscoveryFailed extends Error {
  constructor(readonly groups: ReadonlyMap<string, Error>) {
    const parts = [...groups].map(([gv, e]) => `${gv}: ${e.message}`).sort();
    super(`unable to retrieve the complete list of server APIs: ${parts.join(', ')}`);
    this.name = 'ErrGroupDiscoveryFailed';
  }
}

export function isGroupDiscoveryFailed(e: unknown): e is ErrGroupDiscoveryFailed {
  return e instanceof ErrGroupDiscoveryFailed;
}

/** The resources of each group's preferred version only (client-go's ServerPreferredResources). */
export function preferredResources(doc: DiscoveryDocument): APIResourceInfo[] {
  const preferred = new Set(doc.groups.map((g) => `${g.name}/${g.versions[0] ?? ''}`));
  return doc.resources.filter((r) => preferred.has(`${r.group}/${r.version}`));
}

/** Resources that support every verb named (client-go's SupportsAllVerbs filter). */
export function withVerbs(resources: readonly APIResourceInfo[], verbs: readonly string[]): APIResourceInfo[] {
  return resources.filter((r) => verbs.every((v) => r.verbs.includes(v)));
}

/** The discovery error of a document, if any group version failed. */
export function discoveryError(doc: DiscoveryDocument): ErrGroupDiscoveryFailed | undefined {
  return doc.failed.size > 0 ? new ErrGroupDiscoveryFailed(doc.failed) : undefined;
}

export function apiVersionOfResource(r: { group: string; version: string }): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** A raw GET the discovery client sends: status, Content-Type and body text. */
export type RawGet = (path: string, accept: string) => Promise<{ status: number; contentType: string; body: string }>;

export const AGGREGATED_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
const LEGACY_ACCEPT = 'application/json';

interface AggregatedResource {
  resource?: string;
  responseKind?: { kind?: string };
  scope?: string;
  singularResource?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource?: string }[];
}
interface AggregatedVersion {
  version?: string;
  resources?: AggregatedResource[];
  freshness?: string;
}
interface AggregatedGroup {
  metadata?: { name?: string };
  versions?: AggregatedVersion[];
}

interface LegacyResource {
  name?: string;
  kind?: string;
  namespaced?: boolean;
  singularName?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

/** The error of a non-2xx answer: the Status's message, as client-go's StatusError reads. */
function statusError(res: { status: number; body: string }): Error {
  let msg = '';
  try {
    const s = JSON.parse(res.body) as { message?: unknown };
    if (typeof s.message === 'string') msg = s.message;
  } catch {
    msg = res.body.trim().slice(0, 300);
  }
  return Object.assign(new Error(msg || `the server responded with status ${res.status}`), { code: res.status });
}

/** Discovery over HTTP: aggregated first, legacy when the server does not answer in the aggregated form. */
export class RestDiscoveryClient implements DiscoveryInterface {
  constructor(private readonly get: RawGet) {}

  async serverGroupsAndResources(): Promise<DiscoveryDocument> {
    const doc: DiscoveryDocument = { groups: [], resources: [], failed: new Map() };
    for (const root of ['/api', '/apis']) {
      const res = await this.get(root, AGGREGATED_ACCEPT);
      if (res.status === 404 && root === '/apis') continue; // a server of the core group only
      if (res.status < 200 || res.status >= 300) throw statusError(res);
      const body = JSON.parse(res.body) as Record<string, unknown>;
      if (body.kind === 'APIGroupDiscoveryList') this.readAggregated(body.items as AggregatedGroup[] | undefined, doc);
      else await this.readLegacy(root, body, doc);
    }
    return doc;
  }

  private readAggregated(items: AggregatedGroup[] | undefined, doc: DiscoveryDocument): void {
    for (const g of items ?? []) {
      const group = g.metadata?.name ?? '';
      const versions: string[] = [];
      for (const v of g.versions ?? []) {
        const version = v.version ?? '';
        versions.push(version);
        const gv = apiVersionOfResource({ group, version });
        if (v.freshness === 'Stale') {
          doc.failed.set(gv, new Error('stale GroupVersion discovery'));
          continue;
        }
        for (const r of v.resources ?? []) {
          const info: APIResourceInfo = {
            group,
            version,
            resource: r.resource ?? '',
            kind: r.responseKind?.kind ?? '',
            namespaced: r.scope === 'Namespaced',
            verbs: r.verbs ?? [],
            subresources: (r.subresources ?? []).map((s) => s.subresource ?? ''),
          };
          if (r.singularResource) info.singular = r.singularResource;
          if (r.shortNames) info.shortNames = r.shortNames;
          if (r.categories) info.categories = r.categories;
          doc.resources.push(info);
        }
      }
      doc.groups.push({ name: group, versions });
    }
  }

  private async readLegacy(root: string, body: Record<string, unknown>, doc: DiscoveryDocument): Promise<void> {
    const groups: APIGroupInfo[] = [];
    if (root === '/api') {
      // APIVersions: the core group's versions; the first is preferred.
      groups.push({ name: '', versions: ((body.versions as string[] | undefined) ?? []).slice() });
    } else {
      for (const g of (body.groups as { name?: string; versions?: { version?: string }[]; preferredVersion?: { version?: string } }[] | undefined) ?? []) {
        const all = (g.versions ?? []).map((v) => v.version ?? '');
        const pref = g.preferredVersion?.version;
        groups.push({ name: g.name ?? '', versions: pref && all.includes(pref) ? [pref, ...all.filter((v) => v !== pref)] : all });
      }
    }
    // one request per group version, in parallel, as client-go's fetchGroupVersionResources
    const lists = await Promise.all(
      groups.flatMap((g) =>
        g.versions.map(async (version) => {
          const gv = apiVersionOfResource({ group: g.name, version });
          const path = g.name === '' ? `/api/${version}` : `/apis/${gv}`;
          try {
            const res = await this.get(path, LEGACY_ACCEPT);
            if (res.status < 200 || res.status >= 300) throw statusError(res);
            return { group: g.name, version, list: ((JSON.parse(res.body) as { resources?: LegacyResource[] }).resources ?? []) };
          } catch (e) {
            doc.failed.set(gv, e instanceof Error ? e : new Error(String(e)));
            return undefined;
          }
        }),
      ),
    );
    for (const l of lists) {
      if (!l) continue;
      const byName = new Map<string, APIResourceInfo>();
      const subs: [string, string][] = [];
      for (const r of l.list) {
        const name = r.name ?? '';
        const slash = name.indexOf('/');
        if (slash >= 0) {
          subs.push([name.slice(0, slash), name.slice(slash + 1)]);
          continue;
        }
        const info: APIResourceInfo = { group: l.group, version: l.version, resource: name, kind: r.kind ?? '', namespaced: r.namespaced === true, verbs: r.verbs ?? [], subresources: [] };
        if (r.singularName) info.singular = r.singularName;
        if (r.shortNames) info.shortNames = r.shortNames;
        if (r.categories) info.categories = r.categories;
        byName.set(name, info);
        doc.resources.push(info);
      }
      for (const [parent, sub] of subs) {
        const p = byName.get(parent);
        if (p) p.subresources = [...p.subresources, sub];
      }
    }
    doc.groups.push(...groups);
  }
}
