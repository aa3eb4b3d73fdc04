// The Node authorizer's graph (Kubernetes' plugin/pkg/auth/authorizer/node/graph.go, reduced to
// the edges kubelite's kinds have): a node may read a secret, config map or persistent volume
// claim, and request a token for a service account, only while a pod bound to it references that
// object. Kept incrementally from the pods of the watch cache: each bound pod adds one edge per
// object it names; a pod deleted (or a listing that no longer has it) takes them away. A pod's
// references are read once, when it is first seen bound: its spec's volumes, containers and
// service account are immutable after creation and its node never changes.
//
// Lookups are two map reads (`related`); the memory is one small array per bound pod and one map
// entry per referenced object and node.
import { nameOf, namespaceOf } from '../../api/meta/object.js';
import type { Pod } from '../../api/types.js';
import type { Registry } from '../../registry/registry.js';
import type { CachedObject } from '../../storage/cacher/types.js';
import { followCache, type CacheFollow } from './follow-cache.js';
import { podReferences } from '../../machinery/pods/references.js';

/** The kinds a node reaches through its pods. */
export type RelatedResource = 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts';

interface PodEdges {
  node: string;
  /** `${resource}/${namespace}/${name}` of everything the pod references. */
  refs: string[];
}

const decoder = new TextDecoder();

export class NodeGraph {
  private pods = new Map<string, PodEdges>();
  /** Referenced object → node → how many of the node's pods reference it. */
  private edges = new Map<string, Map<string, number>>();

  /** Whether a pod bound to `node` references the object. */
  related(node: string, resource: RelatedResource, namespace: string, name: string): boolean {
    return (this.edges.get(`${resource}/${namespace}/${name}`)?.get(node) ?? 0) > 0;
  }

  /** The node the graph has the pod bound to ('' when it is not in the graph). */
  nodeOf(namespace: string, name: string): string {
    return this.pods.get(`${namespace}/${name}`)?.node ?? '';
  }

  /** Adds (or replaces) a bound pod's edges. */
  setPod(node: string, pod: Pod): void {
    const namespace = namespaceOf(pod);
    const key = `${namespace}/${nameOf(pod)}`;
    this.deletePod(key);
    const r = podReferences(pod);
    const refs: string[] = [];
    for (const n of r.secrets) refs.push(`secrets/${namespace}/${n}`);
    for (const n of r.configMaps) refs.push(`configmaps/${namespace}/${n}`);
    for (const n of r.persistentVolumeClaims) refs.push(`persistentvolumeclaims/${namespace}/${n}`);
    if (r.serviceAccount !== '') refs.push(`serviceaccounts/${namespace}/${r.serviceAccount}`);
    for (const ref of refs) {
      let nodes = this.edges.get(ref);
      if (!nodes) this.edges.set(ref, (nodes = new Map()));
      nodes.set(node, (nodes.get(node) ?? 0) + 1);
    }
    this.pods.set(key, { node, refs });
  }

  /** Removes a pod's edges (`namespace/name`). */
  deletePod(key: string): void {
    const old = this.pods.get(key);
    if (!old) return;
    this.pods.delete(key);
    for (const ref of old.refs) {
      const nodes = this.edges.get(ref);
      const left = (nodes?.get(old.node) ?? 0) - 1;
      if (!nodes) continue;
      if (left > 0) nodes.set(old.node, left);
      else {
        nodes.delete(old.node);
        if (nodes.size === 0) this.edges.delete(ref);
      }
    }
  }

  /** Takes over another graph's contents (a fresh listing built aside). */
  replaceWith(other: NodeGraph): void {
    this.pods = other.pods;
    this.edges = other.edges;
  }

  /** Applies one pod of the watch cache: parsed only when it is bound and not yet in the graph at that node. */
  applyCached(type: 'ADDED' | 'MODIFIED' | 'DELETED', o: CachedObject): void {
    const key = `${o.namespace}/${o.name}`;
    const node = type === 'DELETED' ? '' : (o.fields['spec.nodeName'] ?? '');
    if (node === '') return this.deletePod(key);
    if (this.pods.get(key)?.node === node) return;
    this.setPod(node, JSON.parse(decoder.decode(o.json)) as Pod);
  }
}

/** Keeps `graph` in step with the registry's pods. */
export function feedNodeGraph(registry: Registry, graph: NodeGraph): CacheFollow {
  let initial: NodeGraph | undefined;
  return followCache(registry, '', 'pods', {
    begin: () => (initial = new NodeGraph()),
    event: (type, o) => (initial ?? graph).applyCached(type, o),
    synced() {
      if (initial !== undefined) graph.replaceWith(initial);
      initial = undefined;
    },
  });
}
