import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { SPDY_HEADER_DICTIONARY } from './spdy-dictionary.js';
import { FrameDecoder, FrameEncoder, SpdyProtocolError, type SpdyFrame } from './spdy-frames.js';
import { decodeHeaderBlock, encodeHeaderBlock, HeaderCompressor, HeaderDecompressor, type SpdyHeaders } from './spdy-header-compression.js';

/** A zlib stream that lives across blocks, sync-flushed after each: how Go's framer compresses. */
function streamingZlib(kind: 'deflate' | 'inflate'): (input: Buffer) => Promise<Buffer> {
  const engine = kind === 'deflate' ? zlib.createDeflate({ level: 9, dictionary: SPDY_HEADER_DICTIONARY }) : zlib.createInflate({ dictionary: SPDY_HEADER_DICTIONARY });
  const chunks: Buffer[] = [];
  engine.on('data', (c: Buffer) => chunks.push(c));
  return (input) =>
    new Promise((resolve) => {
      engine.write(input);
      engine.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(chunks.splice(0))));
    });
}

const headerSets: SpdyHeaders[] = [
  { streamtype: ['error'] },
  { streamtype: ['data'], port: ['8080'], requestid: ['0'] },
  { streamtype: ['stdout'], 'x-many': ['a', 'b', 'c'] },
  {},
  { big: ['v'.repeat(50_000)] },
  { streamtype: ['error'], port: ['8080'], requestid: ['1'] },
];

describe('SPDY/3 header dictionary', () => {
  it('is the 1423 bytes whose Adler-32 kubectl puts in its first header block', () => {
    assert.equal(SPDY_HEADER_DICTIONARY.length, 1423);
    assert.equal(SPDY_HEADER_DICTIONARY.subarray(0, 11).toString('latin1'), '\0\0\0\x07options');
    assert.equal(SPDY_HEADER_DICTIONARY.subarray(-6).toString('latin1'), 'enq=0.');
    // kubectl 1.27's first SYN_STREAM starts its header block with 78 f9 e3 c6 a7 c2.
    const first = new HeaderCompressor().compress({ streamtype: ['error'] });
    assert.equal(first.subarray(0, 6).toString('hex'), '78f9e3c6a7c2');
  });
});

describe('SPDY header compression', () => {
  it('writes blocks a long-lived inflater with the dictionary reads, one after another', async () => {
    const compressor = new HeaderCompressor();
    const inflate = streamingZlib('inflate');
    for (const headers of headerSets) assert.deepEqual(decodeHeaderBlock(await inflate(compressor.compress(headers))), headers);
  });

  it('reads blocks of a long-lived deflater, back-references to earlier blocks included', async () => {
    const deflate = streamingZlib('deflate');
    const decompressor = new HeaderDecompressor();
    for (const headers of [...headerSets, ...headerSets]) assert.deepEqual(decompressor.decompress(await deflate(encodeHeaderBlock(headers))), headers);
  });

  it('refuses a block that is not zlib with the SPDY dictionary', () => {
    assert.throws(() => new HeaderDecompressor().decompress(zlib.deflateSync(encodeHeaderBlock({ a: ['b'] }))), /SPDY dictionary/);
    assert.throws(() => new HeaderDecompressor().decompress(Buffer.from('not zlib at all')), /not a zlib stream/);
  });

  it('joins several values with NUL and lower-cases names', () => {
    const block = encodeHeaderBlock({ 'X-Name': ['a', 'b'] });
    assert.equal(block.toString('latin1'), '\0\0\0\x01\0\0\0\x06x-name\0\0\0\x03a\0b');
    assert.deepEqual(decodeHeaderBlock(block), { 'x-name': ['a', 'b'] });
    assert.throws(() => decodeHeaderBlock(block.subarray(0, 10)), /truncated/);
  });
});

const frames: SpdyFrame[] = [
  { type: 'synStream', streamId: 1, associatedToStreamId: 0, priority: 0, fin: false, unidirectional: false, headers: { streamtype: ['error'] } },
  { type: 'synStream', streamId: 3, associatedToStreamId: 1, priority: 7, fin: true, unidirectional: true, headers: { streamtype: ['data'], port: ['80'] } },
  { type: 'synReply', streamId: 1, fin: false, headers: {} },
  { type: 'synReply', streamId: 3, fin: true, headers: { a: ['b'] } },
  { type: 'headers', streamId: 5, fin: true, headers: { trailer: ['x'] } },
  { type: 'data', streamId: 1, fin: false, data: Buffer.from('hello') },
  { type: 'data', streamId: 0x7fffffff, fin: true, data: Buffer.alloc(0) },
  { type: 'data', streamId: 7, fin: false, data: Buffer.alloc(70_000, 1) },
  { type: 'rstStream', streamId: 3, status: 5 },
  { type: 'settings', clearSettings: true, settings: [{ flags: 1, id: 4, value: 100 }, { flags: 0, id: 7, value: 65536 }] },
  { type: 'ping', id: 0xfffffffe },
  { type: 'goAway', lastGoodStreamId: 9, status: 2 },
  { type: 'windowUpdate', streamId: 1, deltaWindowSize: 0x7fffffff },
];

