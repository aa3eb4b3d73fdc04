// A RESTMapper over cached discovery (client-go's DeferredDiscoveryRESTMapper over a memory-cached
// discovery client): kind ↔ resource and scope for whatever the server serves, built-in or custom.
// Discovery is read at the first lookup and kept; a lookup that misses re-reads it once unless the
// cache was filled since the last reset (a kind created since is then found; a kind that does not
// exist costs one discovery round per reset, not one per lookup). reset() — which the controllers
// call on their periodic discovery resync — marks the cache stale.
import { ErrGroupDiscoveryFailed, type APIResourceInfo, type DiscoveryDocument, type DiscoveryInterface } from './discovery.js';
import type { ResourceRef } from './types.js';

/** Where a kind lives: the resource to call and its scope. */
export interface RESTMapping {
  resource: ResourceRef;
  kind: string;
  namespaced: boolean;
  /** group/version of the mapping (`apps/v1`, `v1`). */
  apiVersion: string;
}

/** The kind is not served in that version (client-go's NoKindMatchError). */
export class NoKindMatchError extends Error {
  constructor(
    readonly group: string,
    readonly kind: string,
    readonly version: string | undefined,
  ) {
    const gv = version === undefined ? group : group === '' ? version : `${group}/${version}`;
    super(version === undefined ? `no matches for kind "${kind}" in group "${group}"` : `no matches for kind "${kind}" in version "${gv}"`);
    this.name = 'NoKindMatchError';
  }
}

export function isNoMatchError(e: unknown): e is NoKindMatchError {
  return e instanceof NoKindMatchError;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

export class DeferredDiscoveryRESTMapper {
  private cached: Promise<DiscoveryDocument> | undefined;
  private fresh = false;

  constructor(private readonly discovery: DiscoveryInterface) {}

  /** The cached discovery document (read now if there is none). */
  document(): Promise<DiscoveryDocument> {
    if (!this.cached) {
      this.fresh = true;
      const p = this.discovery.serverGroupsAndResources();
      this.cached = p;
      // a failed read is not kept: the next lookup tries again
      p.catch(() => {
        if (this.cached === p) this.cached = undefined;
      });
    }
    return this.cached;
  }

  /** Marks the cache stale: the next lookup that misses re-reads discovery. */
  reset(): void {
    this.fresh = false;
  }

  /** Drops the cache: the next lookup re-reads discovery. */
  invalidate(): void {
    this.cached = undefined;
    this.fresh = false;
  }

  /** The mapping of an object's apiVersion and kind (as owner references name them). */
  async mappingFor(apiVersion: string, kind: string): Promise<RESTMapping> {
    const { group, version } = splitApiVersion(apiVersion);
    return this.restMapping(group, kind, version);
  }

  /** client-go's RESTMapping: the kind in `version`, or in the group's preferred version that serves it. */
  async restMapping(group: string, kind: string, version?: string): Promise<RESTMapping> {
    const { found, doc } = await this.lookup(group, (r) => r.kind === kind && (version === undefined || r.version === version));
    if (found) return toMapping(found);
    // a miss in a group whose discovery failed says nothing of the kind: report the failure
    const failed = new Map([...doc.failed].filter(([gv]) => groupOf(gv) === group));
    throw failed.size > 0 ? new ErrGroupDiscoveryFailed(failed) : new NoKindMatchError(group, kind, version);
  }

  /**
   * What discovery says of a resource (its kind and scope) in `version`, or without one in the
   * group's preferred version that serves it; undefined when it is not served.
   */
  async resourceFor(ref: { group: string; resource: string; version?: string }): Promise<APIResourceInfo | undefined> {
    return (await this.lookup(ref.group, (r) => r.resource === ref.resource && (ref.version === undefined || r.version === ref.version))).found;
  }

  /** The matching resource of the group in its most preferred version; on a miss, discovery is read again once if stale. */
  private async lookup(group: string, match: (r: APIResourceInfo) => boolean): Promise<{ found: APIResourceInfo | undefined; doc: DiscoveryDocument }> {
    const find = (doc: DiscoveryDocument) => preferredFirst(doc, group, doc.resources.filter((r) => r.group === group && match(r)));
    let doc = await this.document();
    let found = find(doc);
    if (!found && !this.fresh) {
      this.invalidate();
      doc = await this.document();
      found = find(doc);
    }
    return { found, doc };
  }
}

function groupOf(groupVersion: string): string {
  const i = groupVersion.lastIndexOf('/');
  return i < 0 ? '' : groupVersion.slice(0, i);
}

/** The candidate in the group's most preferred version. */
function preferredFirst(doc: DiscoveryDocument, group: string, candidates: APIResourceInfo[]): APIResourceInfo | undefined {
  const order = doc.groups.find((g) => g.name === group)?.versions ?? [];
  return candidates.sort((a, b) => order.indexOf(a.version) - order.indexOf(b.version))[0];
}

function toMapping(r: APIResourceInfo): RESTMapping {
  return {
    resource: { group: r.group, version: r.version, resource: r.resource },
    kind: r.kind,
    namespaced: r.namespaced,
    apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`,
  };
}
