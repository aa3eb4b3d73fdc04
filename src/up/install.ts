// What startCluster installs before it calls the cluster ready (its `crds` and `manifests`
// options): CustomResourceDefinitions, waited on until Established — envtest's
// CRDDirectoryPaths — then any objects, server-side applied so that a restart on the same data
// dir updates them rather than failing on AlreadyExists. Through kubelite's own client.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../client/types.js';
import { DeferredDiscoveryRESTMapper } from '../client/rest-mapper.js';
import { loadRestConfig } from '../client/kubeconfig.js';
import { newClientset } from '../client/rest.js';
import { sleep } from '../client/wait.js';

/** A Kubernetes object as a manifest holds it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** An object, or the path of a YAML/JSON file (several documents, `kind: List`) or of a directory of them. */
export type ObjectSource = string | Manifest;

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const FIELD_MANAGER = 'kubelite';

/** The objects of the sources, in order (a directory's files by name, as envtest reads them). */
export function readObjects(sources: readonly ObjectSource[]): Manifest[] {
  const out: Manifest[] = [];
  const add = (value: unknown, origin: string) => {
    if (value === null || value === undefined) return; // an empty document
    if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${origin}: not a Kubernetes object`);
    const obj = value as Partial<Manifest> & { items?: unknown };
    if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) {
      for (const item of obj.items) add(item, origin);
      return;
    }
    if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || typeof obj.metadata?.name !== 'string') {
      throw new Error(`${origin}: an object needs apiVersion, kind and metadata.name`);
    }
    out.push(obj as Manifest);
  };
  const readPath = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (MANIFEST_EXTENSIONS.has(extname(name))) readPath(join(path, name));
      return;
    }
    for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]!.message}`);
      add(doc.toJS(), path);
    }
  };
  for (const source of sources) {
    if (typeof source === 'string') readPath(source);
    else add(source, `object ${source.kind}/${source.metadata.name}`);
  }
  return out;
}

function isEstablished(crd: KubeObject): boolean {
  const conditions = (crd.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Established' && c.status === 'True');
}

/** Applies the CRDs and waits until each is Established, then applies the manifests. */
export async function installObjects(kubeconfig: string, what: { crds: readonly ObjectSource[]; manifests: readonly ObjectSource[]; deadline: number; signal?: AbortSignal }): Promise<void> {
  const crds = readObjects(what.crds);
  const manifests = readObjects(what.manifests);
  const client = newClientset({ config: loadRestConfig({ kubeconfig }), userAgent: 'kubelite-install', qps: 0 });
  const apply = (resource: ReturnType<typeof client.resource>, namespace: string, obj: Manifest) =>
    resource.patch(namespace, obj.metadata.name, 'apply', obj, { force: true, fieldManager: FIELD_MANAGER });
  const crdClient = client.resource(CRDS);
  for (const crd of crds) {
    if (crd.kind !== 'CustomResourceDefinition') throw new Error(`crds: ${crd.kind}/${crd.metadata.name} is not a CustomResourceDefinition (pass it in manifests)`);
    await apply(crdClient, '', crd);
  }
  for (const crd of crds) {
    while (!isEstablished(await crdClient.get('', crd.metadata.name))) {
      if (Date.now() > what.deadline) throw new Error(`CustomResourceDefinition ${crd.metadata.name} not Established in time`);
      await sleep(25, what.signal);
    }
  }
  // discovery read after the CRDs are served, so that their kinds map
  const mapper = new DeferredDiscoveryRESTMapper(client.discovery());
  for (const obj of manifests) {
    const mapping = await mapper.mappingFor(obj.apiVersion, obj.kind);
    const namespace = mapping.namespaced ? (obj.metadata.namespace ?? 'default') : '';
    await apply(client.resource(mapping.resource), namespace, obj);
  }
}
