// The relay's WebSocket framing against ws's own: masked client frames cut at any byte come out as
// the payload bytes in order, control frames whole; server frames are what ws's receiver reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { ClientFrameReader, closePayload, frame, frameHeader, Opcode, WebSocketProtocolError } from './websocket-frames.js';

// ws's own framer and parser (exported by ws, absent from its type definitions).
const { Sender, Receiver } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: { fin: boolean; mask: boolean; opcode: number; readOnly: boolean; rsv1: boolean }): Buffer[] };
  Receiver: new (options: { isServer: boolean; binaryType: string }) => EventEmitter & { write(chunk: Buffer): void };
};

/** A client frame as ws writes one (masked with a random key). */
const clientFrame = (payload: Buffer, opcode: number, fin = true): Buffer => Buffer.concat(Sender.frame(Buffer.from(payload), { fin, mask: true, opcode, readOnly: false, rsv1: false }));

function read(bytes: Buffer, cut: number[]): { data: Array<[Buffer, number]>; control: Array<[number, Buffer]> } {
  const out = { data: [] as Array<[Buffer, number]>, control: [] as Array<[number, Buffer]> };
  const reader = new ClientFrameReader({
    data: (payload, opcode) => out.data.push([Buffer.from(payload), opcode]),
    control: (opcode, payload) => out.control.push([opcode, Buffer.from(payload)]),
  });
  let at = 0;
  for (const n of [...cut, bytes.length]) {
    reader.push(Buffer.from(bytes.subarray(at, Math.max(at, n))));
    at = Math.max(at, n);
  }
  return out;
}

test('payloads of masked frames come out in order wherever the stream is cut', () => {
  const payloads = [randomBytes(5), randomBytes(125), randomBytes(126), randomBytes(70_000), randomBytes(1)];
  const stream = Buffer.concat(payloads.map((p) => clientFrame(p, Opcode.Binary)));
  for (const cut of [[], [1], [3, 7, 9], Array.from({ length: 200 }, (_, i) => i * 377), Array.from({ length: stream.length }, (_, i) => i)]) {
    const { data } = read(stream, cut);
    assert.deepEqual(Buffer.concat(data.map(([b]) => b)), Buffer.concat(payloads));
    assert.ok(data.every(([, op]) => op === Opcode.Binary));
  }
});

test('a fragmented message keeps its opcode, and control frames between fragments come whole', () => {
  const stream = Buffer.concat([
    clientFrame(Buffer.from('one '), Opcode.Text, false),
    clientFrame(Buffer.from('are you there'), Opcode.Ping),
    clientFrame(Buffer.from('two '), Opcode.Continuation, false),
    clientFrame(Buffer.alloc(0), Opcode.Continuation, false),
    clientFrame(Buffer.from('three'), Opcode.Continuation, true),
    clientFrame(closePayload(1000, 'bye'), Opcode.Close),
  ]);
  const { data, control } = read(stream, [2, 11, 30]);
  assert.equal(Buffer.concat(data.map(([b]) => b)).toString(), 'one two three');
  assert.ok(data.every(([, op]) => op === Opcode.Text));
  assert.deepEqual(
    control.map(([op, p]) => [op, p.toString('hex')]),
    [
      [Opcode.Ping, Buffer.from('are you there').toString('hex')],
      [Opcode.Close, closePayload(1000, 'bye').toString('hex')],
    ],
  );
});

test('frames that break the protocol are refused', () => {
  const unmasked = Buffer.concat([frameHeader(Opcode.Binary, 3), Buffer.from('abc')]);
  const rsv = clientFrame(Buffer.from('x'), Opcode.Binary);
  rsv[0]! |= 0x40;
  const cases: Array<[string, Buffer]> = [
    ['unmasked', unmasked],
    ['reserved bits', rsv],
    ['fragmented control frame', clientFrame(Buffer.from('p'), Opcode.Ping, false)],
    ['control frame too long', clientFrame(Buffer.alloc(126), Opcode.Ping)],
    ['continuation without a message', clientFrame(Buffer.from('x'), Opcode.Continuation)],
    ['a new message inside another', Buffer.concat([clientFrame(Buffer.from('a'), Opcode.Binary, false), clientFrame(Buffer.from('b'), Opcode.Binary)])],
    ['unknown opcode', clientFrame(Buffer.from('x'), 3)],
  ];
  for (const [what, bytes] of cases) assert.throws(() => read(bytes, []), WebSocketProtocolError, what);
});

test("server frames are what ws's receiver reads as a client", async () => {
  const receiver = new Receiver({ isServer: false, binaryType: 'nodebuffer' });
  const messages: Buffer[] = [];
  receiver.on('message', (data: Buffer) => messages.push(data));
  const closed = new Promise<[number, Buffer]>((resolve) => receiver.on('conclude', (code: number, reason: Buffer) => resolve([code, reason])));
  const payloads = [randomBytes(10), randomBytes(200), randomBytes(70_000)];
  for (const p of payloads) receiver.write(Buffer.concat([frameHeader(Opcode.Binary, p.length), p]));
  receiver.write(frame(Opcode.Close, closePayload(1002, 'x'.repeat(200))));
  const [code, reason] = await closed;
  assert.deepEqual(messages, payloads);
  assert.equal(code, 1002);
  assert.equal(reason.length, 123);
});
