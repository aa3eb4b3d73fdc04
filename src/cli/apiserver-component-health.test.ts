import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseComponentHealthURLs } from './apiserver.js';

test('--component-health-url NAME=URL, repeatable, in order; none means the defaults; anything else is refused', () => {
  assert.equal(parseComponentHealthURLs([]), undefined);
  assert.deepEqual(parseComponentHealthURLs(['scheduler=http://127.0.0.1:1/healthz', 'controller-manager=https://[::1]:2/healthz']), {
    scheduler: 'http://127.0.0.1:1/healthz',
    'controller-manager': 'https://[::1]:2/healthz',
  });
  assert.throws(() => parseComponentHealthURLs(['scheduler']), /--component-health-url "scheduler": want <name>=<http or https URL>/);
  assert.throws(() => parseComponentHealthURLs(['=http://x']), /want <name>=/);
  assert.throws(() => parseComponentHealthURLs(['s=ftp://x']), /want <name>=/);
});
