// Accept header → the response format of a resource request, as kube-apiserver negotiates it:
// media ranges with parameters and q-values, in preference order; `as=Table` /
// `PartialObjectMetadata(List)` with `g=meta.k8s.io` and `v=v1|v1beta1`; `*/*` and `application/*`
// mean JSON. Nothing acceptable → 406 with Kubernetes' body.
import { StatusError } from '../machinery/status.js';
import type { MediaType, ResponseFormat } from './encode.js';

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
  order: number;
}

/** Parses an Accept header into media ranges, most preferred first (q desc, then header order). */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [];
  const ranges: MediaRange[] = [];
  header.split(',').forEach((part, order) => {
    const [type, ...rawParams] = part.split(';').map((s) => s.trim());
    if (!type) return;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq <= 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (key === 'q') {
        const n = Number(value);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      } else {
        params[key] = value;
      }
    }
    if (q > 0) ranges.push({ type: type.toLowerCase(), params, q, order });
  });
  return ranges.sort((a, b) => b.q - a.q || a.order - b.order);
}

const MEDIA: Record<string, MediaType> = {
  'application/json': 'application/json',
  'application/yaml': 'application/yaml',
  'application/vnd.kubernetes.protobuf': 'application/vnd.kubernetes.protobuf',
  '*/*': 'application/json',
  'application/*': 'application/json',
};

export const AVAILABLE = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';

/**
 * The format of a resource response. `transformations` says which `as=` values the endpoint can
 * produce (lists: Table and PartialObjectMetadataList; single objects: Table and
 * PartialObjectMetadata; watches: Table and both metadata forms).
 */
export function negotiateResource(accept: string | undefined, pretty: boolean, transformations: ReadonlySet<ResponseFormat['as']>): ResponseFormat {
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return { mediaType: 'application/json', as: '', asVersion: 'v1', pretty };
  let tableWithProtobuf = false;
  for (const r of ranges) {
    const mediaType = MEDIA[r.type];
    if (!mediaType) continue;
    const as = r.params.as;
    if (as === undefined) {
      if (r.params.g !== undefined || r.params.v !== undefined) continue;
      return { mediaType, as: '', asVersion: 'v1', pretty };
    }
    if (r.params.g !== 'meta.k8s.io' || (r.params.v !== 'v1' && r.params.v !== 'v1beta1')) continue;
    if (as !== 'Table' && as !== 'PartialObjectMetadata' && as !== 'PartialObjectMetadataList') continue;
    if (!transformations.has(as)) continue;
    if (as === 'Table' && mediaType === 'application/vnd.kubernetes.protobuf') {
      tableWithProtobuf = true;
      continue;
    }
    return { mediaType, as, asVersion: r.params.v, pretty };
  }
  if (tableWithProtobuf) {
    throw StatusError.notAcceptable(`only the following media types are accepted: ${AVAILABLE}`, { rawJson: true });
  }
  throw StatusError.notAcceptable(`406: Not Acceptable\n\nAvailable representations: ${AVAILABLE}`, { rawJson: true, details: {} });
}

/** Whether the client asked for aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList). */
export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  for (const r of parseAccept(accept)) {
    if (r.params.as === 'APIGroupDiscoveryList' && r.params.g === 'apidiscovery.k8s.io' && r.params.v === 'v2') return true;
    if (r.params.as === undefined && MEDIA[r.type]) return false;
  }
  return false;
}
