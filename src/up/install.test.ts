import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readObjects } from './install.js';

test('readObjects: objects, files of several documents and Lists, directories by file name; other files and empty documents skipped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-install-'));
  try {
    mkdirSync(join(dir, 'crds'));
    writeFileSync(join(dir, 'crds', 'b.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: c}\n');
    writeFileSync(join(dir, 'crds', 'a.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }] }));
    writeFileSync(join(dir, 'crds', 'notes.txt'), 'not a manifest');
    const names = readObjects([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'first' } }, join(dir, 'crds')]).map((o) => `${o.kind}/${o.metadata.name}`);
    assert.deepEqual(names, ['Namespace/first', 'ConfigMap/a', 'ConfigMap/b', 'Secret/c']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readObjects: a document that is not an object with apiVersion, kind and a name is an error naming its file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-install-'));
  try {
    writeFileSync(join(dir, 'bad.yaml'), 'kind: ConfigMap\nmetadata: {name: x}\n');
    assert.throws(() => readObjects([join(dir, 'bad.yaml')]), new RegExp(`^Error: ${join(dir, 'bad.yaml')}: an object needs apiVersion, kind and metadata.name$`));
    writeFileSync(join(dir, 'list.yaml'), '- a\n- b\n');
    assert.throws(() => readObjects([join(dir, 'list.yaml')]), /list\.yaml: not a Kubernetes object/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
