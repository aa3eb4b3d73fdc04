// What the EndpointSlice and mirroring controllers share about the slices they write: the keys
// telling endpoints and port sets apart, the name prefix, and the tracker of their own writes.
//
// EndpointSliceTracker: the generation of every slice this controller wrote, per Service, so that
// a sync refuses to work from an informer cache that has not seen its own writes yet (which would
// create duplicate slices) and slice events caused by its own writes do not queue the Service again.
import { labelsOf, metadataOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Endpoint, EndpointSlice, EndpointSlicePort } from '../../api/types.js';
import { SERVICE_NAME_LABEL } from './services.js';

const DELETION_EXPECTED = -1;

const generationOf = (s: EndpointSlice): number => {
  const g = metadataOf(s).generation;
  return typeof g === 'number' ? g : 0;
};
const serviceKeyOf = (s: EndpointSlice): string => `${namespaceOf(s)}/${labelsOf(s)[SERVICE_NAME_LABEL] ?? ''}`;

export class EndpointSliceTracker {
  private readonly byService = new Map<string, Map<string, number>>();

  private gens(key: string, create: boolean): Map<string, number> | undefined {
    let m = this.byService.get(key);
    if (!m && create) this.byService.set(key, (m = new Map()));
    return m;
  }

  /** Records a slice as this controller wrote it. */
  update(slice: EndpointSlice): void {
    this.gens(serviceKeyOf(slice), true)!.set(uidOf(slice), generationOf(slice));
  }

  expectDeletion(slice: EndpointSlice): void {
    this.gens(serviceKeyOf(slice), true)!.set(uidOf(slice), DELETION_EXPECTED);
  }

  /** ShouldSync: a slice event not caused by this controller's own last write. */
  shouldSync(slice: EndpointSlice): boolean {
    const g = this.gens(serviceKeyOf(slice), false)?.get(uidOf(slice));
    return g === undefined || g === DELETION_EXPECTED || generationOf(slice) > g;
  }

  /** HandleDeletion: forgets an expected deletion; true when the deletion was expected. */
  handleDeletion(slice: EndpointSlice): boolean {
    const m = this.gens(serviceKeyOf(slice), false);
    const g = m?.get(uidOf(slice));
    m?.delete(uidOf(slice));
    return g === DELETION_EXPECTED;
  }

  /** StaleSlices: the cache misses a slice written, holds an older generation, or still holds one deleted. */
  staleSlices(serviceKey: string, slices: readonly EndpointSlice[]): boolean {
    const m = this.gens(serviceKey, false);
    if (!m) return false;
    const seen = new Set<string>();
    for (const s of slices) {
      const g = m.get(uidOf(s));
      seen.add(uidOf(s));
      if (g === undefined) continue;
      if (g === DELETION_EXPECTED || g > generationOf(s)) return true;
    }
    for (const [uid, g] of m) if (g !== DELETION_EXPECTED && !seen.has(uid)) return true;
    return false;
  }

  deleteService(serviceKey: string): void {
    this.byService.delete(serviceKey);
  }
}

/** NewPortMapKey: the same for the same set of ports, whatever their order. */
export function portMapKey(ports: readonly EndpointSlicePort[] | null | undefined): string {
  return (ports ?? []).map((p) => `${p.name ?? ''}/${p.protocol ?? ''}/${p.port ?? ''}/${p.appProtocol ?? ''}`).sort().join(',');
}

/** hashEndpoint: what makes two endpoints the same one (addresses, hostname, target). */
export function endpointKey(ep: Endpoint): string {
  return JSON.stringify([[...(ep.addresses ?? [])].sort(), ep.hostname ?? '', ep.targetRef?.namespace ?? '', ep.targetRef?.name ?? '']);
}

/** getEndpointSlicePrefix: `<name>-`, or the bare name when the dash would make it too long a prefix. */
export function slicePrefix(name: string): string {
  return name.length + 1 > 253 ? name : `${name}-`;
}
