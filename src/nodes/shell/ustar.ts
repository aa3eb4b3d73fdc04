// The tar format (POSIX ustar, with pax extended headers for long names, and GNU's long-name
// entries when reading): header blocks written and read, streaming — an entry's content goes
// through in chunks, never whole.

export const BLOCK = 512;
/** tar writes whole records of 20 blocks. */
export const RECORD = 20 * BLOCK;

export type EntryType = 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';

export interface TarEntry {
  name: string;
  type: EntryType;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtimeMs: number;
  linkname: string;
  uname: string;
  gname: string;
}

export class TarFormatError extends Error {}

const TYPE_FLAGS: Record<EntryType, string> = { file: '0', hardlink: '1', symlink: '2', dir: '5', other: '0' };
const MAX_OCTAL_11 = 0o77777777777;

function writeString(block: Buffer, offset: number, length: number, s: string): void {
  Buffer.from(s, 'utf8').copy(block, offset, 0, length);
}

function writeOctal(block: Buffer, offset: number, length: number, n: number): void {
  writeString(block, offset, length, `${Math.max(0, Math.floor(n)).toString(8).padStart(length - 1, '0')}\0`);
}

/** A pax extended header record: `<len> key=value\n`, where len counts the whole record. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len = String(len).length + Buffer.byteLength(body);
  return `${len}${body}`;
}

/** Splits a long name into ustar's prefix (≤155 bytes) and name (≤100 bytes) at a slash, if it can. */
function splitUstarName(name: string): [string, string] | undefined {
  if (Buffer.byteLength(name) <= 100) return ['', name];
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest !== '') return [prefix, rest];
  }
  return undefined;
}

function headerBlock(e: TarEntry, name: string, prefix: string, linkname: string, typeflag: string, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, e.mode & 0o7777);
  writeOctal(block, 108, 8, e.uid);
  writeOctal(block, 116, 8, e.gid);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, Math.floor(e.mtimeMs / 1000));
  writeString(block, 156, 1, typeflag);
  writeString(block, 157, 100, linkname);
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 265, 32, e.uname);
  writeString(block, 297, 32, e.gname);
  writeOctal(block, 329, 8, 0);
  writeOctal(block, 337, 8, 0);
  writeString(block, 345, 155, prefix);
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** The header block(s) of an entry: a pax header first when its name, link or size does not fit ustar. */
export function encodeHeader(e: TarEntry): Buffer {
  const records: string[] = [];
  const split = splitUstarName(e.name);
  if (split === undefined) records.push(paxRecord('path', e.name));
  if (Buffer.byteLength(e.linkname) > 100) records.push(paxRecord('linkpath', e.linkname));
  if (e.size > MAX_OCTAL_11) records.push(paxRecord('size', String(e.size)));
  const [prefix, name] = split ?? ['', e.name.slice(-100)];
  const main = headerBlock(e, name, prefix, e.linkname.slice(0, 100), TYPE_FLAGS[e.type], e.size > MAX_OCTAL_11 ? 0 : e.size);
  if (records.length === 0) return main;
  const pax = Buffer.from(records.join(''));
  const paxEntry: TarEntry = { ...e, type: 'file', size: pax.length };
  const paxName = `PaxHeaders.0/${(e.name.split('/').filter(Boolean).pop() ?? 'entry').slice(0, 80)}`;
  return Buffer.concat([headerBlock(paxEntry, paxName, '', '', 'x', pax.length), pax, Buffer.alloc(padding(pax.length)), main]);
}

export function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/** Two zero blocks end the archive; tar then fills the last record. */
export function trailer(bytesWritten: number): Buffer {
  const total = bytesWritten + 2 * BLOCK;
  return Buffer.alloc(2 * BLOCK + ((RECORD - (total % RECORD)) % RECORD));
}

function cstring(block: Buffer, offset: number, length: number): string {
  const slice = block.subarray(offset, offset + length);
  const nul = slice.indexOf(0);
  return slice.subarray(0, nul < 0 ? length : nul).toString('utf8');
}

