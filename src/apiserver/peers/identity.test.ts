import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { apiserverIdentity, identityHostname } from './identity.js';

it('names the identity apiserver-<26 base32 letters>, one per host name', () => {
  const a = apiserverIdentity('node-a');
  assert.match(a, /^apiserver-[a-z2-7]{26}$/);
  assert.equal(apiserverIdentity('node-a'), a);
  assert.notEqual(apiserverIdentity('node-b'), a);
});

it('hashes the length-prefixed host name and "kube-apiserver" (RFC 4648 base32 of 16 bytes)', () => {
  // 0x00 0x01 'h' 0x00 0x0e 'kube-apiserver', hashed; base32 of the first 16 bytes computed here
  // bit by bit, independently of the encoder under test.
  const data = Buffer.concat([Buffer.from([0, 1]), Buffer.from('h'), Buffer.from([0, 14]), Buffer.from('kube-apiserver')]);
  const bits = [...createHash('sha256').update(data).digest().subarray(0, 16)].map((b) => b.toString(2).padStart(8, '0')).join('').padEnd(130, '0');
  const expected = bits.match(/.{5}/g)!.map((chunk) => 'abcdefghijklmnopqrstuvwxyz234567'[parseInt(chunk, 2)]).join('');
  assert.equal(apiserverIdentity('h'), `apiserver-${expected}`);
});

it('adds a non-default advertise address to the hashed host name', () => {
  assert.equal(identityHostname('box', undefined), 'box');
  assert.equal(identityHostname('box', '127.0.0.1'), 'box');
  assert.equal(identityHostname('box', '127.0.0.2'), 'box/127.0.0.2');
});
