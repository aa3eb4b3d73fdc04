import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatChecker } from './formats.js';

const check = (format: string, value: string): boolean => formatChecker(format)!.check(value);

test('the formats Kubernetes keeps, with strfmt’s rules', () => {
  const valid: [string, string][] = [
    ['date-time', '2024-01-02T03:04:05Z'],
    ['date-time', '2024-01-02t03:04:05.123+01:00'],
    ['datetime', '2024-02-29T00:00:00Z'],
    ['date', '2024-02-29'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000'],
    ['uuid', '123E4567E89B12D3A456426614174000'],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000'],
    ['byte', 'aGVsbG8='],
    ['ipv4', '10.0.0.1'],
    ['ipv4', '010.000.000.001'],
    ['ipv6', '::1'],
    ['cidr', '10.0.0.0/8'],
    ['mac', '00:1a:2b:3c:4d:5e'],
    ['hostname', 'example.com'],
    ['email', 'a@example.com'],
    ['uri', 'https://example.com/x'],
    ['duration', '1h30m'],
    ['duration', '3 days'],
    ['hexcolor', '#fff'],
    ['rgbcolor', 'rgb(1,2,3)'],
    ['isbn10', '0321751043'],
    ['isbn13', '978-0321751041'],
    ['ssn', '123-45-6789'],
    ['bsonobjectid', '507f1f77bcf86cd799439011'],
    ['password', ''],
  ];
  for (const [f, v] of valid) assert.ok(check(f, v), `${f} ${v}`);
  const invalid: [string, string][] = [
    ['date-time', '2024-01-02T03:04:05'],
    ['date-time', '2024-01-02 03:04:05Z'],
    ['date-time', '2024-01-02T24:00:00Z'],
    ['date', '2023-02-29'],
    ['uuid', 'nope'],
    ['uuid4', '123e4567-e89b-12d3-a456-426614174000'],
    ['byte', ''],
    ['byte', 'abc'],
    ['ipv4', '::1'],
    ['ipv4', '300.1.1.1'],
    ['cidr', '10.0.0.0/33'],
    ['mac', '00:1a:2b'],
    ['hostname', '-bad-.com'],
    ['isbn10', '0321751044'],
  ];
  for (const [f, v] of invalid) assert.ok(!check(f, v), `${f} ${v}`);
  // Formats Kubernetes drops before validating (int32, int64, anything unknown) check nothing.
  assert.equal(formatChecker('int32'), undefined);
  assert.equal(formatChecker('int64'), undefined);
  assert.equal(formatChecker('my-format'), undefined);
});