/** DATA frames handed on in pieces joined again (a frame's pieces: same stream, no FIN before the last). */
function joinPieces(decoded: SpdyFrame[]): SpdyFrame[] {
  const out: SpdyFrame[] = [];
  let open: Extract<SpdyFrame, { type: 'data' }> | undefined;
  for (const f of decoded) {
    if (f.type === 'data' && open && open.streamId === f.streamId && !open.fin) {
      open.data = Buffer.concat([open.data, f.data]);
      open.fin = f.fin;
      continue;
    }
    out.push(f.type === 'data' ? (open = { ...f }) : f);
    if (f.type !== 'data') open = undefined;
  }
  return out;
}

describe('SPDY frame codec', () => {
  it('decodes what it encodes, frame by frame and fed one byte at a time', () => {
    const encoder = new FrameEncoder();
    const wire = Buffer.concat(frames.map((f) => encoder.encode(f)));
    assert.deepEqual(new FrameDecoder().push(wire), frames);
    const decoder = new FrameDecoder();
    const out: SpdyFrame[] = [];
    for (let i = 0; i < wire.length; i++) out.push(...decoder.push(wire.subarray(i, i + 1)));
    assert.deepEqual(joinPieces(out), frames);
  });

  it('hands a DATA payload on as it arrives, as views of the chunks pushed', () => {
    const encoder = new FrameEncoder();
    const payload = Buffer.alloc(40_000, 7);
    const wire = Buffer.concat([encoder.encode({ type: 'data', streamId: 3, fin: true, data: payload }), encoder.encode({ type: 'ping', id: 1 })]);
    const decoder = new FrameDecoder();
    const first = wire.subarray(0, 16_384);
    const [piece] = decoder.push(first);
    assert.deepEqual(piece, { type: 'data', streamId: 3, fin: false, data: payload.subarray(0, 16_384 - 8) });
    assert.equal((piece as { data: Buffer }).data.buffer, first.buffer, 'a view, not a copy');
    // the rest of the payload, its end with FIN, and the next frame from one chunk
    assert.deepEqual(decoder.push(wire.subarray(16_384)), [
      { type: 'data', streamId: 3, fin: true, data: payload.subarray(16_384 - 8) },
      { type: 'ping', id: 1 },
    ]);
  });

  it('matches frames written by hand from the draft 3.1 layout', () => {
    const encoder = new FrameEncoder();
    // RST_STREAM: control bit + version 3, type 3, flags 0, length 8, stream 3, status CANCEL (5).
    assert.equal(encoder.encode({ type: 'rstStream', streamId: 3, status: 5 }).toString('hex'), '80030003000000080000000300000005');
    // DATA: stream 1, FIN, length 2, "hi".
    assert.equal(encoder.encode({ type: 'data', streamId: 1, fin: true, data: Buffer.from('hi') }).toString('hex'), '00000001010000026869');
    // PING 2; GOAWAY last good 5, OK; WINDOW_UPDATE stream 1 +4096; SETTINGS one entry (persist, id 4 = max streams, 10).
    assert.equal(encoder.encode({ type: 'ping', id: 2 }).toString('hex'), '800300060000000400000002');
    assert.equal(encoder.encode({ type: 'goAway', lastGoodStreamId: 5, status: 0 }).toString('hex'), '80030007000000080000000500000000');
    assert.equal(encoder.encode({ type: 'windowUpdate', streamId: 1, deltaWindowSize: 4096 }).toString('hex'), '80030009000000080000000100001000');
    assert.equal(encoder.encode({ type: 'settings', clearSettings: false, settings: [{ flags: 1, id: 4, value: 10 }] }).toString('hex'), '800300040000000c00000001010000040000000a');

    // A SYN_STREAM assembled by hand: stream 1, associated 0, priority 0, slot 0, headers
    // {streamtype: error} in a zlib stream with the SPDY dictionary.
    const block = Buffer.concat([Buffer.from('00000001' + '0000000a', 'hex'), Buffer.from('streamtype'), Buffer.from('00000005', 'hex'), Buffer.from('error')]);
    const compressed = zlib.deflateSync(block, { dictionary: SPDY_HEADER_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const length = Buffer.alloc(4);
    length.writeUInt32BE(10 + compressed.length);
    const syn = Buffer.concat([Buffer.from('80030001', 'hex'), length, Buffer.from('00000001' + '00000000' + '0000', 'hex'), compressed]);
    assert.deepEqual(new FrameDecoder().push(syn), [
      { type: 'synStream', streamId: 1, associatedToStreamId: 0, priority: 0, fin: false, unidirectional: false, headers: { streamtype: ['error'] } },
    ]);
  });

  it('refuses frames it cannot trust', () => {
    const bad = (hex: string) => () => new FrameDecoder().push(Buffer.from(hex, 'hex'));
    assert.throws(bad('800200060000000400000001'), SpdyProtocolError); // version 2
    assert.throws(bad('800300ff0000000400000001'), /unknown control frame type 255/);
    assert.throws(bad('000000000000000161'), /stream id zero/); // DATA on stream 0
    assert.throws(bad('80030003000000080000000000000005'), /stream id zero/); // RST_STREAM on stream 0
    assert.throws(bad('800300070000000400000001'), /too short/); // GOAWAY of 4 bytes
    assert.throws(() => new FrameDecoder(1024).push(Buffer.from('8003000100ffffff', 'hex')), /too large/);
  });
});
