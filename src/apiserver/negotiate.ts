// The response format of a request, from its Accept header, by the codec module's negotiation
// (Kubernetes' rules and 406 bodies), restricted to the transformations each endpoint can make.
import { negotiateOutput, parseAccept, type Codec } from '../machinery/codec/negotiation.js';
import type { MediaType, ResponseFormat } from './encode.js';

const MEDIA: Record<Codec, MediaType> = {
  json: 'application/json',
  yaml: 'application/yaml',
  protobuf: 'application/vnd.kubernetes.protobuf',
};

/**
 * `transformations`: the `as=` values the endpoint produces (lists: Table and
 * PartialObjectMetadataList; single objects: Table and PartialObjectMetadata; watches: both).
 */
export function negotiateResource(accept: string | undefined, pretty: boolean, transformations: ReadonlySet<ResponseFormat['as']>, stream = false, textOnly = false): ResponseFormat {
  // Clients send the same few Accept headers over and over: negotiate each once per endpoint kind.
  let cache = negotiated.get(transformations);
  if (cache === undefined) negotiated.set(transformations, (cache = new Map()));
  const key = `${pretty ? 1 : 0}${stream ? 1 : 0}${textOnly ? 1 : 0}${accept ?? '\u0000'}`;
  let format = cache.get(key);
  if (format === undefined) {
    format = Object.freeze(negotiate(accept, pretty, transformations, stream, textOnly));
    if (cache.size >= MAX_NEGOTIATED) cache.clear();
    cache.set(key, format);
  }
  return format;
}

/** Whether negotiateResource can meet `accept` (else it answers 406). */
export function acceptable(accept: string | undefined, pretty: boolean, transformations: ReadonlySet<ResponseFormat['as']>, textOnly = false): boolean {
  try {
    negotiateResource(accept, pretty, transformations, false, textOnly);
    return true;
  } catch {
    return false;
  }
}

const negotiated = new WeakMap<ReadonlySet<ResponseFormat['as']>, Map<string, ResponseFormat>>();
const MAX_NEGOTIATED = 256;

/**
 * `textOnly`: the endpoint's objects have no protobuf form (custom resources: Kubernetes'
 * StandardSerializers leave protobuf out; their metadata-only forms may still be protobuf).
 */
function negotiate(accept: string | undefined, pretty: boolean, transformations: ReadonlySet<ResponseFormat['as']>, stream: boolean, textOnly: boolean): ResponseFormat {
  const choice = negotiateOutput(accept, {
    stream,
    codecs: textOnly ? ['json', 'yaml'] : undefined,
    allowConversion: (t, codec) =>
      t.group === 'meta.k8s.io' &&
      (t.version === 'v1' || t.version === 'v1beta1') &&
      transformations.has(t.kind as ResponseFormat['as']) &&
      (t.kind !== 'Table' || codec !== 'protobuf'),
  });
  return {
    mediaType: MEDIA[choice.codec],
    as: (choice.as ?? '') as ResponseFormat['as'],
    asVersion: choice.v === 'v1beta1' ? 'v1beta1' : 'v1',
    pretty: pretty || choice.pretty,
  };
}

/** Whether the client asked for aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList) before plain JSON. */
export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  for (const c of parseAccept(accept ?? '')) {
    if (c.q <= 0) continue;
    if (c.params.as === 'APIGroupDiscoveryList' && c.params.g === 'apidiscovery.k8s.io' && c.params.v === 'v2') return true;
    if (c.params.as === undefined) return false;
  }
  return false;
}
