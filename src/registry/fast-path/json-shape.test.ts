import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonShape } from './json-shape.js';

const MARK = '\u0003slot#';

/** JSON.stringify of a value that matched: the template's text with the slots' JSON put in. */
function rendered(shape: JsonShape, values: readonly unknown[]): string {
  let text = shape.textWithMarkers((slot) => `${MARK}${slot}`);
  values.forEach((v, slot) => {
    text = text.replace(JSON.stringify(`${MARK}${slot}`), JSON.stringify(v));
  });
  return text;
}

const template = {
  kind: 'Pod',
  metadata: { name: 'a', uid: 'u-1', labels: { app: 'web', '10': 'ten' } },
  spec: { containers: [{ name: 'c', ports: [80, 443], privileged: false }], volumes: [{ name: 'v-a', empty: {} }], nothing: null },
};

function variant(edit: (o: typeof template) => void): typeof template {
  const o = structuredClone(template);
  edit(o);
  return o;
}

describe('JsonShape', () => {
  it('finds the leaves objects of a template differ in, and matches later ones by those leaves alone', () => {
    const shape = new JsonShape(JSON.stringify(template));
    assert.deepEqual(shape.match(structuredClone(template)), []);
    const b = variant((o) => {
      o.metadata.name = 'b';
      o.metadata.uid = 'u-2';
      o.spec.volumes[0]!.name = 'v-b';
    });
    assert.equal(shape.match(b), undefined);
    const differing = shape.differingLeaves(b)!;
    assert.equal(differing.length, 3);
    shape.addSlots(differing);
    assert.equal(shape.slotCount, 3);
    for (const c of [
      b,
      variant((o) => {
        o.metadata.name = 'é☃𝄞';
        o.metadata.uid = 'u-3';
      }),
      // A variable leaf may hold any JSON primitive.
      variant((o) => {
        (o.metadata as Record<string, unknown>).uid = 7;
        (o.spec.volumes[0] as Record<string, unknown>).name = null;
      }),
      // Keys JSON.stringify leaves out are left out alike.
      variant((o) => {
        Object.assign(o.metadata, { skipped: undefined, f: () => 1 });
        Object.assign(o.spec, { s: Symbol('x') });
      }),
    ]) {
      const values = shape.match(c);
      assert.ok(values !== undefined);
      assert.equal(rendered(shape, values), JSON.stringify(c));
    }
  });

  it('matches nothing whose JSON is not the template with other values in its variable leaves', () => {
    const shape = new JsonShape(JSON.stringify(template));
    shape.addSlots(shape.differingLeaves(variant((o) => (o.metadata.name = 'b')))!);
    class Labels {
      app = 'web';
      '10' = 'ten';
    }
    const misses: Array<[string, unknown]> = [
      ['a fixed leaf changed', variant((o) => (o.spec.containers[0]!.name = 'd'))],
      ['a number changed', variant((o) => (o.spec.containers[0]!.ports[1] = 8443))],
      ['a boolean changed', variant((o) => (o.spec.containers[0]!.privileged = true))],
      ['a key added', variant((o) => Object.assign(o.metadata.labels, { tier: 'x' }))],
      ['a key removed', variant((o) => delete (o.metadata as Partial<typeof o.metadata>).uid)],
      ['keys reordered', variant((o) => (o.metadata = { uid: 'u-1', name: 'a', labels: o.metadata.labels }))],
      ['an array longer', variant((o) => o.spec.containers[0]!.ports.push(8080))],
      ['an object where a leaf was', variant((o) => ((o.metadata as Record<string, unknown>).name = { x: 1 }))],
      ['an array where an object was', variant((o) => ((o.spec.volumes[0] as Record<string, unknown>).empty = []))],
      ['a leaf where an object was', variant((o) => ((o.spec.volumes[0] as Record<string, unknown>).empty = 'x'))],
      ['undefined in an array', variant((o) => ((o.spec.containers[0]!.ports as unknown[])[0] = undefined))],
      ['an object with toJSON', variant((o) => ((o.spec.volumes[0] as Record<string, unknown>).empty = { toJSON: () => 'x' }))],
      ['a toJSON that is not enumerable', variant((o) => ((o.spec.volumes[0] as Record<string, unknown>).empty = Object.defineProperty({}, 'toJSON', { value: () => 'x' })))],
      ['a Date', variant((o) => ((o.spec.volumes[0] as Record<string, unknown>).empty = new Date(0)))],
      ['a class instance', variant((o) => ((o.metadata as Record<string, unknown>).labels = new Labels()))],
      ['a null-prototype object', variant((o) => ((o.spec.volumes[0] as Record<string, unknown>).empty = Object.create(null)))],
      ['a bigint in a variable leaf', variant((o) => ((o.metadata as Record<string, unknown>).name = 1n))],
      ['undefined in a variable leaf', variant((o) => ((o.metadata as Record<string, unknown>).name = undefined))],
      ['null for the whole', null],
      ['a string for the whole', 'x'],
    ];
    for (const [what, value] of misses) assert.equal(shape.match(value), undefined, what);
    // Inherited enumerable keys: for-in would see them, JSON.stringify does not.
    const inherited = variant(() => {});
    Object.setPrototypeOf(inherited.metadata.labels, { extra: 'x' });
    assert.equal(shape.match(inherited), undefined);
  });

  it('random edits: every match renders exactly as JSON.stringify', () => {
    const shape = new JsonShape(JSON.stringify(template));
    shape.addSlots(shape.differingLeaves(variant((o) => ((o.metadata.name = 'b'), (o.spec.volumes[0]!.name = 'v-b'))))!);
    const values = [0, -0, 1.5, 1e21, NaN, 'x', '', '"quoted"\n', '</script>', true, null, {}, [], undefined];
    let matched = 0;
    for (let i = 0; i < 2000; i++) {
      const o = structuredClone(template) as unknown as Record<string, unknown>;
      // Up to two random leaves or members set to a random value.
      for (let e = 0; e < 1 + (i % 2); e++) {
        const paths: Array<[Record<string, unknown>, string]> = [];
        const visit = (x: unknown): void => {
          if (typeof x !== 'object' || x === null) return;
          for (const k of Object.keys(x)) {
            paths.push([x as Record<string, unknown>, k]);
            visit((x as Record<string, unknown>)[k]);
          }
        };
        visit(o);
        const [parent, key] = paths[(i * 7919 + e * 104729) % paths.length]!;
        parent[key] = values[(i * 31 + e) % values.length];
      }
      const got = shape.match(o);
      if (got === undefined) continue;
      matched++;
      assert.equal(rendered(shape, got), JSON.stringify(o));
    }
    assert.ok(matched > 50, `${matched} matched`);
  });
});
