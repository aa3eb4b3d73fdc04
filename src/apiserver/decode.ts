// Request bodies → objects: the Content-Type picks the codec (JSON when none is given, 415 for
// anything else, with Kubernetes' messages), the codec decodes and validates fields.
import type { StructType } from '../api/schema/dsl.js';
import type { KubeObject } from '../api/schema/kind.js';
import { decodeBody as decodeWith } from '../machinery/codec/index.js';
import type { DecodeOptions } from '../machinery/codec/json.js';
import { negotiateInput, type InputChoice } from '../machinery/codec/negotiation.js';

export interface DecodedBody {
  object: KubeObject;
  warnings: string[];
}

// The same few Content-Types come with every request: negotiate each once (refusals are not kept).
const inputs = new Map<string, InputChoice>();
const MAX_INPUTS = 256;

function inputOf(contentType: string | undefined): InputChoice {
  const key = contentType ?? '';
  let input = inputs.get(key);
  if (input === undefined) {
    input = negotiateInput(contentType);
    if (inputs.size >= MAX_INPUTS) inputs.clear();
    inputs.set(key, input);
  }
  return input;
}

/** Whether a body of this Content-Type is JSON (what the create-body memo reads). */
export function isJsonBody(contentType: string | undefined): boolean {
  return inputOf(contentType).codec === 'json';
}

export function decodeBody(bytes: Uint8Array, contentType: string | undefined, type: StructType, opts: DecodeOptions = {}): DecodedBody {
  const input = inputOf(contentType);
  const r = decodeWith<KubeObject>(input.codec, bytes, type, opts);
  return { object: r.object, warnings: r.warnings };
}
