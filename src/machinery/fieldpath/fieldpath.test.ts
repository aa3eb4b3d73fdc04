import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TESTDATA } from '../../api/vectors.testutil.js';
import { fieldElement, keyElement, parseElement, pathToString, valueElement, indexElement } from './element.js';
import { fieldsToSet, setToFields } from './fieldsv1.js';
import { FieldSet } from './set.js';

/** Every fieldsV1 object found in the vectors (JSON files and JSON bodies of dumps). */
function vectorFields(): Array<{ file: string; fields: unknown }> {
  const out: Array<{ file: string; fields: unknown }> = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        walk(p);
        continue;
      }
      const text = readFileSync(p, 'utf8');
      if (!text.includes('fieldsV1')) continue;
      const bodies = name.endsWith('.json') ? [text] : text.split(/\r?\n/).filter((l) => l.trim().startsWith('{'));
      for (const b of bodies) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(b);
        } catch {
          continue;
        }
        const visit = (v: unknown): void => {
          if (Array.isArray(v)) v.forEach(visit);
          else if (v !== null && typeof v === 'object') {
            for (const [k, x] of Object.entries(v)) {
              if (k === 'fieldsV1') out.push({ file: p, fields: x });
              else visit(x);
            }
          }
        };
        visit(parsed);
      }
    }
  };
  walk(TESTDATA);
  return out;
}

const p = (...names: string[]) => names.map((n) => fieldElement(n));

describe('fieldpath', () => {
  it('round-trips every FieldsV1 of the vectors byte for byte', () => {
    const all = vectorFields();
    assert.ok(all.length > 50, `found ${all.length} fieldsV1 in the vectors`);
    for (const { file, fields } of all) {
      assert.equal(JSON.stringify(setToFields(fieldsToSet(fields))), JSON.stringify(fields), file);
    }
  });

  it('writes keys in structured-merge-diff order: ".", fields, keys, values, indexes', () => {
    const s = new FieldSet();
    s.insert([fieldElement('b')]);
    s.insert([fieldElement('a'), indexElement(2)]);
    s.insert([fieldElement('a'), valueElement('x')]);
    s.insert([fieldElement('a'), keyElement([['port', 80], ['name', 'p']])]);
    s.insert([fieldElement('a'), keyElement([['name', 'p']])]);
    s.insert([fieldElement('a'), fieldElement('z')]);
    s.insert([fieldElement('a')]);
    assert.equal(
      JSON.stringify(setToFields(s)),
      '{"f:a":{".":{},"f:z":{},"k:{\\"name\\":\\"p\\"}":{},"k:{\\"name\\":\\"p\\",\\"port\\":80}":{},"v:\\"x\\"":{},"i:2":{}},"f:b":{}}',
    );
  });

  it('set operations', () => {
    const a = FieldSet.of(p('spec', 'replicas'), p('spec', 'template', 'spec'), p('metadata', 'labels', 'app'));
    const b = FieldSet.of(p('spec', 'replicas'), p('spec', 'template'), p('status'));
    assert.deepEqual(a.union(b).paths().map(pathToString), ['.status', '.metadata.labels.app', '.spec.replicas', '.spec.template', '.spec.template.spec']);
    assert.deepEqual(a.difference(b).paths().map(pathToString), ['.metadata.labels.app', '.spec.template.spec']);
    assert.deepEqual(a.recursiveDifference(b).paths().map(pathToString), ['.metadata.labels.app']);
    assert.deepEqual(a.intersection(b).paths().map(pathToString), ['.spec.replicas']);
    assert.ok(a.intersection(FieldSet.of(p('x'))).isEmpty());
    assert.ok(a.equals(FieldSet.of(p('metadata', 'labels', 'app'), p('spec', 'template', 'spec'), p('spec', 'replicas'))));
    assert.ok(!a.equals(b));
    assert.ok(a.has(p('spec', 'replicas')) && !a.has(p('spec')));
  });

  it('prints paths as conflict messages do', () => {
    const path = [fieldElement('spec'), fieldElement('containers'), keyElement([['name', 'nginx']]), fieldElement('image')];
    assert.equal(pathToString(path), '.spec.containers[name="nginx"].image');
    assert.equal(pathToString([fieldElement('ports'), keyElement([['protocol', 'TCP'], ['containerPort', 80]])]), '.ports[containerPort=80,protocol="TCP"]');
    assert.equal(pathToString([fieldElement('finalizers'), valueElement('a')]), '.finalizers[="a"]');
  });

  it('rejects malformed elements', () => {
    assert.throws(() => parseElement('x:1'));
    assert.throws(() => parseElement('f'));
    assert.throws(() => parseElement('k:[1]'));
    assert.throws(() => fieldsToSet({ 'f:a': 1 }));
  });
});
