// Which field selectors each kind accepts, and the field values of an object, as kube-apiserver
// has them:
// - field label conversion, per group/version/kind (pkg/apis/*/<version> AddFieldLabelConversionFunc):
//   the labels a request may use (with aliases, e.g. Pod's legacy spec.host) and the exact error
//   for any other; kinds without one accept metadata.name and metadata.namespace only;
// - selectable fields, per group/kind (pkg/registry/*/strategy.go ToSelectableFields/GetAttrs):
//   the values matched, computed from the stored object (JSON of the storage version). A field a
//   conversion accepts but the registry does not compute (Pod's status.podIPs, the beta
//   StatefulSet's status.successful) reads as "" — as in Kubernetes.

import { goQuote } from '../patch/gofmt.js';
import { SelectorError } from './errors.js';
import { type FieldSelector, type FieldSet, type FieldTransform, parseFieldSelector } from './fields.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

interface Conversion {
  labels: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  error: (label: string) => string;
}

const notSupported = (label: string) => `field label not supported: ${label}`;
const quotedForKind = (kind: string) => (label: string) => `field label ${goQuote(label)} not supported for ${goQuote(kind)}`;
const meta = ['metadata.name', 'metadata.namespace'] as const;

const conversions: Record<string, Conversion> = {
  '/v1/Pod': {
    labels: [
      ...meta,
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.podIPs',
      'status.nominatedNodeName',
    ],
    // Old v1 clients send spec.host.
    aliases: { 'spec.host': 'spec.nodeName' },
    error: notSupported,
  },
  '/v1/Node': { labels: ['metadata.name', 'spec.unschedulable'], error: notSupported },
  '/v1/ReplicationController': { labels: [...meta, 'status.replicas'], error: notSupported },
  '/v1/Event': {
    labels: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
      ...meta,
    ],
    error: notSupported,
  },
  '/v1/Namespace': { labels: ['status.phase', 'metadata.name'], error: notSupported },
  '/v1/Secret': { labels: ['type', ...meta], error: notSupported },
  '/v1/Service': { labels: [...meta, 'spec.clusterIP', 'spec.type'], error: notSupported },
  'batch/v1/Job': { labels: [...meta, 'status.successful'], error: (l) => `field label ${goQuote(l)} not supported for batchv1.Job` },
  'apps/v1beta1/StatefulSet': {
    labels: [...meta, 'status.successful'],
    error: (l) => `field label not supported for appsv1beta1.StatefulSet: ${l}`,
  },
  'apps/v1beta2/StatefulSet': {
    labels: [...meta, 'status.successful'],
    error: (l) => `field label not supported for appsv1beta2.StatefulSet: ${l}`,
  },
};
for (const version of ['v1beta1', 'v2alpha1']) {
  for (const kind of ['Job', 'JobTemplate', 'CronJob']) {
    conversions[`batch/${version}/${kind}`] = { labels: [...meta, 'status.successful'], error: quotedForKind(kind) };
  }
}

