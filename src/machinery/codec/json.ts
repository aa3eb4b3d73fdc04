// application/json: decoding a request body into canonical form (with Kubernetes' field
// validation: unknown and duplicate fields as warnings or strict errors) and encoding objects as
// kube-apiserver writes them.
//
// Decoding is JSON.parse + normalize (compiled per struct) on the common path. Duplicate keys,
// which JSON.parse silently collapses, are detected by comparing the number of keys in the text
// (countKeys: indexOf jumps between `":` sequences) with the number of keys normalize saw; only
// when they differ does a complete JavaScript scan run to find and name them. Syntax errors get
// Go's encoding/json messages from the same scanner. Nesting is bounded after parsing (V8's
// JSON.parse is iterative), by normalize and the raw-subtree walks, at MAX_DEPTH.
import type { StructType } from '../../api/schema/dsl.js';
import { goEscape, StatusError } from '../status.js';
import {
  asBuffer,
  DecodeFailure,
  kindOf,
  MAX_BODY_BYTES,
  MAX_DEPTH,
  SEG_INDEX,
  SEG_KEY,
  strictPath,
  summarizeBody,
  toBadRequest,
  userPath,
} from './common.js';
import { countKeys, JsonDepthError, JsonSyntaxError, preciseScan } from './jsonscan.js';
import { newContext, structNormalizer, type FieldValidation } from './normalize.js';

export type { FieldValidation } from './normalize.js';

export interface GroupVersionKind {
  group?: string;
  version: string;
  kind: string;
}

export interface DecodeOptions {
  /** Kubernetes' fieldValidation: Strict (400 on unknown/duplicate fields), Warn (default), Ignore. */
  fieldValidation?: FieldValidation;
  /**
   * The group/version/kind the request URL implies: named in error messages when the body has no
   * apiVersion/kind (Kubernetes' defaultGVK).
   */
  defaultGVK?: GroupVersionKind;
  /** Body size limit in bytes (default 3 MiB): larger → 413 RequestEntityTooLarge. */
  maxBytes?: number;
}

