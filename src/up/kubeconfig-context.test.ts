import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { mergeContext, removeContext, userKubeconfigPath } from './kubeconfig-context.js';

const CLUSTER = 'apiVersion: v1\nkind: Config\nclusters:\n- name: kubelite\n  cluster: {server: "https://127.0.0.1:1234"}\nusers:\n- name: kubelite\n  user: {token: t}\ncontexts:\n- name: kubelite\n  context: {cluster: kubelite, user: kubelite}\ncurrent-context: kubelite\n';

test('userKubeconfigPath: the first file of $KUBECONFIG, else ~/.kube/config', () => {
  assert.equal(userKubeconfigPath({ KUBECONFIG: ':/a/config:/b/config' }), '/a/config');
  assert.match(userKubeconfigPath({}), /\/\.kube\/config$/);
});

test('mergeContext then removeContext: the kubelite entries come and go, the file\'s other entries and fields stay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-context-'));
  try {
    const path = join(dir, 'config');
    writeFileSync(path, 'apiVersion: v1\nkind: Config\npreferences: {colors: true}\nclusters:\n- name: other\n  cluster: {server: "https://192.0.2.1"}\n- name: kubelite\n  cluster: {server: "https://stale"}\nusers: []\ncontexts:\n- name: other\n  context: {cluster: other, user: other}\ncurrent-context: other\n');
    mergeContext(path, CLUSTER);
    const merged = parse(readFileSync(path, 'utf8'));
    assert.deepEqual(merged.clusters, [{ name: 'other', cluster: { server: 'https://192.0.2.1' } }, { name: 'kubelite', cluster: { server: 'https://127.0.0.1:1234' } }]);
    assert.deepEqual(merged.users, [{ name: 'kubelite', user: { token: 't' } }]);
    assert.deepEqual(merged.contexts.map((c: { name: string }) => c.name), ['other', 'kubelite']);
    assert.equal(merged['current-context'], 'kubelite');
    assert.deepEqual(merged.preferences, { colors: true });
    assert.equal(statSync(path).mode & 0o777, 0o600);
    removeContext(path);
    const removed = parse(readFileSync(path, 'utf8'));
    assert.deepEqual([removed.clusters.map((c: { name: string }) => c.name), removed.users, removed.contexts.map((c: { name: string }) => c.name), removed['current-context']], [['other'], [], ['other'], '']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('mergeContext creates the file (and its directory) when there is none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-context-'));
  try {
    const path = join(dir, '.kube', 'config');
    mergeContext(path, CLUSTER);
    assert.deepEqual(parse(readFileSync(path, 'utf8')).contexts, [{ name: 'kubelite', context: { cluster: 'kubelite', user: 'kubelite' } }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
