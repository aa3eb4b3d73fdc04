// The component schemas of one served version of a CustomResourceDefinition, as
// apiextensions-apiserver's OpenAPI builder names and shapes them: the kind (its published
// structural schema with apiVersion, kind and metadata added, embedded resources given theirs,
// x-kubernetes-group-version-kind) and its List, under the REST-friendly name of
// `<group>/<version>.<Kind>` (`com.example.stable.v1.CronTab`).
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import type { OpenApiVersion, SchemaObject } from './definitions.js';
import { isStructural, publishSchema, pruneDefaults } from './crd-structural.js';

/** The parts of an apiextensions.k8s.io/v1 CustomResourceDefinition the OpenAPI builder reads. */
export interface CrdForOpenApi {
  spec: {
    group: string;
    names: { kind: string; listKind?: string; plural: string };
    scope: string;
    preserveUnknownFields?: boolean;
    versions: ReadonlyArray<{
      name: string;
      served: boolean;
      schema?: { openAPIV3Schema?: JSONSchemaProps };
      subresources?: { status?: object; scale?: object };
      selectableFields?: ReadonlyArray<{ jsonPath: string }>;
    }>;
  };
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

// Our own words; Kubernetes' TypeMeta/ObjectMeta descriptions are not copied.
const API_VERSION = { description: 'The versioned schema of this object (group/version).', type: 'string' };
const KIND = { description: 'The kind of this object, in CamelCase.', type: 'string' };
const METADATA_DESCRIPTION = "The object's metadata: name, namespace, labels, annotations, owners and the system's fields.";
const LIST_METADATA_DESCRIPTION = "The list's metadata: resourceVersion and the continue token of a chunked list.";

/** util.ToRESTFriendlyName("<group>/<version>.<Kind>"): the group's DNS labels reversed. */
export function crdDefinitionName(group: string, version: string, kind: string): string {
  const g = group.includes('.') ? group.split('.').reverse().join('.') : group;
  return `${g}.${version}.${kind}`;
}

function refSchema(version: OpenApiVersion, name: string, description?: string): SchemaObject {
  if (version === 'v2') return description ? { description, $ref: `#/definitions/${name}` } : { $ref: `#/definitions/${name}` };
  // v3 documents wrap a reference that has siblings in allOf (as builder3 writes them).
  const ref = { $ref: `#/components/schemas/${name}` };
  return description ? { description, allOf: [ref] } : ref;
}

/** addEmbeddedProperties: every x-kubernetes-embedded-resource object gets apiVersion, kind, metadata. */
function addEmbedded(s: SchemaObject, version: OpenApiVersion): void {
  const props = s.properties as Record<string, SchemaObject> | undefined;
  if (props) for (const p of Object.values(props)) addEmbedded(p, version);
  if (s.items && typeof s.items === 'object') addEmbedded(s.items as SchemaObject, version);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') addEmbedded(s.additionalProperties as SchemaObject, version);
  if (version === 'v2' && s['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (s['x-kubernetes-embedded-resource'] !== true) return;
  s.properties = { ...(props ?? {}), apiVersion: { ...API_VERSION }, kind: { ...KIND }, metadata: refSchema(version, OBJECT_META, METADATA_DESCRIPTION) };
  const required = [...((s.required as string[] | undefined) ?? [])];
  if (!required.includes('kind')) required.push('kind');
  if (!required.includes('apiVersion')) required.push('apiVersion');
  s.required = required;
}

export interface CrdVersionSchemas {
  /** The kind's definition name and its List's. */
  kindName: string;
  listName: string;
  /** Both definitions, by name. */
  schemas: Record<string, SchemaObject>;
}

/**
 * The kind and List definitions of `versionName` of `crd` for one OpenAPI version (v2: the
 * Swagger 2.0 conversion and no defaults, as the v2 aggregator publishes them).
 */
export function crdVersionSchemas(crd: CrdForOpenApi, versionName: string, version: OpenApiVersion): CrdVersionSchemas {
  const { group, names } = crd.spec;
  const v = crd.spec.versions.find((x) => x.name === versionName);
  if (!v) throw new Error(`version ${versionName} not found in CustomResourceDefinition ${names.plural}.${group}`);
  const listKind = names.listKind ?? `${names.kind}List`;
  const kindName = crdDefinitionName(group, versionName, names.kind);
  const listName = crdDefinitionName(group, versionName, listKind);
  const raw = v.schema?.openAPIV3Schema;
  const structural = raw !== undefined && isStructural(raw) ? raw : undefined;

  let kind: SchemaObject;
  if (!structural || (version === 'v2' && (structural['x-kubernetes-preserve-unknown-fields'] === true || crd.spec.preserveUnknownFields === true))) {
    // Without a usable schema the kind is a bare object: listing properties would make clients
    // refuse every field they do not name.
    kind = { type: 'object' };
  } else {
    kind = publishSchema(structural, { v2: version === 'v2' });
    kind.properties = {
      ...((kind.properties as Record<string, SchemaObject> | undefined) ?? {}),
      metadata: refSchema(version, OBJECT_META, METADATA_DESCRIPTION),
      apiVersion: { ...API_VERSION },
      kind: { ...KIND },
    };
    addEmbedded(kind, version);
  }
  kind['x-kubernetes-group-version-kind'] = [{ group, kind: names.kind, version: versionName }];

  const list: SchemaObject = {
    description: `${listKind} is a list of ${names.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { ...API_VERSION },
      items: { description: `The ${names.plural}.`, type: 'array', items: refSchema(version, kindName) },
      kind: { ...KIND },
      metadata: refSchema(version, LIST_META, LIST_METADATA_DESCRIPTION),
    },
    'x-kubernetes-group-version-kind': [{ group, kind: listKind, version: versionName }],
  };

  const selectable = v.selectableFields?.map((f) => ({ fieldPath: f.jsonPath.replace(/^\./, '') }));
  if (selectable && selectable.length > 0) {
    kind['x-kubernetes-selectable-fields'] = selectable;
    list['x-kubernetes-selectable-fields'] = selectable;
  }
  if (version === 'v2') kind = pruneDefaults(kind) as SchemaObject;
  return { kindName, listName, schemas: { [kindName]: kind, [listName]: list } };
}