export interface DecodeResult<T = Record<string, unknown>> {
  /** The canonical form of the body. */
  object: T;
  /** Unknown fields as paths (`.spec.foo`), in document order. Empty with Ignore. */
  unknownFields: string[];
  /** Duplicated keys as paths (`.metadata.name`), in document order. Empty with Ignore. */
  duplicateFields: string[];
  /**
   * Kubernetes' warning texts for the above, in document order (`unknown field "spec.foo"`,
   * `duplicate field "metadata.name"`): one `Warning: 299 - "<text>"` header each under Warn.
   */
  warnings: string[];
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Request bytes → text, enforcing the size limit. */
export function bodyText(input: Uint8Array | string, maxBytes = MAX_BODY_BYTES): string {
  if (typeof input === 'string') {
    if (input.length > maxBytes / 3 && Buffer.byteLength(input, 'utf8') > maxBytes)
      throw StatusError.requestEntityTooLarge(maxBytes);
    return input;
  }
  if (input.byteLength > maxBytes) throw StatusError.requestEntityTooLarge(maxBytes);
  return input.byteLength < 4096 ? utf8.decode(input) : asBuffer(input).toString('utf8');
}

/** The body's apiVersion/kind as Kubernetes' decoder reports them in errors. */
function bodyGVK(obj: unknown, def: GroupVersionKind | undefined, type: StructType): { kind: string; version: string } {
  let kind = def?.kind ?? kindOf(type);
  let version = def?.version ?? '';
  if (typeof obj === 'object' && obj !== null && !Array.isArray(obj)) {
    const o = obj as Record<string, unknown>;
    if (typeof o.kind === 'string' && o.kind !== '') kind = o.kind;
    if (typeof o.apiVersion === 'string' && o.apiVersion !== '') {
      const slash = o.apiVersion.lastIndexOf('/');
      version = slash < 0 ? o.apiVersion : o.apiVersion.slice(slash + 1);
    }
  }
  return { kind, version };
}

/** "ConfigMap in version "v1" cannot be handled as a ConfigMap: " */
export function cannotHandlePrefix(obj: unknown, type: StructType, def?: GroupVersionKind): string {
  const { kind, version } = bodyGVK(obj, def, type);
  return `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kindOf(type)}: `;
}

const FIND_KIND_TYPE =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** The error Kubernetes gives when it cannot even read apiVersion/kind from the body. */
function unrecognized(type: StructType, reason: string, body: Uint8Array | string): StatusError {
  return StatusError.badRequest(
    `the object provided is unrecognized (must be of type ${kindOf(type)}): couldn't get version/kind; json parse error: ${reason} (${summarizeBody(body)})`,
  );
}

/** Orders strict-decoding findings as Go reports them: by position in the document. */
function order(
  text: string,
  type: StructType,
  unknown: string[],
  dups: Array<{ path: string; offset: number }>,
): Array<{ kind: 'unknown' | 'duplicate'; path: string }> {
  const items: Array<{ kind: 'unknown' | 'duplicate'; path: string; at: number }> = [];
  let positions: Map<string, number> | undefined;
  if (unknown.length + dups.length > 1 && unknown.length > 0) {
    try {
      positions = preciseScan(text, type, true).positions;
    } catch {
      positions = undefined;
    }
  }
  unknown.forEach((p, k) => items.push({ kind: 'unknown', path: p, at: positions?.get(p) ?? k }));
  for (const d of dups) items.push({ kind: 'duplicate', path: d.path, at: d.offset });
  if (positions || unknown.length === 0) items.sort((a, b) => a.at - b.at);
  return items;
}

/**
 * Decodes a JSON request body into the canonical form of `type`. Throws a StatusError: 413 when
 * larger than the limit, 400 BadRequest for malformed JSON, wrongly typed fields (message as
 * Kubernetes words it, causes[0].field the path), nesting deeper than 100, or — with Strict —
 * unknown or duplicate fields.
 */
export function decodeJson<T = Record<string, unknown>>(
  input: Uint8Array | string,
  type: StructType,
  opts: DecodeOptions = {},
): DecodeResult<T> {
  const validation = opts.fieldValidation ?? 'Warn';
  const text = bodyText(input, opts.maxBytes);
  let parsed: unknown;
  try {
    // V8's JSON.parse is iterative: any nesting parses; normalize bounds the depth afterwards.
    parsed = JSON.parse(text);
  } catch (e) {
    throw syntaxError(text, type, input, e);
  }
  const keys = validation === 'Ignore' ? 0 : countKeys(text);
  return decodeParsed<T>(parsed, text, type, validation, opts.defaultGVK, input, keys);
}

/** The error for text JSON.parse rejected, with Go's message (found by the precise scanner). */
function syntaxError(text: string, type: StructType, input: Uint8Array | string, cause: unknown): StatusError {
  try {
    preciseScan(text);
  } catch (s) {
    if (s instanceof JsonSyntaxError) return unrecognized(type, s.message, input);
    if (s instanceof JsonDepthError) return depthError(type, s.path);
  }
  return unrecognized(type, cause instanceof Error ? cause.message : String(cause), input);
}

function depthError(type: StructType, markerPath: string): StatusError {
  const path = userPath(markerPath) || '.';
  return StatusError.badRequest(
    `the object provided is unrecognized (must be of type ${kindOf(type)}): json: exceeded max depth ${MAX_DEPTH} at ${path}`,
    { causes: [{ reason: 'FieldValueInvalid', message: `nesting deeper than ${MAX_DEPTH} levels`, field: path }] },
  );
}

/**
 * The second half of decodeJson, for a value already parsed from `text` (also used by the YAML
 * decoder with text = null: no duplicate detection on the JSON text).
 */
export function decodeParsed<T>(
  parsed: unknown,
  text: string | null,
  type: StructType,
  validation: FieldValidation,
  defaultGVK: GroupVersionKind | undefined,
  body: Uint8Array | string,
  textKeys = 0,
  extraDuplicates: Array<{ path: string; offset: number }> = [],
): DecodeResult<T> {
  if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
    const what = Array.isArray(parsed) ? 'array' : typeof parsed === 'number' ? 'number' : typeof parsed === 'boolean' ? 'bool' : 'string';
    throw unrecognized(type, `json: cannot unmarshal ${what} into Go value of type ${FIND_KIND_TYPE}`, body);
  }
  if (parsed !== null) {
    const o = parsed as Record<string, unknown>;
    for (const k of ['apiVersion', 'kind'] as const) {
      const v = o[k];
      if (v !== undefined && v !== null && typeof v !== 'string') {
        const what = Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'object';
        throw unrecognized(type, `json: cannot unmarshal ${what} into Go struct field .${k} of type string`, body);
      }
    }
  }
  const count = text !== null && validation !== 'Ignore';
  const c = newContext(validation, count, true);
  let object: unknown;
  try {
    object = structNormalizer(type)(parsed, c, '', 1);
  } catch (e) {
    const prefix = cannotHandlePrefix(parsed, type, defaultGVK);
    if (e instanceof DecodeFailure) throw toBadRequest(e, prefix);
    throw toBadRequest(e, prefix);
  }
  if (validation === 'Ignore') return { object: object as T, unknownFields: [], duplicateFields: [], warnings: [] };

