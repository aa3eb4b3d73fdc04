// Content negotiation as kube-apiserver does it.
//
// Output (Accept): two stages, as in Kubernetes. First go-restful's route check: some clause's
// bare media type must equal one the route produces (or be "any"), else 406 "406: Not Acceptable\n\n
// Available representations: ..." (with `details: {}`). Then Kubernetes' negotiation: clauses in
// order of q (then specificity), each tried against json, yaml, protobuf (wildcards allowed), with
// the parameters as (conversion target kind), g, v, stream=watch and pretty; the first clause the
// endpoint can serve wins, else 406 "only the following media types are accepted: ...". When the
// error itself cannot be negotiated, Kubernetes writes it as indented JSON (`rawJson`).
//
// Input (Content-Type): bodies of POST/PUT are JSON (the default), YAML or protobuf, else 415 "the
// body of the request was in an unknown format - ..."; PATCH bodies must be one of the four patch
// types (go-restful: else 415 "415: Unsupported Media Type").
import { StatusError } from '../status.js';

export type Codec = 'json' | 'yaml' | 'protobuf';

export const MEDIA_TYPE_JSON = 'application/json';
export const MEDIA_TYPE_YAML = 'application/yaml';
export const MEDIA_TYPE_PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** The media types every built-in resource is served in, in Kubernetes' order (discovery, errors). */
export const SUPPORTED_MEDIA_TYPES: readonly string[] = [MEDIA_TYPE_JSON, MEDIA_TYPE_YAML, MEDIA_TYPE_PROTOBUF];
/** The media types of watch streams. */
export const SUPPORTED_STREAM_MEDIA_TYPES: readonly string[] = [
  `${MEDIA_TYPE_JSON};stream=watch`,
  `${MEDIA_TYPE_PROTOBUF};stream=watch`,
];

export type PatchType = 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply-patch';

export const PATCH_MEDIA_TYPES: Readonly<Record<PatchType, string>> = {
  'json-patch': 'application/json-patch+json',
  'merge-patch': 'application/merge-patch+json',
  'strategic-merge-patch': 'application/strategic-merge-patch+json',
  'apply-patch': 'application/apply-patch+yaml',
};
/** Patch media types in Kubernetes' order (PATCH routes consume these; discovery lists them). */
export const SUPPORTED_PATCH_MEDIA_TYPES: readonly string[] = Object.values(PATCH_MEDIA_TYPES);

const CODEC_OF: Record<string, Codec> = {
  [MEDIA_TYPE_JSON]: 'json',
  [MEDIA_TYPE_YAML]: 'yaml',
  [MEDIA_TYPE_PROTOBUF]: 'protobuf',
};

// ---------------------------------------------------------------------------------------------
// Accept.
// ---------------------------------------------------------------------------------------------

export interface AcceptClause {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/**
 * Parses an Accept header as goautoneg does (Kubernetes' parser): comma-separated clauses,
 * `type/subtype` (a lone star means any type), `;key=value` parameters, `q` taken out; sorted by q
 * (descending), then concrete types before wildcards, stable. Malformed clauses are skipped.
 */
export function parseAccept(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const part = raw.trim();
    const segments = part.split(';');
    const range = segments[0]!.split('/');
    const type = range[0]!.trim().toLowerCase();
    let subtype: string;
    if (range.length === 1 && type === '*') subtype = '*';
    else if (range.length === 2) subtype = range[1]!.trim().toLowerCase();
    else continue;
    if (type === '' || subtype === '') continue;
    const clause: AcceptClause = { type, subtype, params: {}, q: 1 };
    for (const p of segments.slice(1)) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim();
      const value = p.slice(eq + 1).trim();
      if (key === 'q') {
        const q = Number.parseFloat(value);
        clause.q = Number.isFinite(q) ? q : 0;
      } else clause.params[key] = value.replace(/^"(.*)"$/, '$1');
    }
    out.push(clause);
  }
  // goautoneg's Less: higher q first; then non-wildcard type, then non-wildcard subtype.
  const less = (a: AcceptClause, b: AcceptClause): boolean =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subtype !== '*' && b.subtype === '*');
  return out
    .map((c, i) => ({ c, i }))
    .sort((x, y) => (less(x.c, y.c) ? -1 : less(y.c, x.c) ? 1 : x.i - y.i))
    .map((x) => x.c);
}

export interface ConversionTarget {
  group: string;
  version: string;
  kind: string;
}

export interface OutputRestrictions {
  /**
   * Whether the endpoint can serve a conversion target (`as`/`g`/`v`) in a codec. Default: a
   * resource endpoint's (Table in JSON/YAML, PartialObjectMetadata and PartialObjectMetadataList
   * in any codec, from meta.k8s.io v1 or v1beta1).
   */
  allowConversion?: (target: ConversionTarget, codec: Codec) => boolean;
  /** The media types the route produces (go-restful's check). Default SUPPORTED_MEDIA_TYPES. */
  produces?: readonly string[];
  /** A watch: the chosen format must have a stream form (JSON, protobuf); YAML is 406. */
  stream?: boolean;
  /** The formats the endpoint serves without conversion (Kubernetes' StandardSerializers). Default all. */
  codecs?: readonly Codec[];
}

