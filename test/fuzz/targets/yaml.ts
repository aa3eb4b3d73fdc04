// YAML request bodies (decodeYaml, what every application/yaml write goes through): multiple
// documents, anchors and aliases (the "billion laughs" alias expansion among them), huge scalars,
// deep nesting and plain noise. Each decodes to an object or is refused with a 4xx Status; a
// decoded object encoded as YAML decodes to the same object.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findResource } from '../../../src/api/kinds.js';
import { decodeYaml, encodeYaml } from '../../../src/machinery/codec/yaml.js';
import { resultOrRefusal } from '../expect.js';
import type { FuzzTarget } from '../target.js';

const configMaps = findResource('', 'v1', 'configmaps')!.type;

/** n levels of aliases, each a list of ten of the one before: 10^n nodes once expanded. */
function billionLaughs(levels: number): string {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'a0: &a0 ["lol"]'];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]`);
  lines.push(`data: {x: *a${levels}}`);
  return lines.join('\n');
}

const nested = (depth: number, open: string, close: string, leaf: string): string => open.repeat(depth) + leaf + close.repeat(depth);
const indented = (depth: number): string => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' v';

const word = fc.constantFrom('apiVersion', 'kind', 'metadata', 'name', 'data', 'binaryData', 'labels', 'v1', 'ConfigMap', 'x', '<<', '&a', '*a', '!!binary', '!!str', '~', 'null', 'yes', '0x1F', '1e3', '.inf');
const punct = fc.constantFrom(': ', '\n', '\n  ', '- ', '---\n', '...\n', '{', '}', '[', ']', ',', '"', "'", '|', '>', '#', '? ', '%YAML 1.2\n', '\t');
export const yamlish = fc.array(fc.oneof(word, punct, fc.string({ maxLength: 6 })), { maxLength: 40 }).map((parts) => parts.join(''));

const configMapDoc = fc
  .record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), data: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 4 }) })
  .map(({ name, data }) => encodeYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }));

export const laughs = fc.integer({ min: 1, max: 9 }).map(billionLaughs);

const hugeOrDeep = fc.oneof(
  laughs,
  fc.tuple(fc.integer({ min: 1, max: 3_200_000 }), fc.constantFrom('a', '"', '\\', ' ', '\n')).map(([n, c]) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {x: "${c.repeat(n)}"}`),
  fc.tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom<[string, string, string]>(['[', ']', '1'], ['{a: ', '}', '1'], ['- ', '', 'x'])).map(([d, [o, c, l]]) => `data: ${nested(d, o, c, l)}`),
  fc.integer({ min: 50, max: 2000 }).map(indented),
);

// The huge and deep inputs cost up to a second each (megabytes of text to parse): rarer than the rest.
export const yamlInput = fc.oneof(
  { weight: 12, arbitrary: yamlish },
  { weight: 5, arbitrary: fc.array(fc.oneof(configMapDoc, yamlish), { minLength: 2, maxLength: 4 }).map((docs) => docs.join('\n---\n')) },
  { weight: 2, arbitrary: configMapDoc },
  { weight: 1, arbitrary: hugeOrDeep },
);

export const yamlTarget: FuzzTarget<string> = {
  name: 'yaml',
  input: yamlInput,
  testRuns: 10_000,
  check(text) {
    const decoded = resultOrRefusal(() => decodeYaml(text, configMaps, { fieldValidation: 'Warn' }));
    if (!decoded) return;
    const again = decodeYaml(encodeYaml(decoded.object), configMaps, { fieldValidation: 'Warn' });
    assert.deepEqual(again.object, decoded.object);
  },
};
