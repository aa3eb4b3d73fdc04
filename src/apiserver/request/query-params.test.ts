import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../machinery/status.js';
import { goParseInt64, int64Param, refuseExport, requestTimeoutMs, withinDeadline } from './query-params.js';

function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    return err.message;
  }
  assert.fail('no error');
}

test("goParseInt64: Go's strconv.ParseInt base 10, its messages", () => {
  assert.equal(goParseInt64('42'), 42n);
  assert.equal(goParseInt64('+7'), 7n);
  assert.equal(goParseInt64('-3'), -3n);
  assert.equal(goParseInt64('9223372036854775807'), (1n << 63n) - 1n);
  assert.throws(() => goParseInt64('abc'), { message: 'strconv.ParseInt: parsing "abc": invalid syntax' });
  assert.throws(() => goParseInt64(''), { message: 'strconv.ParseInt: parsing "": invalid syntax' });
  assert.throws(() => goParseInt64('1.5'), { message: 'strconv.ParseInt: parsing "1.5": invalid syntax' });
  assert.throws(() => goParseInt64('0x10'), { message: 'strconv.ParseInt: parsing "0x10": invalid syntax' });
  assert.throws(() => goParseInt64('9223372036854775808'), { message: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' });
});

test('int64Param: absent → undefined; the first value decides; a bad one is a 400', () => {
  assert.equal(int64Param(new URLSearchParams(''), 'timeoutSeconds'), undefined);
  assert.equal(int64Param(new URLSearchParams('timeoutSeconds=5&timeoutSeconds=x'), 'timeoutSeconds'), 5n);
  assert.equal(badRequest(() => int64Param(new URLSearchParams('timeoutSeconds=abc'), 'timeoutSeconds')), 'strconv.ParseInt: parsing "abc": invalid syntax');
  assert.equal(badRequest(() => int64Param(new URLSearchParams('limit='), 'limit')), 'strconv.ParseInt: parsing "": invalid syntax');
});

test('export: refused unless its first value is 0 or false (any case), as GetResource', () => {
  for (const q of ['', 'export=0', 'export=false', 'export=FALSE', 'export=False&export=true', 'exact=true', 'includeUninitialized=true']) {
    assert.doesNotThrow(() => refuseExport(new URLSearchParams(q)), q);
  }
  for (const q of ['export=true', 'export=1', 'export=', 'export=yes', 'export=true&export=false']) {
    assert.equal(badRequest(() => refuseExport(new URLSearchParams(q))), 'the export parameter, deprecated since v1.14, is no longer supported', q);
  }
});

test('timeout: a Go duration; unset, 0, negative or above the maximum → the maximum; malformed → 400', () => {
  assert.equal(requestTimeoutMs(new URLSearchParams('')), 60_000);
  assert.equal(requestTimeoutMs(new URLSearchParams('timeout=0')), 60_000);
  assert.equal(requestTimeoutMs(new URLSearchParams('timeout=-5s')), 60_000);
  assert.equal(requestTimeoutMs(new URLSearchParams('timeout=2m')), 60_000);
  assert.equal(requestTimeoutMs(new URLSearchParams('timeout=1.5s')), 1500);
  assert.equal(requestTimeoutMs(new URLSearchParams('timeout=250ms')), 250);
  assert.equal(requestTimeoutMs(new URLSearchParams('timeout=1ns')), 1);
  assert.equal(badRequest(() => requestTimeoutMs(new URLSearchParams('timeout=abc'))), 'invalid timeout specified in the request URL - time: invalid duration "abc"');
  assert.equal(badRequest(() => requestTimeoutMs(new URLSearchParams('timeout=10'))), 'invalid timeout specified in the request URL - time: missing unit in duration "10"');
});

test('withinDeadline: the work when it is in time, else 504 Timeout', async () => {
  assert.equal(await withinDeadline(1000, Promise.resolve(7)), 7);
  const slow = new Promise((resolve) => setTimeout(resolve, 200, 'late'));
  await assert.rejects(withinDeadline(20, slow), (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.deepEqual(err.toStatus(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504,
    });
    return true;
  });
  // A late failure of the dropped work is not an unhandled rejection.
  await assert.rejects(withinDeadline(10, new Promise((_, reject) => setTimeout(reject, 50, new Error('late')))), { code: 504 } as object);
  await new Promise((r) => setTimeout(r, 80));
});