export interface OutputChoice {
  /** `application/json`, `application/yaml` or `application/vnd.kubernetes.protobuf`. */
  mediaType: string;
  codec: Codec;
  /** The Content-Type header of the response. */
  contentType: string;
  /** The conversion target (as=Table;g=meta.k8s.io;v=v1), if any. */
  as?: string;
  g?: string;
  v?: string;
  /** `watch` when a stream was asked for. */
  stream?: string;
  /** `pretty=1` was asked for (indented output). */
  pretty: boolean;
}

/** Kubernetes' AllowsMediaTypeTransform for resource endpoints. */
export function resourceConversions(target: ConversionTarget, codec: Codec): boolean {
  if (target.group !== 'meta.k8s.io' || (target.version !== 'v1' && target.version !== 'v1beta1')) return false;
  switch (target.kind) {
    case 'Table':
      return codec === 'json' || codec === 'yaml';
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return true;
    default:
      return false;
  }
}

/** No conversions (Kubernetes' DefaultEndpointRestrictions): used to negotiate error bodies. */
export const noConversions = (): boolean => false;

function goRestfulAccepts(header: string, produces: readonly string[]): boolean {
  for (const raw of header.split(',')) {
    const semi = raw.indexOf(';');
    const mt = (semi >= 0 ? raw.slice(0, semi) : raw).trim();
    if (mt === '*/*') return true;
    for (const p of produces) if (p === '*/*' || p === mt) return true;
  }
  return false;
}

function tryNegotiate(header: string, r: OutputRestrictions): OutputChoice | undefined {
  const codecs = r.codecs ?? (['json', 'yaml', 'protobuf'] as const);
  const allow = r.allowConversion ?? resourceConversions;
  const clauses = header.trim() === '' ? [] : parseAccept(header);
  if (header.trim() === '') return finish(MEDIA_TYPE_JSON, {}, r);
  for (const c of clauses) {
    if (c.q <= 0) continue; // q=0: not acceptable (RFC 7231)
    for (const mediaType of SUPPORTED_MEDIA_TYPES) {
      const codec = CODEC_OF[mediaType]!;
      const [type, subtype] = mediaType.split('/') as [string, string];
      const matches =
        (c.type === type && c.subtype === subtype) || (c.type === type && c.subtype === '*') || (c.type === '*' && c.subtype === '*');
      if (!matches) continue;
      const p = c.params;
      if (p.stream !== undefined && p.stream !== '' && (codec === 'yaml' || p.stream !== 'watch')) continue;
      const convert = p.as !== undefined || p.g !== undefined || p.v !== undefined;
      if (convert) {
        if (!allow({ group: p.g ?? '', version: p.v ?? '', kind: p.as ?? '' }, codec)) continue;
      } else if (!codecs.includes(codec)) continue;
      return finish(mediaType, p, r);
    }
  }
  return undefined;
}

function finish(mediaType: string, p: Record<string, string>, r: OutputRestrictions): OutputChoice {
  const codec = CODEC_OF[mediaType]!;
  const choice: OutputChoice = { mediaType, codec, contentType: mediaType, pretty: p.pretty === '1' };
  if (p.as !== undefined || p.g !== undefined || p.v !== undefined) {
    if (p.as !== undefined) choice.as = p.as;
    if (p.g !== undefined) choice.g = p.g;
    if (p.v !== undefined) choice.v = p.v;
    // Kubernetes' generateMediaTypeWithGVK: g, v, as.
    let ct = mediaType;
    if (p.g) ct += `;g=${p.g}`;
    if (p.v) ct += `;v=${p.v}`;
    if (p.as) ct += `;as=${p.as}`;
    choice.contentType = ct;
  }
  if (p.stream) choice.stream = p.stream;
  if (r.stream) {
    choice.stream = 'watch';
    // JSON watch streams are served as plain application/json.
    choice.contentType = codec === 'json' ? MEDIA_TYPE_JSON : `${mediaType};stream=watch`;
  }
  return choice;
}

/**
 * Chooses the response format for an Accept header (undefined or empty: JSON). Throws a 406
 * StatusError with Kubernetes' message (and `rawJson` when Kubernetes writes it as indented JSON).
 */
