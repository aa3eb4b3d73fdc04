// A CustomResourceDefinition as the registry serves it: its kinds (kind-versions.ts) and a kind
// module per served version sharing one strategy (strategy.ts), with the version's Table columns,
// field selectors and scale subresource. Built again whenever what is served changes
// (`fingerprint`), as kube-apiserver rebuilds a CRD's handler.
import type { KindVersion } from '../../api/schema/kind.js';
import { defaultFieldLabelConversion, type FieldExtractor, type FieldLabelConversion } from '../../machinery/selectors/index.js';
import type { KindModule } from '../kind-module.js';
import { storageVersion, type CRDVersion, type CustomResourceDefinition } from './crd.js';
import { findAll } from './jsonpath.js';
import { customKindVersions, servedNames } from './kind-versions.js';
import { customResourcePrinter } from './printer.js';
import { customResourceScale } from './scale.js';
import { versionSchema, type VersionSchema } from './schema.js';
import { customResourceStrategy } from './strategy.js';
import type { ConversionWebhook } from './conversion.js';
import { crdTypedNode, setStructNode } from '../../machinery/typed/index.js';

export { CRD_GROUP, CRD_RESOURCE, CUSTOM_RESOURCE_CLEANUP_FINALIZER, conditionOf, isConditionTrue, type CustomResourceDefinition, type CRDCondition, type CRDNames } from './crd.js';
export { servedNames, definitionName } from './kind-versions.js';
export { findAll, findFirst } from './jsonpath.js';
export type { ConversionWebhook } from './conversion.js';

export interface CustomResourceServing {
  /** The CRD's name and uid, and the CRD as served (its accepted names in spec.names). */
  readonly crd: string;
  readonly definition: CustomResourceDefinition;
  readonly uid: string;
  /** The version objects are stored in (served or not). */
  readonly storage: KindVersion;
  readonly served: readonly KindVersion[];
  /** The module of each KindVersion above. */
  readonly modules: ReadonlyMap<KindVersion, KindModule>;
  /** The CRD is being deleted: its custom resources may no longer be created. */
  terminating: boolean;
  /** What the serving was built from: a CRD change that leaves it equal needs no rebuild. */
  readonly fingerprint: string;
}

/** What a CRD's serving depends on: its spec and accepted names (not its status otherwise). */
export function servingFingerprint(crd: CustomResourceDefinition): string {
  return JSON.stringify([crd.metadata.uid, crd.spec, servedNames(crd)]);
}

/** `fmt.Sprint` of a selectable field's value, '' when the path finds nothing. */
function fieldValue(path: string): FieldExtractor {
  return (o) => {
    const found = findAll(o, path);
    const v = found[0];
    if (v === undefined || v === null) return '';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
}

function labelOf(jsonPath: string): string {
  return jsonPath.replace(/^\./, '');
}

function fieldLabels(v: CRDVersion): FieldLabelConversion {
  const labels = (v.selectableFields ?? []).map((f) => labelOf(f.jsonPath));
  if (labels.length === 0) return defaultFieldLabelConversion;
  return { ...defaultFieldLabelConversion, labels: [...defaultFieldLabelConversion.labels, ...labels] };
}

export function customResourceServing(crd: CustomResourceDefinition, terminating: boolean, webhook?: ConversionWebhook): CustomResourceServing {
  const schemas = new Map<string, VersionSchema>();
  const schemaOf = (version: string): VersionSchema => {
    let s = schemas.get(version);
    if (!s) {
      const v = crd.spec.versions.find((x) => x.name === version) ?? storageVersion(crd);
      schemas.set(version, (s = versionSchema(v.schema?.openAPIV3Schema)));
    }
    return s;
  };
  const stored = storageVersion(crd);
  const { storage, served } = customKindVersions(crd, schemaOf, webhook);
  const definition: CustomResourceDefinition = { ...crd, spec: { ...crd.spec, names: servedNames(crd) } };
  // Server-side apply merges by the CRD's schema (list types, map types), not the synthetic struct's.
  for (const kv of new Set([storage, ...served])) setStructNode(kv.type, crdTypedNode(definition, kv.version));
  const group = crd.spec.group;
  const strategy = customResourceStrategy({
    status: stored.subresources?.status !== undefined,
    scale: stored.subresources?.scale,
    schemaOf: (gv) => schemaOf(gv?.startsWith(`${group}/`) ? gv.slice(group.length + 1) : stored.name),
  });
  // Objects are the same in every version (conversion None): the stored ones carry every version's fields.
  const selectableFields: Record<string, FieldExtractor> = {};
  for (const v of crd.spec.versions) for (const f of v.selectableFields ?? []) selectableFields[labelOf(f.jsonPath)] = fieldValue(f.jsonPath);
  const names = servedNames(crd);
  const modules = new Map<KindVersion, KindModule>();
  for (const kv of new Set([storage, ...served])) {
    const v = crd.spec.versions.find((x) => x.name === kv.version)!;
    const scale = v.subresources?.scale;
    modules.set(kv, {
      group,
      kind: names.kind,
      strategy,
      printer: customResourcePrinter(v.additionalPrinterColumns),
      selectableFields,
      fieldLabels: () => fieldLabels(v),
      subresources: scale ? { scale: customResourceScale(scale) } : undefined,
    });
  }
  return { crd: crd.metadata.name, definition, uid: crd.metadata.uid ?? '', storage, served, modules, terminating, fingerprint: servingFingerprint(crd) };
}
