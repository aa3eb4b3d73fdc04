// The generic half of field selectors on a kind, as kube-apiserver has it (the kind-specific half,
// which labels and fields each kind has, is in the kind's registry module):
// - field label conversion (pkg/apis/*/<version> AddFieldLabelConversionFunc): the labels a
//   request may use (with aliases, e.g. Pod's legacy spec.host) and the exact error for any other;
//   kinds without one accept metadata.name and metadata.namespace only;
// - selectable fields (pkg/registry/*/strategy.go ToSelectableFields/GetAttrs): the values
//   matched, computed from the stored object (JSON of the storage version). A field a conversion
//   accepts but the registry does not compute (Pod's status.podIPs, the beta StatefulSet's
//   status.successful) reads as "" — as in Kubernetes.

import { goQuote } from '../patch/gofmt.js';
import { SelectorError } from './errors.js';
import { type FieldSelector, type FieldTransform, parseFieldSelector } from './fields.js';

/** The field labels a kind accepts in one version, and the error for any other. */
export interface FieldLabelConversion {
  labels: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  error: (label: string) => string;
}

/** The message shapes of Kubernetes' conversion functions. */
export const fieldLabelErrors = {
  notSupported: (label: string): string => `field label not supported: ${label}`,
  quotedForKind: (kind: string) => (label: string): string => `field label ${goQuote(label)} not supported for ${goQuote(kind)}`,
};

export const META_FIELD_LABELS = ['metadata.name', 'metadata.namespace'] as const;

/** runtime.DefaultMetaV1FieldSelectorConversion. */
export const defaultFieldLabelConversion: FieldLabelConversion = {
  labels: META_FIELD_LABELS,
  error: (l) => `${goQuote(l)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

/** Scheme.ConvertFieldLabel: the internal label for `label`, or SelectorError (400). */
export function convertFieldLabel(conversion: FieldLabelConversion, label: string, value: string): [string, string] {
  if (conversion.labels.includes(label)) return [label, value];
  const alias = conversion.aliases?.[label];
  if (alias !== undefined && Object.prototype.hasOwnProperty.call(conversion.aliases, label)) return [alias, value];
  throw new SelectorError(conversion.error(label));
}

/** A field label conversion as a FieldSelector transform. */
export function fieldLabelTransform(conversion: FieldLabelConversion): FieldTransform {
  return (label, value) => convertFieldLabel(conversion, label, value);
}

/**
 * Parses a `fieldSelector` as kube-apiserver does for a list or watch: the syntax, then the kind's
 * field label conversion. Throws SelectorError (400) with Kubernetes' message, e.g. "field label
 * not supported: spec.unknownField" for pods.
 */
export function parseFieldSelectorWith(conversion: FieldLabelConversion, selector: string): FieldSelector {
  return parseFieldSelector(selector, fieldLabelTransform(conversion));
}

// ---------------------------------------------------------------------------------------------
// Selectable fields.

type Obj = Record<string, unknown>;
/** One selectable field's value, read from a stored object. */
export type FieldExtractor = (o: Obj) => string;

// Extractors are made once per field (each write of an object computes its fields): the path is
// bound when the extractor is built, not spread into a call per read.
/** The value at `path`, undefined where the path leaves the objects. */
export function valueAt(o: unknown, path: readonly string[]): unknown {
  let cur = o;
  for (const p of path) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = Object.prototype.hasOwnProperty.call(cur, p) ? (cur as Obj)[p] : undefined;
  }
  return cur;
}

/** The field readers kinds declare their selectable fields with, as Kubernetes formats the values. */
export const fieldAt = {
  /** A string ('' when unset). */
  string: (...path: string[]): FieldExtractor => (o) => {
    const v = valueAt(o, path);
    return typeof v === 'string' ? v : '';
  },
  /** strconv.FormatBool / fmt.Sprint of a bool (false when unset). */
  bool: (...path: string[]): FieldExtractor => (o) => (valueAt(o, path) === true ? 'true' : 'false'),
  /** strconv.Itoa of an int32 (0 when unset). */
  int: (...path: string[]): FieldExtractor => (o) => {
    const v = valueAt(o, path);
    return typeof v === 'number' && Number.isFinite(v) ? String(Math.trunc(v)) : '0';
  },
};

const metadataName = fieldAt.string('metadata', 'name');
const metadataNamespace = fieldAt.string('metadata', 'namespace');

/**
 * The fields.Set of a kind's stored objects: metadata.name and metadata.namespace for every kind,
 * plus the kind's own fields. The entries are bound once per kind.
 */
export function selectableFieldSet(own: Readonly<Record<string, FieldExtractor>> = {}): (obj: object) => Record<string, string> {
  const entries = Object.entries(own);
  return (obj) => {
    const o = obj as Obj;
    const out: Record<string, string> = { 'metadata.name': metadataName(o), 'metadata.namespace': metadataNamespace(o) };
    for (const [k, f] of entries) out[k] = f(o);
    return out;
  };
}