function numeric(block: Buffer, offset: number, length: number): number {
  const first = block[offset]!;
  if (first & 0x80) {
    // GNU base-256 for big values.
    let n = first & 0x3f;
    for (let i = 1; i < length; i++) n = n * 256 + block[offset + i]!;
    return n;
  }
  const text = cstring(block, offset, length).replace(/[ \0]/g, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError('invalid tar header');
  return parseInt(text, 8);
}

function checksumOk(block: Buffer): boolean {
  let stored: number;
  try {
    stored = numeric(block, 148, 8);
  } catch {
    return false;
  }
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : block[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return stored === unsigned || stored === signed;
}

function parsePax(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let pos = 0;
  while (pos < data.length) {
    const sp = data.indexOf(0x20, pos);
    if (sp < 0) break;
    const len = Number(data.subarray(pos, sp).toString());
    if (!Number.isInteger(len) || len <= 0) break;
    const record = data.subarray(sp + 1, pos + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    pos += len;
  }
  return out;
}

/** Reads exact amounts from a stream of chunks. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private done = false;
  constructor(private readonly it: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.buf.length < n && !this.done) {
      const next = await this.it.next();
      if (next.done) this.done = true;
      else this.buf = this.buf.length === 0 ? next.value : Buffer.concat([this.buf, next.value]);
    }
    return this.buf.length >= n;
  }

  /** Exactly n bytes, undefined at a clean end, TarFormatError at a short one. */
  async exact(n: number): Promise<Buffer | undefined> {
    if (!(await this.fill(n))) {
      if (this.buf.length === 0) return undefined;
      throw new TarFormatError('short read');
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Up to n bytes as they arrive (at least one, unless the input ended). */
  async some(n: number): Promise<Buffer | undefined> {
    if (!(await this.fill(1))) return undefined;
    const out = this.buf.subarray(0, Math.min(n, this.buf.length));
    this.buf = this.buf.subarray(out.length);
    return out;
  }

  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      const got = await this.some(left);
      if (got === undefined) throw new TarFormatError('short read');
      left -= got.length;
    }
  }

  /** Reads and discards everything left (so a writer on the other end is never stuck). */
  async drain(): Promise<void> {
    this.buf = Buffer.alloc(0);
    while (!this.done) {
      const next = await this.it.next();
      if (next.done) this.done = true;
    }
  }
}

export interface ReadEntry {
  entry: TarEntry;
  /** The entry's content, in chunks; what is not read is skipped before the next entry. */
  data: AsyncGenerator<Buffer>;
}

/** The entries of an archive read from `input`; the caller reads each one's data before asking for the next. */
export async function* readTar(input: AsyncIterable<Buffer>): AsyncGenerator<ReadEntry> {
  const reader = new ByteReader(input[Symbol.asyncIterator]());
  let overrides = new Map<string, string>();
  let first = true;
  try {
    for (;;) {
      const block = await reader.exact(BLOCK);
      if (block === undefined) {
        if (first) throw new TarFormatError('short read');
        return;
      }
      first = false;
      if (block.every((b) => b === 0)) return;
      if (!checksumOk(block)) throw new TarFormatError('invalid tar header checksum');
      const typeflag = String.fromCharCode(block[156]!);
      let size = numeric(block, 124, 12);
      const magic = cstring(block, 257, 6);
      const prefix = magic.startsWith('ustar') ? cstring(block, 345, 155) : '';
      if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L' || typeflag === 'K') {
        const data = (await reader.exact(size)) ?? Buffer.alloc(0);
        await reader.skip(padding(size));
        if (typeflag === 'x') for (const [k, v] of parsePax(data)) overrides.set(k, v);
        if (typeflag === 'L') overrides.set('path', cstring(data, 0, data.length));
        if (typeflag === 'K') overrides.set('linkpath', cstring(data, 0, data.length));
        continue;
      }
      if (overrides.has('size')) size = Number(overrides.get('size'));
      const name = overrides.get('path') ?? (prefix !== '' ? `${prefix}/${cstring(block, 0, 100)}` : cstring(block, 0, 100));
      const type: EntryType =
        typeflag === '0' || typeflag === '\0' || typeflag === '7' ? 'file' : typeflag === '5' ? 'dir' : typeflag === '2' ? 'symlink' : typeflag === '1' ? 'hardlink' : 'other';
      const entry: TarEntry = {
        name,
        type: type === 'file' && name.endsWith('/') ? 'dir' : type,
        mode: numeric(block, 100, 8) & 0o7777,
        uid: numeric(block, 108, 8),
        gid: numeric(block, 116, 8),
        size: type === 'dir' || type === 'symlink' || type === 'hardlink' ? 0 : size,
        mtimeMs: Number(overrides.get('mtime') ?? numeric(block, 136, 12)) * 1000,
        linkname: overrides.get('linkpath') ?? cstring(block, 157, 100),
        uname: cstring(block, 265, 32),
        gname: cstring(block, 297, 32),
      };
      overrides = new Map();
      let left = size;
      async function* content(): AsyncGenerator<Buffer> {
        while (left > 0) {
          const chunk = await reader.some(left);
          if (chunk === undefined) throw new TarFormatError('short read');
          left -= chunk.length;
          yield chunk;
        }
      }
      yield { entry, data: content() };
      await reader.skip(left + padding(size));
    }
  } finally {
    await reader.drain().catch(() => {});
  }
}
