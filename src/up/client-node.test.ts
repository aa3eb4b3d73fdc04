import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadClientNodeConfig } from './client-node.js';

test('loadClientNodeConfig: a @kubernetes/client-node KubeConfig of the cluster, its context current', async () => {
  const yaml = 'apiVersion: v1\nkind: Config\nclusters:\n- name: kubelite\n  cluster: {server: "https://127.0.0.1:6443", certificate-authority-data: Y2E=}\nusers:\n- name: kubelite\n  user: {token: secret}\ncontexts:\n- name: kubelite\n  context: {cluster: kubelite, user: kubelite}\ncurrent-context: kubelite\n';
  const kc = await loadClientNodeConfig(yaml);
  assert.equal(kc.getCurrentContext(), 'kubelite');
  assert.equal(kc.getCurrentCluster()?.server, 'https://127.0.0.1:6443');
  assert.equal(kc.getCurrentUser()?.token, 'secret');
});
