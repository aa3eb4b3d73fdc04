// Test helper: the message of the 400 SelectorError a call throws.
import assert from 'node:assert/strict';
import { SelectorError } from './errors.js';

export function selectorError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SelectorError, String(e));
    assert.equal(e.code, 400);
    return e.message;
  }
  return assert.fail('no error');
}
