// Controllers run in-process against a real `kubelite apiserver`: the server, a kubeconfig for
// kubectl, the `default` namespace, and a controller context over the REST client and informers.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SharedInformerFactory } from '../../src/client/informers.js';
import { loadRestConfig } from '../../src/client/kubeconfig.js';
import { newClientset, type RestClientset } from '../../src/client/rest.js';
import type { ControllerContext } from '../../src/client/types.js';
import { kubectl } from './kubectl.js';
import { startApiserver, writeKubeconfig, type RunningApiserver } from './kubelite.js';

export interface ControllerEnv {
  api: RunningApiserver;
  kubeconfig: string;
  clientset: RestClientset;
  informers: SharedInformerFactory;
  ctx: ControllerContext;
}

export async function startControllerEnv(): Promise<ControllerEnv> {
  const api = await startApiserver(['--storage', 'memory']);
  const kubeconfig = join(api.dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, api.url);
  // (the API server may create it itself, as kube-apiserver does)
  const ns = await kubectl(kubeconfig, ['create', 'namespace', 'default']);
  assert.ok(ns.code === 0 || /AlreadyExists/.test(ns.stderr), ns.stderr);
  const clientset = newClientset({ config: loadRestConfig({ kubeconfig }), qps: 0 });
  const informers = new SharedInformerFactory(clientset, { resyncPeriodMs: 0 });
  const ctx: ControllerContext = { clientset, informers, recorder: () => ({ event() {} }), options: {}, now: () => Date.now(), log: () => {} };
  return { api, kubeconfig, clientset, informers, ctx };
}