  let dups = extraDuplicates;
  if (count && c.keys !== textKeys) {
    try {
      dups = dups.concat(preciseScan(text, type).duplicates);
    } catch {
      // Already parsed by JSON.parse: cannot fail; ignore.
    }
  }
  if (c.unknown.length === 0 && dups.length === 0)
    return { object: object as T, unknownFields: [], duplicateFields: [], warnings: [] };

  const items = text === null ? orderParsed(c.unknown, dups) : order(text, type, c.unknown, dups);
  const warnings = items.map((it) => `${it.kind} field ${JSON.stringify(strictPath(it.path))}`);
  if (validation === 'Strict')
    throw StatusError.badRequest(
      cannotHandlePrefix(parsed, type, defaultGVK) + 'strict decoding error: ' + warnings.join(', '),
      {
        causes: items.map((it) => ({
          reason: it.kind === 'unknown' ? 'FieldValueInvalid' : 'FieldValueDuplicate',
          message: `${it.kind} field`,
          field: userPath(it.path),
        })),
      },
    );
  return {
    object: object as T,
    unknownFields: items.filter((i) => i.kind === 'unknown').map((i) => userPath(i.path)),
    duplicateFields: items.filter((i) => i.kind === 'duplicate').map((i) => userPath(i.path)),
    warnings,
  };
}

/** Document order of paths in an already-parsed value (insertion order of keys), for YAML. */
function orderParsed(
  unknown: string[],
  dups: Array<{ path: string; offset: number }>,
): Array<{ kind: 'unknown' | 'duplicate'; path: string }> {
  const items: Array<{ kind: 'unknown' | 'duplicate'; path: string; at: number }> = [];
  for (const d of dups) items.push({ kind: 'duplicate', path: d.path, at: d.offset });
  unknown.forEach((p, k) => items.push({ kind: 'unknown', path: p, at: Number.MAX_SAFE_INTEGER - unknown.length + k }));
  items.sort((a, b) => a.at - b.at);
  return items;
}

/** JSON.stringify with Go's escaping (<, >, &, U+2028/9, \b, \f): Kubernetes' compact JSON. */
export function stringifyJson(value: unknown): string {
  return goEscape(JSON.stringify(value));
}

/** A response body as kube-apiserver writes it: compact JSON and a trailing newline. */
export function encodeJson(value: unknown): string {
  return goEscape(JSON.stringify(value)) + '\n';
}

/** encodeJson as UTF-8 bytes. */
export function encodeJsonBytes(value: unknown): Buffer {
  return Buffer.from(encodeJson(value), 'utf8');
}

/**
 * Parses arbitrary JSON (no schema) with the same limits and Go's error messages: for patch
 * documents and other untyped bodies. Throws a BadRequest StatusError.
 */
export function parseJson(input: Uint8Array | string, maxBytes = MAX_BODY_BYTES): unknown {
  const text = bodyText(input, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    try {
      preciseScan(text);
    } catch (s) {
      if (s instanceof JsonSyntaxError) throw StatusError.badRequest(s.message);
      if (s instanceof JsonDepthError) throw depthFailure(s.path);
    }
    throw StatusError.badRequest(e instanceof Error ? e.message : String(e));
  }
  if (mayNestDeeper(text, MAX_DEPTH)) {
    const deepAt = tooDeep(value, MAX_DEPTH);
    if (deepAt !== undefined) throw depthFailure(deepAt);
  }
  return value;
}

/** False when the text has at most `limit` opening brackets in all (so cannot nest deeper). */
function mayNestDeeper(text: string, limit: number): boolean {
  let n = 0;
  for (const c of ['{', '[']) {
    let i = text.indexOf(c);
    while (i !== -1) {
      if (++n > limit) return true;
      i = text.indexOf(c, i + 1);
    }
  }
  return false;
}

function depthFailure(markerPath: string): StatusError {
  const path = userPath(markerPath) || '.';
  return StatusError.badRequest(`json: exceeded max depth ${MAX_DEPTH} at ${path}`, {
    causes: [{ reason: 'FieldValueInvalid', message: `nesting deeper than ${MAX_DEPTH} levels`, field: path }],
  });
}

/** The marker path where `v` nests deeper than `limit` objects/arrays, if it does. */
export function tooDeep(v: unknown, limit: number, path = '', depth = 1): string | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  if (depth > limit) return path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (typeof e === 'object' && e !== null) {
        const r = tooDeep(e, limit, path + SEG_INDEX + i, depth + 1);
        if (r !== undefined) return r;
      }
    }
    return undefined;
  }
  for (const k in v) {
    const e = (v as Record<string, unknown>)[k];
    if (typeof e === 'object' && e !== null) {
      const r = tooDeep(e, limit, path + SEG_KEY + k, depth + 1);
      if (r !== undefined) return r;
    }
  }
  return undefined;
}
