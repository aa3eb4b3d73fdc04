// apiextensions.k8s.io/v1 CustomResourceDefinition: cluster-scoped, status subresource, v1 only
// (v1beta1 is gone since 1.22). Served in JSON and YAML only: its schemas are kept as the JSON
// given, so kubelite has no faithful protobuf form of them (clients fall back to JSON on 406/415).
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

/** SetDefaults_CustomResourceDefinition (and its Spec, and ServiceReference). */
export function defaultCustomResourceDefinition(crd: KubeObject): void {
  const spec = obj(crd.spec);
  if (spec) {
    const names = obj(spec.names);
    if (names) {
      if (typeof names.singular !== 'string' || names.singular === '') names.singular = typeof names.kind === 'string' ? names.kind.toLowerCase() : '';
      if ((typeof names.listKind !== 'string' || names.listKind === '') && typeof names.kind === 'string' && names.kind !== '') names.listKind = `${names.kind}List`;
    }
    if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
    const service = obj(obj(obj(obj(spec.conversion)?.webhook)?.clientConfig)?.service);
    if (service && (service.port === undefined || service.port === null)) service.port = 443;
  }
  const status = (obj(crd.status) ?? (crd.status = {})) as Obj;
  if (!Array.isArray(status.storedVersions) || status.storedVersions.length === 0) {
    const versions = Array.isArray(spec?.versions) ? (spec.versions as unknown[]) : [];
    const storage = versions.map(obj).find((v) => v?.storage === true);
    if (storage && typeof storage.name === 'string') status.storedVersions = [storage.name];
  }
}

export const apiextensionsKinds: readonly KindVersion[] = [
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    resource: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    namespaced: false,
    type: v1.CustomResourceDefinition,
    list: v1.CustomResourceDefinitionList,
    storage: true,
    jsonOnly: true,
    defaults: defaultCustomResourceDefinition,
    subresources: { status: true },
  },
];
