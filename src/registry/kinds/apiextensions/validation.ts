// Kubernetes' validation of a CustomResourceDefinition (apiextensions-apiserver
// pkg/apis/apiextensions/validation), outside the content of the version schemas, which the schema
// machinery checks (`schemaErrors`). Kubernetes validates its internal form: per-version schemas,
// subresources and printer columns that are the same in every version are moved to the spec's
// top level first, so errors about them name `spec.validation`, `spec.subresources`,
// `spec.additionalPrinterColumns`; and the conversion's webhook is `spec.conversion.webhookClientConfig`.
import type { JSONSchemaProps } from '../../../api/apiextensions/json-schema.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { parsePath } from '../../custom/jsonpath.js';
import { validateWebhookService, validateWebhookURL } from '../admissionregistration/rules.js';
import { isObj, list as arr, obj, str, type Obj } from '../../../machinery/validation/common.js';

/** Errors of one version's openAPIV3Schema content, under `path` (structural rules, defaults, CEL). */
export type SchemaErrors = (schema: JSONSchemaProps, path: string, opts: { statusSubresource: boolean }) => FieldError[];

const PRINTER_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const MAX_SELECTABLE_FIELDS = 8;
const APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The per-version value of `key` that every version shares (moved to the top level), if any. */
function identicalPerVersion(versions: Obj[], key: string, nonEmpty: (v: unknown) => boolean): unknown {
  if (versions.length === 0) return undefined;
  const first = versions[0]![key];
  return versions.every((v) => nonEmpty(v[key]) && same(v[key], first)) ? first : undefined;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;
const nonEmptyList = (v: unknown): boolean => Array.isArray(v) && v.length > 0;

function validateNames(names: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const label = (field: string, value: string, prefix = '') => {
    const e = isDNS1035Label(value);
    if (value !== '' && e.length > 0) errs.push(fieldError.invalid(`${path}.${field}`, value, prefix + e.join(',')));
  };
  label('plural', str(names.plural));
  label('singular', str(names.singular));
  const kind = str(names.kind);
  const listKind = str(names.listKind);
  if (kind !== '' && isDNS1035Label(kind.toLowerCase()).length > 0) errs.push(fieldError.invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${isDNS1035Label(kind.toLowerCase()).join(',')}`));
  if (listKind !== '' && isDNS1035Label(listKind.toLowerCase()).length > 0) errs.push(fieldError.invalid(`${path}.listKind`, listKind, `may have mixed case, but should otherwise match: ${isDNS1035Label(listKind.toLowerCase()).join(',')}`));
  arr(names.shortNames).forEach((s, i) => {
    const e = isDNS1035Label(str(s));
    if (e.length > 0) errs.push(fieldError.invalid(`${path}.shortNames[${i}]`, s, e.join(',')));
  });
  if (kind !== '' && kind === listKind) errs.push(fieldError.invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  arr(names.categories).forEach((c, i) => {
    const e = isDNS1035Label(str(c));
    if (e.length > 0) errs.push(fieldError.invalid(`${path}.categories[${i}]`, c, e.join(',')));
  });
  return errs;
}

/** validateSimpleJSONPath: a path this server can evaluate, starting with a dot. */
function validateColumnPath(jsonPath: string, path: string): FieldError[] {
  if (parsePath(`{${jsonPath}}`) === null) return [fieldError.invalid(path, jsonPath, 'must be a simple json path')];
  return [];
}

function validateColumn(col: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(col.name) === '') errs.push(fieldError.required(`${path}.name`));
  const type = str(col.type);
  if (type === '') errs.push(fieldError.required(`${path}.type`, `must be one of ${PRINTER_TYPES.join(',')}`));
  else if (!PRINTER_TYPES.includes(type)) errs.push(fieldError.invalid(`${path}.type`, type, `must be one of ${PRINTER_TYPES.join(',')}`));
  const format = str(col.format);
  if (format !== '' && !PRINTER_FORMATS.includes(format)) errs.push(fieldError.invalid(`${path}.format`, format, `must be one of ${PRINTER_FORMATS.join(',')}`));
  const jsonPath = str(col.jsonPath);
  if (jsonPath === '') errs.push(fieldError.required(`${path}.JSONPath`));
  else errs.push(...validateColumnPath(jsonPath, `${path}.JSONPath`));
  return errs;
}

/** ValidateCustomResourceDefinitionSubresources: the scale paths. */
function validateSubresources(sub: unknown, path: string, schema: JSONSchemaProps | undefined): FieldError[] {
  if (!isObj(sub)) return [];
  const scale = sub.scale;
  if (!isObj(scale)) return [];
  const errs: FieldError[] = [];
  const checkPath = (field: string, value: string, required: boolean, prefixes: string[]) => {
    const p = `${path}.scale.${field}`;
    if (value === '') {
      if (required) errs.push(fieldError.required(p));
      return;
    }
    if (!/^(\.[A-Za-z0-9_-]+)+$/.test(value)) {
      errs.push(fieldError.invalid(p, value, 'should be a json path under either .spec or .status'));
      return;
    }
    if (!prefixes.some((pre) => value.startsWith(pre))) errs.push(fieldError.invalid(p, value, `should be a json path under ${prefixes.map((x) => x.slice(0, -1)).join(' or ')}`));
    else if (schema && !schemaAllows(schema, value)) errs.push(fieldError.invalid(p, value, 'should be a json path under either .spec or .status'));
  };
  checkPath('specReplicasPath', str(scale.specReplicasPath), true, ['.spec.']);
  checkPath('statusReplicasPath', str(scale.statusReplicasPath), true, ['.status.']);
  if (typeof scale.labelSelectorPath === 'string') checkPath('labelSelectorPath', scale.labelSelectorPath, false, ['.spec.', '.status.']);
  return errs;
}

/** Whether a dotted path can exist under the schema (a property, or an object that keeps unknown fields). */
function schemaAllows(schema: JSONSchemaProps, dotted: string): boolean {
  let s: JSONSchemaProps | undefined = schema;
  for (const part of dotted.slice(1).split('.')) {
    if (!s) return false;
    if (s['x-kubernetes-preserve-unknown-fields'] && !s.properties?.[part]) return true;
    const next: JSONSchemaProps | boolean | undefined = s.properties?.[part] ?? s.additionalProperties;
    s = typeof next === 'object' ? next : next === true ? {} : undefined;
  }
  return s !== undefined;
}

function validateSelectableFields(fields: unknown[], schema: JSONSchemaProps | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!schema) return [fieldError.invalid(path, '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included')];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = `${path}[${i}].jsonPath`;
    const jsonPath = str(obj(f).jsonPath);
    if (jsonPath === '') {
      errs.push(fieldError.required(p));
      return;
    }
    if (!/^(\.[A-Za-z_][A-Za-z0-9_-]*)+$/.test(jsonPath)) {
      errs.push(fieldError.invalid(p, jsonPath, `is an invalid path: expected [[:alpha:]_][[:alnum:]_]* but got ${jsonPath}`));
      return;
    }
    const parts = jsonPath.slice(1).split('.');
    let s: JSONSchemaProps | undefined = schema;
    for (const part of parts) s = s?.properties?.[part];
    if (s === undefined) {
      errs.push(fieldError.invalid(p, jsonPath, `is an invalid path: does not refer to a valid field`));
      return;
    }
    if (parts[0] === 'metadata') errs.push(fieldError.invalid(p, jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(s.type ?? '')) errs.push(fieldError.invalid(p, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    if (unique.has(jsonPath)) errs.push(fieldError.duplicate(p, jsonPath));
    else unique.add(jsonPath);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(fieldError.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

function validateDeprecationWarning(version: Obj, path: string): FieldError[] {
  const warning = version.deprecationWarning;
  if (typeof warning !== 'string') return [];
  if (version.deprecated !== true) return [fieldError.invalid(path, warning, 'can only be set for deprecated versions')];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(warning) > 256) errs.push(fieldError.invalid(path, warning, 'must be <= 256 characters long'));
  if (warning === '') errs.push(fieldError.invalid(path, warning, 'must not be an empty string'));
  const bad = [...warning].findIndex((c) => /[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/u.test(c));
  if (bad >= 0) errs.push(fieldError.invalid(path, warning, `must only contain printable UTF-8 characters; control character found at index ${bad}`));
  return errs;
}

function validateConversion(conversion: unknown, path: string): FieldError[] {
  if (!isObj(conversion)) return [];
  const errs: FieldError[] = [];
  const strategy = str(conversion.strategy);
  if (strategy === '') errs.push(fieldError.required(`${path}.strategy`));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(fieldError.notSupported(`${path}.strategy`, strategy, ['None', 'Webhook']));
  const webhook = obj(conversion.webhook);
  const cc = webhook.clientConfig;
  const reviewVersions = arr(webhook.conversionReviewVersions);
  if (strategy === 'Webhook') {
    if (!isObj(cc)) errs.push(fieldError.required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    else {
      const hasUrl = typeof cc.url === 'string';
      const hasService = isObj(cc.service);
      if (hasUrl === hasService) errs.push(fieldError.required(`${path}.webhookClientConfig`, 'exactly one of url or service is required'));
      else if (hasUrl) errs.push(...validateWebhookURL(`${path}.webhookClientConfig.url`, cc.url as string));
      else errs.push(...validateWebhookService(`${path}.webhookClientConfig.service`, cc.service as Obj));
    }
    const reviewPath = `${path}.conversionReviewVersions`;
    if (reviewVersions.length === 0) errs.push(fieldError.required(reviewPath));
    else {
      const seen = new Set<string>();
      let accepted = false;
      reviewVersions.forEach((v, i) => {
        const s = str(v);
        if (seen.has(s)) {
          errs.push(fieldError.invalid(`${reviewPath}[${i}]`, s, 'duplicate version'));
          return;
        }
        seen.add(s);
        for (const e of isDNS1035Label(s)) errs.push(fieldError.invalid(`${reviewPath}[${i}]`, s, e));
        if (s === 'v1' || s === 'v1beta1') accepted = true;
      });
      if (!accepted) errs.push(fieldError.invalid(reviewPath, reviewVersions, 'must include at least one of v1, v1beta1'));
    }
  } else {
    if (isObj(cc)) errs.push(fieldError.forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errs.push(fieldError.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

/** IsProtectedCommunityGroup: k8s.io and kubernetes.io groups and their subdomains. */
function isProtectedGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io'].some((d) => group === d || group.endsWith(`.${d}`));
}

/** validateAPIApproval: a protected group needs the api-approved.kubernetes.io annotation (a URL or "unapproved..."). */
function validateApproval(crd: Obj, old: Obj | undefined): FieldError[] {
  if (!isProtectedGroup(str(obj(crd.spec).group))) return [];
  const state = (o: Obj | undefined) => {
    const value = obj(obj(o?.metadata).annotations)[APPROVAL_ANNOTATION];
    if (value === undefined) return 'missing';
    const v = str(value);
    if (v.startsWith('unapproved')) return 'bypassed';
    try {
      const u = new URL(v);
      return u.protocol ? 'approved' : 'invalid';
    } catch {
      return 'invalid';
    }
  };
  const now = state(crd);
  if (old && state(old) === now) return [];
  const path = `metadata.annotations[${APPROVAL_ANNOTATION}]`;
  if (now === 'missing') return [fieldError.required(path, 'protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111')];
  if (now === 'invalid') {
    const value = str(obj(obj(crd.metadata).annotations)[APPROVAL_ANNOTATION]);
    return [fieldError.invalid(path, value, `protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`)];
  }
  return [];
}

function validateStoredVersions(stored: unknown[], versions: Obj[], path: string): FieldError[] {
  if (stored.length === 0) return [fieldError.invalid(path, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [str(v), i] as const));
  for (const v of versions) {
    const name = str(v.name);
    if (v.storage === true && !remaining.has(name)) errs.push(fieldError.invalid(path, stored, `must have the storage version ${name}`));
    remaining.delete(name);
  }
  for (const [v, i] of remaining) {
    errs.push(fieldError.invalid(`${path}[${i}]`, v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

/** ValidateCustomResourceDefinition (old: the stored object, for ValidateCustomResourceDefinitionUpdate). */
export function validateCustomResourceDefinition(crd: Obj, old: Obj | undefined, schemaErrors: SchemaErrors): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(crd.spec);
  const names = obj(spec.names);
  const group = str(spec.group);
  const name = str(obj(crd.metadata).name);
  if (name !== '' && name !== `${str(names.plural)}.${group}`) errs.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));

  if (group === '') errs.push(fieldError.required('spec.group'));
  else if (isDNS1123Subdomain(group).length > 0) errs.push(fieldError.invalid('spec.group', group, isDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2) errs.push(fieldError.invalid('spec.group', group, 'should be a domain with at least one dot'));

  const scope = str(spec.scope);
  if (scope === '') errs.push(fieldError.required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(fieldError.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));

  const versions = arr(spec.versions).map(obj);
  // The internal form: what every version shares moves to the top level.
  const topSchema = identicalPerVersion(versions, 'schema', present);
  const topSubresources = identicalPerVersion(versions, 'subresources', present);
  const topColumns = identicalPerVersion(versions, 'additionalPrinterColumns', nonEmptyList);
  const anyStatus = versions.some((v) => isObj(obj(v.subresources).status));

  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    const vname = str(v.name);
    if (v.storage === true) storageCount++;
    if (seen.has(vname)) unique = false;
    seen.add(vname);
    const labelErrs = isDNS1035Label(vname);
    if (labelErrs.length > 0) errs.push(fieldError.invalid(`${path}.name`, vname, labelErrs.join(',')));
    errs.push(...validateDeprecationWarning(v, `${path}.deprecationWarning`));
    const schema = obj(v.schema).openAPIV3Schema as JSONSchemaProps | undefined;
    if (!isObj(schema) && topSchema === undefined) errs.push(fieldError.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
    const statusOn = isObj(obj(v.subresources).status);
    if (topSchema === undefined && isObj(schema)) errs.push(...schemaErrors(schema, `${path}.schema.openAPIV3Schema`, { statusSubresource: statusOn }));
    if (topSubresources === undefined) errs.push(...validateSubresources(v.subresources, `${path}.subresources`, isObj(schema) ? schema : undefined));
    if (topColumns === undefined) arr(v.additionalPrinterColumns).forEach((c, j) => errs.push(...validateColumn(obj(c), `${path}.additionalPrinterColumns[${j}]`)));
    if (arr(v.selectableFields).length > 0) errs.push(...validateSelectableFields(arr(v.selectableFields), isObj(schema) ? schema : undefined, `${path}.selectableFields`));
  });
  if (!unique) errs.push(fieldError.invalid('spec.versions', spec.versions, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(fieldError.invalid('spec.versions', spec.versions, 'must have exactly one version marked as storage version'));
  if (versions.length === 0) errs.push(fieldError.invalid('spec.versions', spec.versions ?? null, 'must have exactly one version marked as storage version'));

  if (str(names.plural) === '') errs.push(fieldError.required('spec.names.plural'));
  if (str(names.singular) === '') errs.push(fieldError.required('spec.names.singular'));
  if (str(names.kind) === '') errs.push(fieldError.required('spec.names.kind'));
  if (str(names.listKind) === '') errs.push(fieldError.required('spec.names.listKind'));
  errs.push(...validateNames(names, 'spec.names'));

  const topSchemaProps = obj(topSchema).openAPIV3Schema;
  if (isObj(topSchemaProps)) errs.push(...schemaErrors(topSchemaProps as JSONSchemaProps, 'spec.validation.openAPIV3Schema', { statusSubresource: anyStatus }));
  if (topSubresources !== undefined) errs.push(...validateSubresources(topSubresources, 'spec.subresources', isObj(topSchemaProps) ? (topSchemaProps as JSONSchemaProps) : undefined));
  if (topColumns !== undefined) arr(topColumns).forEach((c, j) => errs.push(...validateColumn(obj(c), `spec.additionalPrinterColumns[${j}]`)));

  if (spec.preserveUnknownFields === true && (old === undefined || obj(old.spec).preserveUnknownFields !== true)) {
    errs.push(fieldError.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  const conversion = obj(spec.conversion);
  if (str(conversion.strategy) !== '' && conversion.strategy !== 'None' && spec.preserveUnknownFields === true) {
    errs.push(fieldError.invalid('spec.conversion.strategy', conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, 'spec.conversion'));

  if (old) {
    const oldSpec = obj(old.spec);
    const established = arr(obj(old.status).conditions).some((c) => obj(c).type === 'Established' && obj(c).status === 'True');
    const immutable = (path: string, a: unknown, b: unknown) => {
      if (!same(a, b)) errs.push(fieldError.invalid(path, a, 'field is immutable'));
    };
    if (established) {
      immutable('spec.scope', spec.scope, oldSpec.scope);
      immutable('spec.names.kind', names.kind, obj(oldSpec.names).kind);
    }
    immutable('spec.group', spec.group, oldSpec.group);
    immutable('spec.names.plural', names.plural, obj(oldSpec.names).plural);
  }

  const status = obj(crd.status);
  errs.push(...validateNames(obj(status.acceptedNames), 'status.acceptedNames'));
  errs.push(...validateStoredVersions(arr(status.storedVersions), versions, 'status.storedVersions'));
  errs.push(...validateApproval(crd, old));
  return errs;
}
