// kubelite's codecs: JSON, YAML and protobuf on the wire, derived from the schema; content
// negotiation; limits. See each module's header for the details.
export {
  MAX_BODY_BYTES,
  MAX_DEPTH,
  goFieldPath,
  strictPath,
  userPath,
} from './common.js';
export {
  canonicalize,
  normalize,
  zeroValue,
  type FieldValidation,
  type NormalizeOptions,
  type NormalizeResult,
} from './normalize.js';
export {
  bodyText,
  cannotHandlePrefix,
  decodeJson,
  decodeParsed,
  encodeJson,
  encodeJsonBytes,
  parseJson,
  stringifyJson,
  type DecodeOptions,
  type DecodeResult,
  type GroupVersionKind,
} from './json.js';
export { decodeYaml, encodeYaml, parseYaml, yamlKeyLess, type YamlEncodeOptions } from './yaml.js';
export {
  decodeMessage,
  decodeProtobuf,
  encodeMessage,
  encodeProtobuf,
  isProtobuf,
  PROTOBUF_MAGIC,
  readEnvelope,
  type Envelope,
  type ProtobufDecodeOptions,
  type ProtobufDecodeResult,
  type TypeMeta,
} from './protobuf.js';
export {
  decodeWatchEventJson,
  decodeWatchFrame,
  encodeWatchEventJson,
  encodeWatchEventProtobuf,
  encodeWatchFrame,
  JsonWatchDecoder,
  MAX_WATCH_FRAME_BYTES,
  parseWatchEventMessage,
  WatchFrameDecoder,
  type DecodedWatchEvent,
  type WatchEventType,
  type WatchFrame,
} from './watch.js';
export {
  MEDIA_TYPE_JSON,
  MEDIA_TYPE_PROTOBUF,
  MEDIA_TYPE_YAML,
  negotiateErrorOutput,
  negotiateInput,
  negotiateOutput,
  noConversions,
  parseAccept,
  parseMediaType,
  PATCH_MEDIA_TYPES,
  resourceConversions,
  SUPPORTED_MEDIA_TYPES,
  SUPPORTED_PATCH_MEDIA_TYPES,
  SUPPORTED_STREAM_MEDIA_TYPES,
  type AcceptClause,
  type Codec,
  type ConversionTarget,
  type InputChoice,
  type InputOptions,
  type OutputChoice,
  type OutputRestrictions,
  type PatchType,
} from './negotiation.js';
export { canonicalDuration, canonicalMicroTime, canonicalTime, formatDuration, parseDuration } from './time.js';

import type { StructType } from '../../api/schema/dsl.js';
import { decodeJson, encodeJson, type DecodeOptions, type DecodeResult } from './json.js';
import type { Codec } from './negotiation.js';
import { decodeProtobuf, encodeProtobuf, type TypeMeta } from './protobuf.js';
import { decodeYaml, encodeYaml } from './yaml.js';

/** Decodes a request body in the negotiated codec (protobuf bodies have no field validation). */
export function decodeBody<T = Record<string, unknown>>(
  codec: Codec,
  body: Uint8Array,
  type: StructType,
  opts: DecodeOptions = {},
): DecodeResult<T> {
  switch (codec) {
    case 'json':
      return decodeJson<T>(body, type, opts);
    case 'yaml':
      return decodeYaml<T>(body, type, opts);
    case 'protobuf': {
      const { object } = decodeProtobuf<T>(body, type, opts.maxBytes === undefined ? {} : { maxBytes: opts.maxBytes });
      return { object, unknownFields: [], duplicateFields: [], warnings: [] };
    }
  }
}

/** Encodes a canonical object in the negotiated codec (JSON with its trailing newline). */
export function encodeBody(codec: Codec, object: unknown, type: StructType, typeMeta?: Partial<TypeMeta>): Buffer {
  switch (codec) {
    case 'json':
      return Buffer.from(encodeJson(object), 'utf8');
    case 'yaml':
      return Buffer.from(encodeYaml(object), 'utf8');
    case 'protobuf':
      return encodeProtobuf(object, type, typeMeta);
  }
}
