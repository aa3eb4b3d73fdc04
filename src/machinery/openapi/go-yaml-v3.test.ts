// goYamlV3: the YAML text gnostic writes into the protobuf document's Any values, value by value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goYamlV3 } from './go-yaml-v3.js';

describe('openapi v2 protobuf: YAML of Any values (go-yaml v3)', () => {
  const cases: Array<[unknown, string]> = [
    ['name', 'name\n'],
    ['retainKeys,merge', 'retainKeys,merge\n'],
    ['', '""\n'],
    ['true', '"true"\n'],
    ['null', '"null"\n'],
    ['yes', 'yes\n'],
    ['1', '"1"\n'],
    ['1_000', '"1_000"\n'],
    ['0x1F', '"0x1F"\n'],
    ['1.5e3', '"1.5e3"\n'],
    ['2001-12-14', '"2001-12-14"\n'],
    ['1:20', '1:20\n'],
    ['a: b', "'a: b'\n"],
    ['- x', "'- x'\n"],
    ['#x', "'#x'\n"],
    [' lead', "' lead'\n"],
    ['x\ty', '"x\\ty"\n'],
    ['it\'s', "it's\n"],
    ['a\nb', '|-\n    a\n    b\n'],
    ['é', 'é\n'],
    [1, '1\n'],
    [1.5, '1.5\n'],
    [false, 'false\n'],
    [null, 'null\n'],
    [{}, '{}\n'],
    [[], '[]\n'],
    [['name', 'protocol'], '- name\n- protocol\n'],
    [[{ group: 'apps', kind: 'Deployment', version: 'v1' }], '- group: apps\n  kind: Deployment\n  version: v1\n'],
    [{ group: '', kind: 'Pod', version: 'v1' }, 'group: ""\nkind: Pod\nversion: v1\n'],
    [{ a: { b: [1, { c: 2, d: [] }] } }, 'a:\n    b:\n        - 1\n        - c: 2\n          d: []\n'],
    [[[1, 2], [3]], '- - 1\n  - 2\n- - 3\n'],
    [{ k: 'multi\nline' }, 'k: |-\n    multi\n    line\n'],
    [['multi\nline'], '- |-\n  multi\n  line\n'],
  ];
  for (const [value, yaml] of cases) {
    it(`${JSON.stringify(value)} → ${JSON.stringify(yaml)}`, () => assert.equal(goYamlV3(value), yaml));
  }
});
