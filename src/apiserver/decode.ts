// Request bodies → objects, by Content-Type: JSON (the default when none is given, as in
// Kubernetes), YAML and protobuf; anything else is 415 with Kubernetes' message.
import { parse as yamlParse, YAMLParseError } from 'yaml';
import type { StructType } from '../api/schema/dsl.js';
import type { KubeObject } from '../api/schema/kind.js';
import { decodeJson, decodeParsed, type DecodeOptions } from '../machinery/codec/json.js';
import { decodeProtobuf } from '../machinery/codec/protobuf.js';
import { StatusError } from '../machinery/status.js';

export interface DecodedBody {
  object: KubeObject;
  warnings: string[];
}

export const ACCEPTED_INPUT = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';

/** The media type of a Content-Type header, without parameters, lower-cased ('' when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function unsupportedMediaType(): StatusError {
  return StatusError.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: ${ACCEPTED_INPUT}`);
}

export function decodeBody(bytes: Uint8Array, contentType: string | undefined, type: StructType, opts: DecodeOptions = {}): DecodedBody {
  switch (mediaTypeOf(contentType)) {
    case '':
    case 'application/json': {
      const r = decodeJson<KubeObject>(bytes, type, opts);
      return { object: r.object, warnings: r.warnings };
    }
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml': {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      let parsed: unknown;
      try {
        parsed = yamlParse(text, { maxAliasCount: 100, uniqueKeys: false });
      } catch (err) {
        const message = err instanceof YAMLParseError ? err.message : String(err);
        throw StatusError.badRequest(`error converting YAML to JSON: ${message}`);
      }
      const r = decodeParsed<KubeObject>(parsed, null, type, opts.fieldValidation ?? 'Warn', opts.defaultGVK, bytes);
      return { object: r.object, warnings: r.warnings };
    }
    case 'application/vnd.kubernetes.protobuf': {
      const r = decodeProtobuf<KubeObject>(bytes, type, { maxBytes: opts.maxBytes });
      return { object: r.object, warnings: [] };
    }
    default:
      throw unsupportedMediaType();
  }
}
