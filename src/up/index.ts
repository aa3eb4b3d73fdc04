// kubelite's library entry point (package.json's `exports` "."): a whole cluster for a test suite.
//
//   import { startCluster } from 'kubelite';
//   await using cluster = await startCluster({ crds: ['config/crd/bases'] });
//   const kc = await cluster.kubeConfig(); // @kubernetes/client-node
export { startCluster, DEFAULT_STORAGE_CLASS, CLUSTER_CIDR, type Cluster, type ClusterOptions, type SingleProcessMode } from './cluster.js';
export type { Manifest, ObjectSource } from './install.js';
export type { KubeConfig } from './client-node.js';
