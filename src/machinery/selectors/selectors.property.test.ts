// Property tests (fast-check) of the label and field selector parsers, which read query parameters
// anyone may send: any input parses or is refused with a SelectorError (a 400, never another
// exception), and a parsed selector printed and parsed again is the same selector.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SelectorError } from './errors.js';
import { parseFieldSelector } from './fields.js';
import { parseLabelSelector } from './labels.js';

const RUNS = 10_000;
/** Fixed, so a run is reproducible. */
const SEED = 20261128;

/** Selector-shaped text: keys, operators, values, commas, parentheses and noise. */
const token = fc.constantFrom('app', 'tier', 'example.com/role', 'a.b-c_d', '=', '==', '!=', 'in', 'notin', '!', '(', ')', ',', ' ', 'x', '', '\\,', '\\=', 'metadata.name', 'status.phase', '\u00e9', '-', '.');
const selectorText = fc.oneof(fc.string({ maxLength: 60 }), fc.array(token, { maxLength: 20 }).map((t) => t.join('')));

function parsesOrRefuses(parse: (s: string) => unknown, s: string): unknown {
  try {
    return parse(s);
  } catch (e) {
    assert.ok(e instanceof SelectorError, `${JSON.stringify(s)} threw ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
    assert.equal(e.code, 400);
    return undefined;
  }
}

test('label selectors: parsed or refused with a 400, and stable when printed and parsed again', () => {
  fc.assert(
    fc.property(selectorText, (s) => {
      const parsed = parsesOrRefuses(parseLabelSelector, s) as ReturnType<typeof parseLabelSelector> | undefined;
      if (!parsed) return;
      const printed = parsed.toString();
      assert.equal(parseLabelSelector(printed).toString(), printed, `${JSON.stringify(s)} → ${JSON.stringify(printed)}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

/** The terms as a multiset: a selector is their conjunction, so order carries no meaning. */
function termSet(sel: ReturnType<typeof parseFieldSelector>): string[] {
  return sel.requirements.map((r) => JSON.stringify([r.field, r.operator, r.value])).sort();
}

// Kubernetes' fields.ParseSelector sorts the terms by their text as written, and String() prints
// them in that order with `==` normalised to `=`; an empty field name is accepted (the kind's field
// label conversion refuses it later). So "=.,==" prints as "=.,=", which parses back to the same
// terms in another order ("=,=."): the same selector, and a printed form that is stable from then on.
test('field selectors: parsed or refused with a 400, and the same terms when printed and parsed again', () => {
  fc.assert(
    fc.property(selectorText, (s) => {
      const parsed = parsesOrRefuses(parseFieldSelector, s) as ReturnType<typeof parseFieldSelector> | undefined;
      if (!parsed) return;
      const printed = parsed.toString();
      const reparsed = parseFieldSelector(printed);
      assert.deepEqual(termSet(reparsed), termSet(parsed), `${JSON.stringify(s)} → ${JSON.stringify(printed)}`);
      const canonical = reparsed.toString();
      assert.equal(parseFieldSelector(canonical).toString(), canonical, `${JSON.stringify(s)} → ${JSON.stringify(canonical)}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

test('field selectors: "=.,==" (found by fast-check) keeps its terms, as in Kubernetes', () => {
  const parsed = parseFieldSelector('=.,==');
  assert.equal(parsed.toString(), '=.,=');
  assert.equal(parseFieldSelector('=.,=').toString(), '=,=.');
  assert.deepEqual(termSet(parseFieldSelector('=.,=')), termSet(parsed));
});
