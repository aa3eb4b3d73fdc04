// What the fuzz properties accept as a refusal: a typed error (a Status with a 4xx code, or the
// module's own error class), never a TypeError, a RangeError or anything untyped.
import assert from 'node:assert/strict';
import { StatusError } from '../../src/machinery/status.js';

function describe(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.stack ?? e.message}` : `non-Error ${String(e)}`;
}

/** Asserts `e` is a StatusError with one of `codes` (default: any 4xx). */
export function assertRefusal(e: unknown, codes?: readonly number[]): asserts e is StatusError {
  assert.ok(e instanceof StatusError, `expected a Status, got ${describe(e)}`);
  if (codes) assert.ok(codes.includes(e.code), `status ${e.code} (${e.message}), expected one of ${codes.join(', ')}`);
  else assert.ok(e.code >= 400 && e.code < 500, `status ${e.code}: ${e.message}`);
}

/** Runs `fn`: its value, or undefined when it threw a refusal `isRefusal` accepts (else rethrows as a failure). */
export function resultOrRefusal<T>(fn: () => T, isRefusal: (e: unknown) => void = assertRefusal): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    isRefusal(e);
    return undefined;
  }
}

export function assertErrorClass(cls: new (...args: never[]) => Error): (e: unknown) => void {
  return (e) => assert.ok(e instanceof cls, `expected a ${cls.name}, got ${describe(e)}`);
}
