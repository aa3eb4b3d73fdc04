// The server-side apply schema of one version of a custom resource: its published OpenAPI v3
// kind schema (what apiextensions-apiserver's type converter reads) read by schemaconv's rules.
import { ListMeta, ObjectMeta } from '../../api/meta/v1.js';
import type { StructType } from '../../api/schema/dsl.js';
import { crdVersionSchemas, type CrdForOpenApi } from '../openapi/crd.js';
import { rootNode } from './openapi-node.js';
import type { StructNode } from './schema.js';

const META: Record<string, StructType> = { [ObjectMeta.name]: ObjectMeta, [ListMeta.name]: ListMeta };

/** The TypedNode of `versionName`'s objects (apiVersion, kind, metadata as ObjectMeta, the schema). */
export function crdTypedNode(crd: CrdForOpenApi, versionName: string): StructNode {
  const { kindName, schemas } = crdVersionSchemas(crd, versionName, 'v3');
  // A v1 CRD has preserveUnknownFields false; a legacy true keeps every unknown key, as the converter does.
  const root = crd.spec.preserveUnknownFields ? { ...schemas[kindName]!, 'x-kubernetes-preserve-unknown-fields': true } : schemas[kindName]!;
  return rootNode(root, kindName, (name) => META[name]);
}
