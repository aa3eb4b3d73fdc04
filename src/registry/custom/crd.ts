// What serving custom resources reads from a CustomResourceDefinition (the storage form of an
// apiextensions.k8s.io/v1 object, validated by its kind module before it was stored).
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';

export interface CRDNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CRDColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CRDScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CRDVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: CRDScale };
  additionalPrinterColumns?: CRDColumn[];
  selectableFields?: Array<{ jsonPath: string }>;
}

export interface CRDCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    uid?: string;
    generation?: number;
    resourceVersion?: string;
    deletionTimestamp?: string | null;
    finalizers?: string[];
  };
  spec: {
    group: string;
    names: CRDNames;
    scope: 'Namespaced' | 'Cluster';
    versions: CRDVersion[];
    conversion?: { strategy: 'None' | 'Webhook'; webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions: string[] } };
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: CRDCondition[];
    acceptedNames?: CRDNames;
    storedVersions?: string[];
  };
}

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_RESOURCE = 'customresourcedefinitions';
/** The finalizer a CRD carries from its first DELETE until its custom resources are gone. */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export function conditionOf(crd: CustomResourceDefinition, type: string): CRDCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return conditionOf(crd, type)?.status === 'True';
}

/** The version whose objects are stored. */
export function storageVersion(crd: CustomResourceDefinition): CRDVersion {
  const v = crd.spec.versions.find((x) => x.storage);
  if (!v) throw new Error(`CustomResourceDefinition ${crd.metadata.name} has no storage version`);
  return v;
}
