// Discovery of the compiled kind table: what a kubelite API server serves before any custom
// resource exists. Controllers fall back to it for a clientset that cannot read discovery, and the
// fake discovery starts from it.
import { allKinds } from '../api/kinds.js';
import { SUBRESOURCE_DISCOVERY } from '../api/schema/kind.js';
import type { Clientset } from './types.js';
import { apiVersionOfResource, type APIGroupInfo, type APIResourceInfo, type DiscoveryDocument, type DiscoveryInterface } from './discovery.js';

/** Verbs of a stored kind here (a kind's module on the server may declare fewer). */
const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function compiledResources(): APIResourceInfo[] {
  return allKinds.map((k) => ({
    group: k.group,
    version: k.version,
    resource: k.resource,
    kind: k.kind,
    namespaced: k.namespaced,
    verbs: k.createOnly ? ['create'] : k.computed ? ['get', 'list'] : ALL_VERBS,
    subresources: Object.keys(k.subresources ?? {}).filter((s) => s in SUBRESOURCE_DISCOVERY),
  }));
}

/** A document over `resources`, each group's versions ordered storage version first (the server's preference). */
export function documentOf(resources: readonly APIResourceInfo[], failing: ReadonlyMap<string, Error> = new Map()): DiscoveryDocument {
  const storage = new Set(allKinds.filter((k) => k.storage).map((k) => `${k.group}/${k.version}`));
  const groups = new Map<string, APIGroupInfo>();
  for (const r of resources) {
    const g = groups.get(r.group) ?? { name: r.group, versions: [] };
    groups.set(r.group, g);
    if (!g.versions.includes(r.version)) g.versions.push(r.version);
  }
  for (const g of groups.values()) g.versions.sort((a, b) => Number(storage.has(`${g.name}/${b}`)) - Number(storage.has(`${g.name}/${a}`)));
  return {
    groups: [...groups.values()],
    resources: resources.filter((r) => !failing.has(apiVersionOfResource(r))).map((r) => ({ ...r })),
    failed: new Map(failing),
  };
}

export class CompiledKindsDiscovery implements DiscoveryInterface {
  async serverGroupsAndResources(): Promise<DiscoveryDocument> {
    return documentOf(compiledResources());
  }
}

/** The clientset's discovery, or the compiled kinds' when it cannot read the server's. */
export function discoveryOf(clientset: Clientset): DiscoveryInterface {
  return clientset.discovery?.() ?? new CompiledKindsDiscovery();
}
