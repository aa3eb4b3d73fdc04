import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalQuantity,
  compareQuantities,
  ErrFormatWrong,
  ErrSuffix,
  milliValue,
  parseQuantity,
  Quantity,
  QuantityError,
  quantityValue,
} from './quantity.js';

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
  ];
  for (const [input, want] of cases) {
    assert.equal(parseQuantity(input).toString(), want, input);
    assert.equal(canonicalQuantity(input), want, input);
    // Canonical strings are fixed points.
    assert.equal(parseQuantity(want).toString(), want, `${input} → ${want} reparsed`);
  }
});

test('quantity: formats', () => {
  assert.equal(parseQuantity('1Ki').format, 'BinarySI');
  assert.equal(parseQuantity('1k').format, 'DecimalSI');
  assert.equal(parseQuantity('1e3').format, 'DecimalExponent');
  assert.equal(parseQuantity('1E-3').format, 'DecimalExponent');
  assert.equal(parseQuantity('0.000000000001Ki').format, 'DecimalSI');
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
    assert.throws(
      () => parseQuantity(input),
      (e: unknown) => e instanceof QuantityError && e.message === message,
      JSON.stringify(input),
    );
  }
});

test('quantity: values, comparison, arithmetic', () => {
  assert.equal(milliValue('1.5'), 1500);
  assert.equal(milliValue('100m'), 100);
  assert.equal(milliValue('1n'), 1); // rounds up
  assert.equal(milliValue('-1n'), -1); // away from zero
  assert.equal(quantityValue('1Gi'), 1073741824);
  assert.equal(quantityValue('1.5'), 2);
  assert.equal(quantityValue('128974848'), 128974848);
  assert.equal(parseQuantity('2e9').value(), 2e9);
  assert.equal(compareQuantities('100m', '50m'), 1);
  assert.equal(compareQuantities('50m', '100m'), -1);
  assert.equal(compareQuantities('10000T', '100Gi'), 1);
  assert.equal(compareQuantities('1', '1000m'), 0);
  assert.equal(compareQuantities('1Ki', '1024'), 0);
  assert.equal(compareQuantities('-1', '1'), -1);
  assert.equal(compareQuantities('1e999999999', '1E'), 1);
  assert.equal(parseQuantity('100m').add(parseQuantity('1Gi')).toString(), '1073741824100m');
  assert.equal(parseQuantity('1Gi').add(parseQuantity('1Gi')).toString(), '2Gi');
  assert.equal(Quantity.fromValue(0).add(parseQuantity('1Gi')).toString(), '1Gi');
  assert.equal(parseQuantity('1').sub(parseQuantity('300m')).toString(), '700m');
  assert.equal(Quantity.fromMilli(1500).toString(), '1500m');
  assert.equal(Quantity.fromValue(2048, 'BinarySI').toString(), '2Ki');
  assert.equal(parseQuantity('9.01').neg().toString(), '-9010m');
  assert.equal(parseQuantity('1.5Gi').mul(2).toString(), '3Gi');
  assert.equal(parseQuantity('250m').asApproximateFloat64(), 0.25);
});
