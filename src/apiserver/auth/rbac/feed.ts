// Keeps a PolicyIndex in step with the registry's watch cache: one follower per RBAC resource
// (follow-cache.ts); each listing is collected aside and swapped in whole, so decisions never see
// a half-listed policy.
import type { Registry } from '../../../registry/registry.js';
import { followCache, type CacheFollow } from '../follow-cache.js';
import type { PolicyIndex, PolicyResource } from './policy.js';

const GROUP = 'rbac.authorization.k8s.io';
const RESOURCES: readonly PolicyResource[] = ['clusterroles', 'roles', 'clusterrolebindings', 'rolebindings'];
const decoder = new TextDecoder();

export interface PolicyFeed {
  /** Resolves once every resource's current objects are in the index. */
  readonly synced: Promise<void>;
  stop(): void;
}

export function feedPolicy(registry: Registry, index: PolicyIndex): PolicyFeed {
  const follows: CacheFollow[] = RESOURCES.map((resource) => {
    let initial: Map<string, Record<string, unknown>> | undefined;
    return followCache(registry, GROUP, resource, {
      begin: () => (initial = new Map()),
      event(type, o) {
        const obj = type === 'DELETED' ? undefined : (JSON.parse(decoder.decode(o.json)) as Record<string, unknown>);
        if (initial === undefined) index.apply(resource, o.namespace, o.name, obj);
        else if (obj === undefined) initial.delete(`${o.namespace}/${o.name}`);
        else initial.set(`${o.namespace}/${o.name}`, obj);
      },
      synced() {
        if (initial !== undefined) index.replace(resource, initial);
        initial = undefined;
      },
    });
  });
  return {
    synced: Promise.all(follows.map((f) => f.synced)).then(() => undefined),
    stop() {
      for (const f of follows) f.stop();
    },
  };
}
