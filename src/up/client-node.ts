// @kubernetes/client-node for Cluster.kubeConfig(): an optional peer dependency, so a cluster for
// kubectl or kubelite's own client does not pull it in. Loaded when asked for, with a message
// that says what to install when it is absent.
import type { KubeConfig } from '@kubernetes/client-node';

export type { KubeConfig };

const MODULE = '@kubernetes/client-node';

/** A KubeConfig loaded from the cluster's kubeconfig text. */
export async function loadClientNodeConfig(kubeconfigYaml: string): Promise<KubeConfig> {
  let clientNode: typeof import('@kubernetes/client-node');
  try {
    // a variable specifier: bundlers and tsc leave the optional package to be found at run time
    clientNode = (await import(MODULE)) as typeof import('@kubernetes/client-node');
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(`cluster.kubeConfig() needs ${MODULE}: install it with npm install --save-dev ${MODULE}`);
    }
    throw e;
  }
  const kc = new clientNode.KubeConfig();
  kc.loadFromString(kubeconfigYaml);
  return kc;
}