/** runtime.DefaultMetaV1FieldSelectorConversion. */
const defaultConversion: Conversion = {
  labels: meta,
  error: (l) => `${goQuote(l)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

function conversionFor(gvk: GroupVersionKind): Conversion {
  return conversions[`${gvk.group}/${gvk.version}/${gvk.kind}`] ?? defaultConversion;
}

/** The field labels a field selector may use for this group/version/kind (aliases excluded). */
export function supportedFieldLabels(gvk: GroupVersionKind): readonly string[] {
  return conversionFor(gvk).labels;
}

/** Scheme.ConvertFieldLabel: the internal label for `label`, or SelectorError (400). */
export function convertFieldLabel(gvk: GroupVersionKind, label: string, value: string): [string, string] {
  const c = conversionFor(gvk);
  if (c.labels.includes(label)) return [label, value];
  const alias = c.aliases?.[label];
  if (alias !== undefined && Object.prototype.hasOwnProperty.call(c.aliases, label)) return [alias, value];
  throw new SelectorError(c.error(label));
}

/** The field label conversion of a kind, as a FieldSelector transform. */
export function fieldLabelConversion(gvk: GroupVersionKind): FieldTransform {
  return (label, value) => convertFieldLabel(gvk, label, value);
}

// ---------------------------------------------------------------------------------------------
// Selectable fields.

type Obj = Record<string, unknown>;
type Extractor = (o: Obj) => string;

// Extractors are made once per field (each write of an object computes its fields): the path is
// bound when the table is built, not spread into a call per read.
function at(o: unknown, path: readonly string[]): unknown {
  let cur = o;
  for (const p of path) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = Object.prototype.hasOwnProperty.call(cur, p) ? (cur as Obj)[p] : undefined;
  }
  return cur;
}
const str = (...path: string[]): Extractor => (o) => {
  const v = at(o, path);
  return typeof v === 'string' ? v : '';
};
/** strconv.FormatBool / fmt.Sprint of a bool (false when unset). */
const bool = (...path: string[]): Extractor => (o) => (at(o, path) === true ? 'true' : 'false');
/** strconv.Itoa of an int32 (0 when unset). */
const int = (...path: string[]): Extractor => (o) => {
  const v = at(o, path);
  return typeof v === 'number' && Number.isFinite(v) ? String(Math.trunc(v)) : '0';
};
const metadataName = str('metadata', 'name');
const metadataNamespace = str('metadata', 'namespace');
const podIP = str('status', 'podIP');
const STATUS_POD_IPS = ['status', 'podIPs'];
const IP = ['ip'];
const sourceComponent = str('source', 'component');
const reportingComponent = str('reportingComponent');

const selectable: Record<string, Record<string, Extractor>> = {
  '/Pod': {
    'spec.nodeName': str('spec', 'nodeName'),
    'spec.restartPolicy': str('spec', 'restartPolicy'),
    'spec.schedulerName': str('spec', 'schedulerName'),
    'spec.serviceAccountName': str('spec', 'serviceAccountName'),
    'spec.hostNetwork': bool('spec', 'hostNetwork'),
    'status.phase': str('status', 'phase'),
    // The first of status.podIPs (which the v1 API keeps in step with status.podIP).
    'status.podIP': (o) => {
      const ips = at(o, STATUS_POD_IPS);
      const first = Array.isArray(ips) ? at(ips[0], IP) : undefined;
      if (typeof first === 'string') return first;
      return podIP(o);
    },
    'status.nominatedNodeName': str('status', 'nominatedNodeName'),
  },
  '/Node': { 'spec.unschedulable': bool('spec', 'unschedulable') },
  '/Namespace': { 'status.phase': str('status', 'phase'), name: str('metadata', 'name') },
  '/Secret': { type: str('type') },
  '/Event': {
    'involvedObject.kind': str('involvedObject', 'kind'),
    'involvedObject.namespace': str('involvedObject', 'namespace'),
    'involvedObject.name': str('involvedObject', 'name'),
    'involvedObject.uid': str('involvedObject', 'uid'),
    'involvedObject.apiVersion': str('involvedObject', 'apiVersion'),
    'involvedObject.resourceVersion': str('involvedObject', 'resourceVersion'),
    'involvedObject.fieldPath': str('involvedObject', 'fieldPath'),
    reason: str('reason'),
    reportingComponent,
    source: (o) => sourceComponent(o) || reportingComponent(o),
    type: str('type'),
  },
  '/Service': { 'spec.clusterIP': str('spec', 'clusterIP'), 'spec.type': str('spec', 'type') },
  '/ReplicationController': { 'status.replicas': int('status', 'replicas') },
  'apps/ReplicaSet': { 'status.replicas': int('status', 'replicas') },
  'extensions/ReplicaSet': { 'status.replicas': int('status', 'replicas') },
  'batch/Job': { 'status.successful': int('status', 'succeeded') },
};

/**
 * The fields.Set a stored object is matched against: metadata.name and metadata.namespace for
 * every kind, plus the kind's own fields.
 */
export function selectableFields(gk: { group: string; kind: string }, obj: object): FieldSet {
  const o = obj as Obj;
  const out: Record<string, string> = {
    'metadata.name': metadataName(o),
    'metadata.namespace': metadataNamespace(o),
  };
  for (const [k, f] of ownFieldsOf(gk)) out[k] = f(o);
  return out;
}

/** A kind's own selectable fields, as entries, by its group/kind object (kinds are long-lived). */
const ownFields = new WeakMap<object, ReadonlyArray<readonly [string, Extractor]>>();

function ownFieldsOf(gk: { group: string; kind: string }): ReadonlyArray<readonly [string, Extractor]> {
  let own = ownFields.get(gk);
  if (own === undefined) {
    own = Object.entries(selectable[`${gk.group}/${gk.kind}`] ?? {});
    ownFields.set(gk, own);
  }
  return own;
}

/**
 * Parses a `fieldSelector` for a kind as kube-apiserver does for a list or watch: the syntax,
 * then the kind's field label conversion. Throws SelectorError (400) with Kubernetes' message,
 * e.g. "field label not supported: spec.unknownField" for pods.
 */
export function parseFieldSelectorFor(gvk: GroupVersionKind, selector: string): FieldSelector {
  return parseFieldSelector(selector, fieldLabelConversion(gvk));
}

/** A matcher of stored objects of a kind for a `fieldSelector` string (see parseFieldSelectorFor). */
export function compileFieldSelector(gvk: GroupVersionKind, selector: string): (obj: object) => boolean {
  const s = parseFieldSelectorFor(gvk, selector);
  if (s.isEmpty()) return () => true;
  return (obj) => s.matches(selectableFields(gvk, obj));
}
