// A fake discovery for controller unit tests: the compiled kinds (their storage version first in
// each group, as the server prefers it) plus whatever a test adds — a made-up resource standing
// for a custom resource — minus what it removes, and failures of chosen group versions.
import type { APIResourceInfo, DiscoveryDocument, DiscoveryInterface } from '../discovery.js';
import { compiledResources, documentOf } from '../static-discovery.js';

export class FakeDiscovery implements DiscoveryInterface {
  private resources: APIResourceInfo[] = compiledResources();
  /** Group versions whose discovery fails (`gv` → error). */
  readonly failing = new Map<string, Error>();
  /** Calls of serverGroupsAndResources. */
  calls = 0;

  /** Serves a resource (a stand-in for a custom resource); its group version is preferred if new. */
  add(r: Omit<APIResourceInfo, 'subresources'> & { subresources?: readonly string[] }): void {
    this.remove(r.group, r.resource);
    this.resources.push({ subresources: [], ...r });
  }

  /** Stops serving a resource in every version. */
  remove(group: string, resource: string): void {
    this.resources = this.resources.filter((r) => !(r.group === group && r.resource === resource));
  }

  async serverGroupsAndResources(): Promise<DiscoveryDocument> {
    this.calls++;
    return documentOf(this.resources, this.failing);
  }
}
