// The OpenAPI documents kubectl reads: /openapi/v3 (an index of group-versions, each with a
// content hash), /openapi/v3/<api|apis/group>/<version> (paths with x-kubernetes-action and
// x-kubernetes-group-version-kind, the dryRun/fieldManager/fieldValidation parameters that
// `kubectl create/apply` look for, and the component schemas `kubectl explain` prints), and
// /openapi/v2 (the same in Swagger 2.0, kubectl's fallback). Built and serialized once.
import { createHash } from 'node:crypto';
import { apiVersionOf } from '../api/kinds.js';
import { Scale } from '../api/autoscaling/v1.js';
import { DeleteOptions, ListMeta, ObjectMeta, Status } from '../api/meta/v1.js';
import type { StructType } from '../api/schema/dsl.js';
import type { KindVersion } from '../api/schema/kind.js';
import { crdVersionSchemas, type CrdForOpenApi, type CrdVersionSchemas } from '../machinery/openapi/crd.js';
import { buildDefinitions, type OpenApiVersion, type SchemaObject } from '../machinery/openapi/definitions.js';

type Obj = Record<string, unknown>;

function ref(version: OpenApiVersion, name: string): Obj {
  return { $ref: version === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}` };
}

function queryParam(version: OpenApiVersion, name: string, type: 'string' | 'boolean' | 'integer', description: string): Obj {
  return version === 'v2'
    ? { name, in: 'query', type, uniqueItems: true, description }
    : { name, in: 'query', schema: { type, uniqueItems: true }, description };
}

function pathParam(version: OpenApiVersion, name: string, description: string): Obj {
  return version === 'v2'
    ? { name, in: 'path', required: true, type: 'string', uniqueItems: true, description }
    : { name, in: 'path', required: true, schema: { type: 'string', uniqueItems: true }, description };
}

function body(version: OpenApiVersion, schemaName: string, consumes: readonly string[]): Obj {
  return version === 'v2'
    ? { name: 'body', in: 'body', required: true, schema: ref(version, schemaName) }
    : { requestBody: { content: Object.fromEntries(consumes.map((c) => [c, { schema: ref(version, schemaName) }])), required: true } };
}

/**
 * What a custom resource's PATCH takes: no strategic merge patch (kubectl reads this list in the
 * v3 document to choose a JSON merge patch for `kubectl apply` of a custom resource).
 */
const CRD_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

const MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function responses(version: OpenApiVersion, codes: number[], schemaName: string): Obj {
  const out: Obj = {};
  for (const code of codes) {
    out[String(code)] = version === 'v2'
      ? { description: code === 201 ? 'Created' : code === 202 ? 'Accepted' : 'OK', schema: ref(version, schemaName) }
      : { description: code === 201 ? 'Created' : code === 202 ? 'Accepted' : 'OK', content: Object.fromEntries(MEDIA.map((m) => [m, { schema: ref(version, schemaName) }])) };
  }
  out['401'] = { description: 'Unauthorized' };
  return out;
}

function operation(version: OpenApiVersion, kv: KindVersion, action: string, id: string, params: Obj[], resp: Obj, requestSchema?: string, consumes: readonly string[] = ['*/*']): Obj {
  const op: Obj = {
    description: `${action} ${kv.kind}`,
    operationId: id,
    tags: [kv.group === '' ? `core_${kv.version}` : `${kv.group.replace(/\./g, '_')}_${kv.version}`],
    parameters: [...params],
    responses: resp,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group: kv.group, kind: kv.kind, version: kv.version },
  };
  if (requestSchema) {
    const b = body(version, requestSchema, consumes);
    if (version === 'v2') (op.parameters as Obj[]).push(b);
    else Object.assign(op, b);
  }
  if (version === 'v2') {
    op.consumes = [...consumes];
    op.produces = MEDIA;
    op.schemes = ['https'];
  }
  return op;
}

function writeParams(version: OpenApiVersion): Obj[] {
  return [
    queryParam(version, 'dryRun', 'string', 'When present, modifications are not persisted. Valid value: All.'),
    queryParam(version, 'fieldManager', 'string', 'The name of the actor making the change.'),
    queryParam(version, 'fieldValidation', 'string', 'How the server treats unknown and duplicate fields: Ignore, Warn (the default) or Strict.'),
  ];
}

function listParams(version: OpenApiVersion): Obj[] {
  return [
    queryParam(version, 'allowWatchBookmarks', 'boolean', 'Ask for BOOKMARK events.'),
    queryParam(version, 'continue', 'string', 'The continue token of the previous page.'),
    queryParam(version, 'fieldSelector', 'string', 'Restrict the list by fields.'),
    queryParam(version, 'labelSelector', 'string', 'Restrict the list by labels.'),
    queryParam(version, 'limit', 'integer', 'The maximum number of items of one page.'),
    queryParam(version, 'resourceVersion', 'string', 'Which version of the collection to read.'),
    queryParam(version, 'resourceVersionMatch', 'string', 'How resourceVersion applies: Exact or NotOlderThan.'),
    queryParam(version, 'sendInitialEvents', 'boolean', 'Start a watch with the current objects (a streaming list).'),
    queryParam(version, 'timeoutSeconds', 'integer', 'End the call after this many seconds.'),
    queryParam(version, 'watch', 'boolean', 'Watch for changes instead of listing.'),
  ];
}

function opName(kv: KindVersion): string {
  const gv = kv.group === '' ? `Core${cap(kv.version)}` : `${kv.group.split('.').map(cap).join('')}${cap(kv.version)}`;
  return `${gv}${kv.namespaced ? 'Namespaced' : ''}${kv.kind}`;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A served version of a CustomResourceDefinition: its KindVersion and the CRD it comes from. */
export interface CustomResourceVersion {
  kv: KindVersion;
  crd: CrdForOpenApi;
}

/** The definitions of the custom resources, by their KindVersion. */
type CrdSchemas = ReadonlyMap<KindVersion, CrdVersionSchemas>;

const SCALE_SCHEMA = 'io.k8s.api.autoscaling.v1.Scale';

function pathsFor(version: OpenApiVersion, kinds: readonly KindVersion[], crds: CrdSchemas = new Map()): Obj {
  const paths: Obj = {};
  for (const kv of kinds) {
    const crd = crds.get(kv);
    const base = kv.group === '' ? `/api/${kv.version}` : `/apis/${kv.group}/${kv.version}`;
    const collection = kv.namespaced ? `${base}/namespaces/{namespace}/${kv.resource}` : `${base}/${kv.resource}`;
    const item = `${collection}/{name}`;
    const ns = kv.namespaced ? [pathParam(version, 'namespace', 'The namespace.')] : [];
    const pretty = queryParam(version, 'pretty', 'string', "If 'true', the output is pretty printed.");
    const name = pathParam(version, 'name', `The name of the ${kv.kind}.`);
    const schema = crd ? crd.kindName : kv.type.name;
    const id = opName(kv);
    if (kv.list === undefined && !crd) {
      // A virtual create-only kind (an access review): POST on the collection, nothing else.
      paths[collection] = {
        post: operation(version, kv, 'post', `create${id}`, writeParams(version), responses(version, [200, 201, 202], schema), schema),
        parameters: [...ns, pretty],
      };
      continue;
    }
    const listSchema = crd ? crd.listName : kv.list!.name;
    if (kv.computed) {
      // A read-only computed kind (metrics): list and read, nothing else.
      paths[collection] = { get: operation(version, kv, 'list', `list${id}`, listParams(version), responses(version, [200], listSchema)), parameters: [...ns, pretty] };
      paths[item] = { get: operation(version, kv, 'get', `read${id}`, [], responses(version, [200], schema)), parameters: [name, ...ns, pretty] };
      continue;
    }
    if (crd && kv.namespaced) {
      // apiextensions-apiserver's builder also lists a namespaced custom resource across namespaces.
      const allId = opName({ ...kv, namespaced: false });
      paths[`${base}/${kv.resource}`] = { get: operation(version, kv, 'list', `list${allId}ForAllNamespaces`, listParams(version), responses(version, [200], listSchema)), parameters: [pretty] };
    }
    const patchParams = [...writeParams(version), queryParam(version, 'force', 'boolean', 'Force an apply request.')];
    const patchTypes = crd ? CRD_PATCH_TYPES : undefined;
    paths[collection] = {
      get: operation(version, kv, 'list', `list${id}`, listParams(version), responses(version, [200], listSchema)),
      post: operation(version, kv, 'post', `create${id}`, writeParams(version), responses(version, [200, 201, 202], schema), schema),
      delete: operation(version, kv, 'deletecollection', `deleteCollection${id}`, listParams(version), responses(version, [200], Status.name), DeleteOptions.name),
      parameters: [...ns, pretty],
    };
    paths[item] = {
      get: operation(version, kv, 'get', `read${id}`, [], responses(version, [200], schema)),
      put: operation(version, kv, 'put', `replace${id}`, writeParams(version), responses(version, [200, 201], schema), schema),
      patch: operation(version, kv, 'patch', `patch${id}`, patchParams, responses(version, [200, 201], schema), 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch', patchTypes),
      delete: operation(version, kv, 'delete', `delete${id}`, [
        queryParam(version, 'gracePeriodSeconds', 'integer', 'The grace period of the deletion.'),
        queryParam(version, 'propagationPolicy', 'string', 'Orphan, Background or Foreground.'),
        queryParam(version, 'dryRun', 'string', 'When present, modifications are not persisted.'),
      ], responses(version, [200, 202], Status.name), DeleteOptions.name),
      parameters: [name, ...ns, pretty],
    };
    // Custom resources publish status and scale (autoscaling/v1 Scale) as their CRD declares them;
    // the built-in kinds publish status only (as they always have here).
    const subs = crd ? ([['status', schema], ['scale', SCALE_SCHEMA]] as const) : ([['status', schema]] as const);
    for (const [sub, subSchema] of subs) {
      if (!kv.subresources?.[sub]) continue;
      const Sub = cap(sub);
      paths[`${item}/${sub}`] = {
        get: operation(version, kv, 'get', `read${id}${Sub}`, [], responses(version, [200], subSchema)),
        put: operation(version, kv, 'put', `replace${id}${Sub}`, writeParams(version), responses(version, [200, 201], subSchema), subSchema),
        patch: operation(version, kv, 'patch', `patch${id}${Sub}`, crd ? patchParams : writeParams(version), responses(version, [200, 201], subSchema), 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch', patchTypes),
        parameters: [name, ...ns, pretty],
      };
    }
  }
  return paths;
}

/** The shared definitions custom resources refer to (their metadata, list metadata, Scale). */
function crdRoots(crds: CrdSchemas, kinds: readonly KindVersion[]) {
  const mine = kinds.filter((kv) => crds.has(kv));
  if (mine.length === 0) return [];
  const roots: Array<{ type: StructType; gvks?: Array<{ group: string; version: string; kind: string }> }> = [{ type: ObjectMeta }, { type: ListMeta }];
  if (mine.some((kv) => kv.subresources?.scale)) roots.push({ type: Scale, gvks: [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }] });
  return roots;
}

function definitionsFor(version: OpenApiVersion, kinds: readonly KindVersion[], crds: CrdSchemas): Record<string, SchemaObject> {
  const builtIn = kinds.filter((kv) => !crds.has(kv));
  const defs = buildDefinitions(builtIn, version, [...extraRoots(), ...crdRoots(crds, kinds)]);
  defs['io.k8s.apimachinery.pkg.apis.meta.v1.Patch'] = PATCH_SCHEMA;
  const custom = kinds.filter((kv) => crds.has(kv));
  if (custom.length === 0) return defs;
  for (const kv of custom) Object.assign(defs, crds.get(kv)!.schemas);
  return Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]!]));
}

const PATCH_SCHEMA = { description: 'A patch document (JSON patch, merge patch or strategic merge patch).', type: 'object' };

function extraRoots() {
  return [
    { type: Status, gvks: [{ group: '', version: 'v1', kind: 'Status' }] },
    { type: DeleteOptions, gvks: [{ group: '', version: 'v1', kind: 'DeleteOptions' }, { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' }] },
  ];
}

export interface OpenApiDocuments {
  /** /openapi/v2 body. */
  v2: Buffer;
  /** /openapi/v3 index body. */
  v3Index: Buffer;
  /** /openapi/v3/<path> bodies, by path ("api/v1", "apis/apps/v1"). */
  v3: Map<string, { body: Buffer; hash: string }>;
}

/**
 * The documents of the built-in kinds and of the served versions of the custom resources
 * (rebuilt whenever a CRD changes; without custom resources the bytes are the built-ins' alone).
 */
export function buildOpenApi(builtIn: readonly KindVersion[], gitVersion: string, customResources: readonly CustomResourceVersion[] = []): OpenApiDocuments {
  const info = { title: 'Kubernetes', version: gitVersion };
  const crds = new Map<KindVersion, CrdVersionSchemas>();
  const v2Crds = new Map<KindVersion, CrdVersionSchemas>();
  for (const { kv, crd } of customResources) {
    crds.set(kv, crdVersionSchemas(crd, kv.version, 'v3'));
    v2Crds.set(kv, crdVersionSchemas(crd, kv.version, 'v2'));
  }
  const kinds = [...builtIn, ...customResources.map((c) => c.kv)];
  const v2Definitions = definitionsFor('v2', kinds, v2Crds);
  const v2 = Buffer.from(JSON.stringify({ swagger: '2.0', info, paths: pathsFor('v2', kinds, v2Crds), definitions: v2Definitions }));

  const byGv = new Map<string, KindVersion[]>();
  for (const kv of kinds) {
    const path = kv.group === '' ? `api/${kv.version}` : `apis/${kv.group}/${kv.version}`;
    byGv.set(path, [...(byGv.get(path) ?? []), kv]);
  }
  const v3 = new Map<string, { body: Buffer; hash: string }>();
  const index: Record<string, { serverRelativeURL: string }> = {};
  for (const [path, list] of [...byGv.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const schemas = definitionsFor('v3', list, crds);
    const doc = { openapi: '3.0.0', info, paths: pathsFor('v3', list, crds), components: { schemas } };
    const bodyBytes = Buffer.from(JSON.stringify(doc));
    const hash = createHash('sha512').update(bodyBytes).digest('hex').toUpperCase().slice(0, 128);
    v3.set(path, { body: bodyBytes, hash });
    index[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
  }
  return { v2, v3Index: Buffer.from(JSON.stringify({ paths: index })), v3 };
}

