// GET /openapi/v2 as kube-apiserver serves it (kube-openapi's OpenAPIService): the Swagger 2.0
// document in JSON or, for `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`
// (or the newer `...spec.v2.v1.0+protobuf`), in gnostic's protobuf form, which kubectl and
// client-go's discovery client ask for. The first Accept clause (goautoneg order) that matches
// decides; nothing matching is a 406 with an empty body. Both forms carry the ETag of the JSON
// bytes (quoted upper-case hex SHA-512, `Vary: Accept` telling them apart), and If-None-Match /
// If-Modified-Since give 304 as Go's http.ServeContent does. The protobuf is encoded on the first
// request that wants it, then kept.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseAccept } from '../machinery/codec/negotiation.js';
import { writeBytes } from './http/respond.js';
import { swaggerToProtobuf } from '../machinery/openapi/v2-protobuf.js';

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** kube-openapi's accepted list, in its order: subtype → what is served. */
const ACCEPTED: ReadonlyArray<{ subtype: string; form: 'json' | 'protobuf'; contentType: string }> = [
  { subtype: 'json', form: 'json', contentType: 'application/json' },
  { subtype: 'com.github.proto-openapi.spec.v2@v1.0+protobuf', form: 'protobuf', contentType: OPENAPI_V2_PROTOBUF },
  { subtype: 'com.github.proto-openapi.spec.v2.v1.0+protobuf', form: 'protobuf', contentType: OPENAPI_V2_PROTOBUF },
];

/** The form an Accept header gets, or undefined (406). */
export function negotiateOpenApiV2(accept: string | undefined): (typeof ACCEPTED)[number] | undefined {
  for (const clause of parseAccept(accept === undefined || accept === '' ? '*/*' : accept)) {
    if (clause.q <= 0) continue;
    for (const a of ACCEPTED) {
      if (clause.type !== 'application' && clause.type !== '*') continue;
      if (clause.subtype !== a.subtype && clause.subtype !== '*') continue;
      return a;
    }
  }
  return undefined;
}

/** Go's checkIfNoneMatch: a list of entity tags (weak comparison) or `*`. */
function noneMatch(header: string, etag: string): boolean {
  for (const raw of header.split(',')) {
    const t = raw.trim();
    if (t === '*') return true;
    if ((t.startsWith('W/') ? t.slice(2) : t) === etag) return true;
  }
  return false;
}

export class OpenApiV2Endpoint {
  private etagValue?: string;
  private protobuf?: Buffer;
  /** Last-Modified: when the document was built, at Go's one-second resolution. */
  private readonly lastModified = new Date(Math.floor(Date.now() / 1000) * 1000);

  constructor(private readonly json: Buffer) {}

  get etag(): string {
    this.etagValue ??= `"${createHash('sha512').update(this.json).digest('hex').toUpperCase()}"`;
    return this.etagValue;
  }

  /** The protobuf document, encoded once. */
  protobufBody(): Buffer {
    this.protobuf ??= swaggerToProtobuf(JSON.parse(this.json.toString('utf8')) as Record<string, unknown>);
    return this.protobuf;
  }

  serve(req: IncomingMessage, res: ServerResponse): void {
    res.appendHeader('Vary', 'Accept');
    const choice = negotiateOpenApiV2(req.headers.accept);
    if (!choice) {
      if (!res.hasHeader('Audit-Id')) res.setHeader('Audit-Id', randomUUID());
      res.setHeader('Cache-Control', 'no-cache, private');
      res.setHeader('Content-Length', 0);
      res.writeHead(406);
      res.end();
      return;
    }
    const etag = this.etag;
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    const notModified =
      ifNoneMatch !== undefined
        ? noneMatch(ifNoneMatch, etag)
        : ifModifiedSince !== undefined && !Number.isNaN(Date.parse(ifModifiedSince)) && this.lastModified.getTime() <= Date.parse(ifModifiedSince);
    if (notModified) {
      if (!res.hasHeader('Audit-Id')) res.setHeader('Audit-Id', randomUUID());
      res.setHeader('Cache-Control', 'no-cache, private');
      res.setHeader('Etag', etag);
      res.writeHead(304);
      res.end();
      return;
    }
    const body = choice.form === 'json' ? this.json : this.protobufBody();
    res.setHeader('Etag', etag);
    res.setHeader('Last-Modified', this.lastModified.toUTCString());
    writeBytes(res, 200, choice.contentType, body);
  }
}
