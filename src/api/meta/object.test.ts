import assert from 'node:assert/strict';
import { test } from 'node:test';
import { annotationOf } from './object.js';

test('annotationOf: the annotation, or undefined when absent, when there are none, or when metadata is not an object', () => {
  assert.equal(annotationOf({ metadata: { annotations: { a: 'x', b: '' } } }, 'a'), 'x');
  assert.equal(annotationOf({ metadata: { annotations: { a: 'x', b: '' } } }, 'b'), '');
  assert.equal(annotationOf({ metadata: { annotations: { a: 'x' } } }, 'c'), undefined);
  assert.equal(annotationOf({ metadata: {} }, 'a'), undefined);
  assert.equal(annotationOf({ metadata: null }, 'a'), undefined);
  assert.equal(annotationOf({}, 'a'), undefined);
});
