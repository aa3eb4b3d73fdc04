import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalQuantity, ErrFormatWrong, ErrSuffix, parseQuantity, Quantity, QuantityError, roundUpToMilli } from './quantity.js';

const Q = (s: string): Quantity => Quantity.parse(s);

test('quantity: canonical forms (Kubernetes documented examples and the vectors)', () => {
  const cases: Array<[string, string]> = [
    // From Pod.request.json → Pod.created.json.
    ['500m', '500m'],
    ['1Gi', '1Gi'],
    ['1.5', '1500m'],
    ['1.5Gi', '1536Mi'],
    ['2e9', '2e9'],
    ['0.1', '100m'],
    ['128974848', '128974848'],
    // resource.Quantity documentation and tests.
    ['1000m', '1'],
    ['1k', '1k'],
    ['1e3', '1e3'],
    ['1000', '1k'],
    ['1Ki', '1Ki'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['0', '0'],
    ['0Ki', '0'],
    ['0m', '0'],
    ['-0', '0'],
    ['1', '1'],
    ['5n', '5n'],
    ['50k', '50k'],
    ['100.035k', '100035'],
    ['0.0005k', '500m'],
    ['1.2e3', '1200'],
    ['1.3E+6', '1300e3'],
    ['1.40e9', '1400e6'],
    ['3.001n', '4n'],
    ['1.1E-9', '2e-9'],
    ['0.0000000001', '1n'],
    ['0.00000012345', '124n'],
    ['9Ei', '9223372036854775807'],
    ['9223372036854775807Ki', '9223372036854775807'],
    ['12E', '12E'],
    ['100.035Ki', '102435840m'],
    ['0.5Mi', '512Ki'],
    ['1.', '1'],
    ['1.G', '1G'],
    ['.', '0'],
    ['+1', '1'],
    ['-1.5', '-1500m'],
    ['-1.5Gi', '-1536Mi'],
    ['1025', '1025'],
    ['1025Ki', '1025Ki'],
    ['1.1Ki', '1126400m'],
    ['6.987654321G', '6987654321'],
    ['1E', '1E'],
    ['1000E', '1e21'],
    ['1e-3', '1e-3'],
    ['80e-3', '80e-3'],
    ['1e9', '1e9'],
    ['0.5e0', '500e-3'],
    ['1e999999999', '1e999999999'],
    ['1e1000000000', '10e999999999'],
    ['1e-999999999', '1e-9'],
    ['1024', '1024'],
    ['1000Mi', '1000Mi'],
    ['0.5Ki', '512'],
    ['1E6', '1e6'],
    ['12e2', '1200'],
    ['10u', '10u'],
    ['1500000m', '1500'],
    // Rounded up (away from zero) to nano precision on parse, as ParseQuantity does.
    ['1e-12', '1e-9'],
    ['.5n', '1n'],
    ['-.5n', '-1n'],
    ['1.0001u', '1001n'],
    // BinarySI is capped at ±(2^63-1).
    ['100Ei', '9223372036854775807'],
    ['-100Ei', '-9223372036854775807'],
    // An empty numeric part is 0 (parseQuantityString's scanner).
    ['-', '0'],
    ['Ki', '0'],
    ['+.e3', '0'],
  ];
  for (const [input, want] of cases) {
    assert.equal(Q(input).toString(), want, input);
    assert.equal(parseQuantity(input)?.toString(), want, input);
    assert.equal(canonicalQuantity(input), want, input);
    // Canonical strings are fixed points.
    assert.equal(Q(want).toString(), want, `${input} → ${want} reparsed`);
  }
});

test('quantity: formats', () => {
  assert.equal(Q('1Ki').format, 'BinarySI');
  assert.equal(Q('1k').format, 'DecimalSI');
  assert.equal(Q('1e3').format, 'DecimalExponent');
  assert.equal(Q('1E-3').format, 'DecimalExponent');
  assert.equal(Q('0.000000000001Ki').format, 'DecimalSI');
  // 0 < |value| < 1 in BinarySI becomes DecimalSI on parse.
  assert.equal(Q('0.0001Ki').format, 'DecimalSI');
});

test('quantity: invalid strings', () => {
  const invalid: Array<[string, string]> = [
    ['', ErrFormatWrong],
    ['1.1.M', ErrFormatWrong],
    ['1+1.0M', ErrFormatWrong],
    ['0.1mi', ErrSuffix],
    ['0.1am', ErrFormatWrong],
    ['aoeu', ErrFormatWrong],
    ['.5i', ErrSuffix],
    ['1i', ErrSuffix],
    ['-3.01i', ErrSuffix],
    ['-3.01e-', ErrSuffix],
    ['1e4294967297', ErrSuffix],
    [' 1', ErrFormatWrong],
    ['1 ', ErrFormatWrong],
    ['1K', ErrSuffix],
    ['e', ErrSuffix],
  ];
  for (const [input, message] of invalid) {
    for (const parse of [Q, canonicalQuantity]) {
      assert.throws(
        () => parse(input),
        (e: unknown) => e instanceof QuantityError && e.message === message,
        JSON.stringify(input),
      );
    }
    if (input.trim() !== '1') assert.equal(parseQuantity(input), undefined, JSON.stringify(input));
  }
});

test('quantity: parseQuantity reads a JSON value (surrounding spaces ignored, as UnmarshalJSON), memoized', () => {
  assert.equal(parseQuantity(' 1 ')?.toString(), '1');
  assert.equal(parseQuantity('\t1.5Gi\n')?.toString(), '1536Mi');
  assert.equal(parseQuantity('   '), undefined);
  assert.equal(parseQuantity('128Mi'), parseQuantity('128Mi'));
});

test('quantity: values, comparison, arithmetic', () => {
  assert.equal(Q('1.5').milliValue(), 1500);
  assert.equal(Q('100m').milliValue(), 100);
  assert.equal(Q('1n').milliValue(), 1); // rounds up
  assert.equal(Q('-1n').milliValue(), -1); // away from zero
  assert.equal(Q('1Gi').value(), 1073741824);
  assert.equal(Q('1.5').value(), 2);
  assert.equal(Q('128974848').value(), 128974848);
  assert.equal(Q('2e9').value(), 2e9);
  assert.equal(Q('100m').cmp(Q('50m')), 1);
  assert.equal(Q('50m').cmp(Q('100m')), -1);
  assert.equal(Q('10000T').cmp(Q('100Gi')), 1);
  assert.equal(Q('1').cmp(Q('1000m')), 0);
  assert.equal(Q('1Ki').cmp(Q('1024')), 0);
  assert.equal(Q('-1').cmp(Q('1')), -1);
  assert.equal(Q('1e999999999').cmp(Q('1E')), 1);
  assert.ok(Q('1').equals(Q('1000m')));
  assert.equal(Q('-5m').sign(), -1);
  assert.ok(Q('0Ki').isZero());
  assert.equal(Q('100m').add(Q('1Gi')).toString(), '1073741824100m');
  assert.equal(Q('1Gi').add(Q('1Gi')).toString(), '2Gi');
  // Add keeps the receiver's format unless the receiver is zero (Quantity.Add).
  assert.equal(Quantity.fromValue(0).add(Q('1Gi')).toString(), '1Gi');
  assert.equal(Q('0').add(Q('1Gi')).toString(), '1Gi');
  assert.equal(Q('1k').add(Q('1Ki')).toString(), '2024');
  assert.equal(Q('1').sub(Q('300m')).toString(), '700m');
  assert.equal(Quantity.fromMilli(1500).toString(), '1500m');
  assert.equal(Quantity.fromValue(2048, 'BinarySI').toString(), '2Ki');
  assert.equal(Q('9.01').neg().toString(), '-9010m');
  assert.equal(Q('1.5Gi').mul(2).toString(), '3Gi');
  assert.equal(Q('250m').asApproximateFloat64(), 0.25);
});

test('quantity: RoundUp and milli round-up (SetDefaults_ResourceList)', () => {
  assert.equal(roundUpToMilli('0.0001'), '1m');
  assert.equal(roundUpToMilli('1.0001'), '1001m');
  assert.equal(roundUpToMilli('1.5'), '1.5'); // unchanged values keep their spelling
  assert.equal(roundUpToMilli('100n'), '1m');
  assert.equal(roundUpToMilli('-0.0001'), '-1m');
  assert.equal(roundUpToMilli('not a quantity'), 'not a quantity');
  const q = Q('1.5Gi');
  assert.equal(q.roundUp(0), q); // nothing lost: the same quantity
  assert.equal(Q('-9').roundUp(1).toString(), '-10'); // away from zero
  assert.equal(Q('1001').roundUp(3).toString(), '2k');
  assert.equal(Q('1.5Ki').roundUp(3).format, 'BinarySI');
});