export function negotiateOutput(accept: string | undefined, restrictions: OutputRestrictions = {}): OutputChoice {
  const header = accept ?? '';
  const produces = restrictions.produces ?? SUPPORTED_MEDIA_TYPES;
  const errorNegotiable = (): boolean => tryNegotiate(header, { allowConversion: noConversions }) !== undefined;
  if (header.trim() !== '' && !goRestfulAccepts(header, produces)) {
    throw StatusError.notAcceptable(`406: Not Acceptable\n\nAvailable representations: ${produces.join(', ')}`, {
      details: {},
      rawJson: !errorNegotiable(),
    });
  }
  const choice = tryNegotiate(header, restrictions);
  if (choice === undefined || (restrictions.stream && choice.codec === 'yaml')) {
    const supported = restrictions.stream ? SUPPORTED_STREAM_MEDIA_TYPES : SUPPORTED_MEDIA_TYPES;
    throw StatusError.notAcceptable(`only the following media types are accepted: ${supported.join(', ')}`, {
      rawJson: !errorNegotiable(),
    });
  }
  return choice;
}

/**
 * The format to write an error Status in for this Accept header (Kubernetes' ErrorNegotiated:
 * no conversions), or undefined when it must be written as indented JSON.
 */
export function negotiateErrorOutput(accept: string | undefined): OutputChoice | undefined {
  const header = accept ?? '';
  return tryNegotiate(header, { allowConversion: noConversions });
}

// ---------------------------------------------------------------------------------------------
// Content-Type.
// ---------------------------------------------------------------------------------------------

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Go's mime.ParseMediaType (the parts Kubernetes relies on): lower-cased `type/subtype` and its
 * parameters; undefined when malformed.
 */
export function parseMediaType(value: string): { mediaType: string; params: Record<string, string> } | undefined {
  const semi = value.indexOf(';');
  const base = (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
  const slash = base.indexOf('/');
  if (slash <= 0 || !TOKEN.test(base.slice(0, slash)) || !TOKEN.test(base.slice(slash + 1))) return undefined;
  const params: Record<string, string> = {};
  let rest = semi < 0 ? '' : value.slice(semi + 1);
  while (rest.trim() !== '') {
    const m = /^\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*("(?:[^"\\]|\\.)*"|[!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*(?:;|$)/.exec(rest);
    if (!m) {
      // A trailing ';' is tolerated; anything else is malformed.
      if (/^\s*;?\s*$/.test(rest)) break;
      return undefined;
    }
    const key = m[1]!.toLowerCase();
    if (key in params) return undefined;
    params[key] = m[2]!.startsWith('"') ? m[2]!.slice(1, -1).replace(/\\(.)/g, '$1') : m[2]!;
    rest = rest.slice(m[0].length);
  }
  return { mediaType: base, params };
}

export interface InputChoice {
  /** The bare media type. */
  mediaType: string;
  /** How to decode the body: a codec, or (for PATCH) the patch document's syntax. */
  codec: Codec;
  /** For PATCH: the patch type. */
  patchType?: PatchType;
}

export interface InputOptions {
  /** A PATCH request: the body is a patch (Content-Type one of the patch media types). */
  patch?: boolean;
  /** Patch types the resource supports (default all four; custom resources lack strategic). */
  patchTypes?: readonly PatchType[];
}

const UNKNOWN_FORMAT = 'the body of the request was in an unknown format - accepted media types include: ';

/**
 * Chooses how to decode a request body from its Content-Type (charset and other parameters are
 * ignored). Throws a 415 StatusError with Kubernetes' message.
 */
export function negotiateInput(contentType: string | undefined, opts: InputOptions = {}): InputChoice {
  const header = contentType ?? '';
  if (opts.patch) {
    // go-restful's Consumes check: case-sensitive, parameters cut at ';'.
    const consumes = SUPPORTED_PATCH_MEDIA_TYPES;
    let found: string | undefined;
    if (header.trim() !== '')
      for (const raw of header.split(',')) {
        const semi = raw.indexOf(';');
        const mt = (semi >= 0 ? raw.slice(0, semi) : raw).trim();
        if (consumes.includes(mt)) {
          found = mt;
          break;
        }
      }
    if (found === undefined) throw StatusError.unsupportedMediaType('415: Unsupported Media Type', { details: {} });
    // The patch handler: the Content-Type up to ';'.
    const semi = header.indexOf(';');
    const mt = (semi > 0 ? header.slice(0, semi) : header).trim();
    const allowed = opts.patchTypes ?? (Object.keys(PATCH_MEDIA_TYPES) as PatchType[]);
    const patchType = allowed.find((t) => PATCH_MEDIA_TYPES[t] === mt);
    if (patchType === undefined)
      throw StatusError.unsupportedMediaType(UNKNOWN_FORMAT + allowed.map((t) => PATCH_MEDIA_TYPES[t]).join(', '));
    return { mediaType: mt, codec: patchType === 'apply-patch' ? 'yaml' : 'json', patchType };
  }
  if (header.trim() === '') return { mediaType: MEDIA_TYPE_JSON, codec: 'json' };
  const parsed = parseMediaType(header);
  const codec = parsed ? CODEC_OF[parsed.mediaType] : undefined;
  if (parsed === undefined || codec === undefined)
    throw StatusError.unsupportedMediaType(UNKNOWN_FORMAT + SUPPORTED_MEDIA_TYPES.join(', '));
  return { mediaType: parsed.mediaType, codec };
}
