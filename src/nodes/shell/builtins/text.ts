// Text commands: echo, printf, head, tail, wc, grep, tee, sort. They read stdin or files,
// stream where they can (head stops reading once it has what it needs; tail keeps only the end).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Builtin, CommandEnv, ShellIO } from '../context.js';
import { Aborted } from '../context.js';
import { FileSink, chunks, write } from '../streams.js';
import { FsError } from '../vfs.js';
import { fail, parseOrReport } from './args.js';

/** Backslash escapes of `echo -e` and printf: \n \t \\ \0NNN \xHH ...; `\c` stops all output. */
export function unescape(s: string, octalNeedsZero: boolean): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i]!;
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b', '\\': '\\' };
    if (simple[n] !== undefined) out += simple[n];
    else if (n === 'c') return { text: out, stop: true };
    else if (n === 'x' && /[0-9a-fA-F]/.test(s[i + 1] ?? '')) {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(m, 16));
      i += m.length;
    } else if (/[0-7]/.test(n) && (n === '0' || !octalNeedsZero)) {
      const m = /^[0-7]{0,3}/.exec(s.slice(n === '0' && octalNeedsZero ? i + 1 : i))![0];
      out += String.fromCharCode(parseInt(m || '0', 8) & 0xff);
      i += n === '0' && octalNeedsZero ? m.length : m.length - 1;
    } else out += `\\${n}`;
  }
  return { text: out, stop: false };
}

const echo: Builtin = async (args, io) => {
  let i = 1;
  let newline = true;
  let escapes = false;
  for (; i < args.length && /^-[neE]+$/.test(args[i]!); i++) {
    for (const f of args[i]!.slice(1)) {
      if (f === 'n') newline = false;
      else escapes = f === 'e';
    }
  }
  let text = args.slice(i).join(' ');
  if (escapes) {
    const u = unescape(text, true);
    text = u.text;
    if (u.stop) newline = false;
  }
  await write(io.stdout, newline ? `${text}\n` : text);
  return 0;
};

/** printf FORMAT [ARG]...: %s %b %c %d %i %u %o %x %X %e %f %g %% with flags, width, precision; the format repeats for extra arguments. */
const printf: Builtin = async (args, io) => {
  const format = args[1];
  if (format === undefined) {
    await fail(io, 'printf: usage: printf FORMAT [ARGUMENT]...');
    return 2;
  }
  const values = args.slice(2);
  let status = 0;
  let used = 0;
  let out = '';
  do {
    const start = used;
    let stop = false;
    out += format.replace(/%([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?([sbcdiuoxXeEfgG%])|\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)?/g, (m, flags: string, width: string, precision: string, conv: string) => {
      if (stop) return '';
      if (m.startsWith('\\')) {
        const u = unescape(m, false);
        stop = u.stop;
        return u.text;
      }
      if (conv === '%') return '%';
      const w = width === '*' ? Number(values[used++] ?? 0) : width !== undefined ? Number(width) : 0;
      const p = precision === '*' ? Number(values[used++] ?? 0) : precision !== undefined ? Number(precision) : undefined;
      const arg = values[used++];
      let s: string;
      if (conv === 's') s = p !== undefined ? (arg ?? '').slice(0, p) : (arg ?? '');
      else if (conv === 'b') {
        const u = unescape(arg ?? '', true);
        stop = u.stop;
        s = u.text;
      } else if (conv === 'c') s = (arg ?? '').slice(0, 1);
      else {
        const raw = arg ?? '0';
        const num = /^'./.test(raw) || /^"./.test(raw) ? raw.charCodeAt(1) : Number(raw.trim() === '' ? 0 : raw);
        if (Number.isNaN(num)) {
          status = 1;
          void fail(io, `printf: invalid number '${raw}'`);
        }
        const n = Number.isNaN(num) ? 0 : num;
        if ('diu'.includes(conv)) s = Math.trunc(n).toString();
        else if (conv === 'o') s = Math.trunc(n).toString(8);
        else if (conv === 'x') s = Math.trunc(n).toString(16);
        else if (conv === 'X') s = Math.trunc(n).toString(16).toUpperCase();
        else if (conv === 'e' || conv === 'E') s = n.toExponential(p ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
        else if (conv === 'g' || conv === 'G') s = String(Number(n.toPrecision(p ?? 6)));
        else s = n.toFixed(p ?? 6);
        if (conv === 'E' || conv === 'G') s = s.toUpperCase();
        if (flags.includes('+') && n >= 0) s = `+${s}`;
        else if (flags.includes(' ') && n >= 0) s = ` ${s}`;
        if (flags.includes('0') && !flags.includes('-') && s.length < w) {
          const sign = /^[-+ ]/.test(s) ? s[0]! : '';
          return sign + s.slice(sign.length).padStart(w - sign.length, '0');
        }
      }
      return flags.includes('-') ? s.padEnd(w) : s.padStart(w);
    });
    if (stop || used === start) break;
  } while (used < values.length);
  await write(io.stdout, out);
  return status;
};

/** Each input (stdin for none or `-`) as a stream of chunks; reports files that cannot be read. */
async function* inputs(
  env: CommandEnv,
  io: ShellIO,
  name: string,
  files: string[],
  onError: () => void,
): AsyncGenerator<{ file: string; data: AsyncIterable<Buffer> | Iterable<Buffer> }> {
  for (const file of files.length > 0 ? files : ['-']) {
    if (file === '-') {
      yield { file, data: chunks(io.stdin) };
      continue;
    }
    try {
      const content = env.fs.readFile(file, env.cwd);
      yield { file, data: [content] };
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, err.code === 'EISDIR' ? `${name}: read error: ${err.message}` : `${name}: can't open '${file}': ${err.message}`);
      onError();
    }
  }
}

/** `-n N`, `-N` (head/tail's old form), `-c N`; `+N` counts from the start. */
function countArgs(args: string[]): string[] {
  return args.map((a, i) => (i > 0 && /^-\d+$/.test(a) ? `-n${a.slice(1)}` : a));
}

const head: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('head', countArgs(args), { flags: 'qv', values: 'nc', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  const bytes = parsed.values.has('c');
  const count = Number(parsed.values.get(bytes ? 'c' : 'n') ?? 10);
  if (!Number.isInteger(count)) {
    await fail(io, `head: invalid number '${parsed.values.get(bytes ? 'c' : 'n')}'`);
    return 1;
  }
  let status = 0;
  const many = parsed.operands.length > 1;
  let first = true;
  for await (const { file, data } of inputs(env, io, 'head', parsed.operands, () => (status = 1))) {
    if (many) await write(io.stdout, `${first ? '' : '\n'}==> ${file === '-' ? 'standard input' : file} <==\n`);
    first = false;
    let left = count;
    for await (const chunk of data) {
      if (left <= 0) break;
      if (bytes) {
        const part = chunk.subarray(0, left);
        left -= part.length;
        await write(io.stdout, part);
        continue;
      }
      let end = 0;
      while (left > 0 && end < chunk.length) {
        const nl = chunk.indexOf(10, end);
        if (nl < 0) {
          end = chunk.length;
          break;
        }
        end = nl + 1;
        left--;
      }
      await write(io.stdout, chunk.subarray(0, end));
    }
  }
  return status;
};

const tail: Builtin = async (args, io, env) => {
  const normalized = countArgs(args).map((a) => a.replace(/^-([nc])\+/, '-$1+'));
  const parsed = await parseOrReport('tail', normalized, { flags: 'fFqv', values: 'nc', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  const bytes = parsed.values.has('c');
  const spec = parsed.values.get(bytes ? 'c' : 'n') ?? '10';
  const fromStart = spec.startsWith('+');
  const count = Number(fromStart ? spec.slice(1) : spec.replace(/^-/, ''));
  if (!Number.isInteger(count) || count < 0) {
    await fail(io, `tail: invalid number '${spec}'`);
    return 1;
  }
  let status = 0;
  for await (const { data } of inputs(env, io, 'tail', parsed.operands, () => (status = 1))) {
    if (fromStart) {
      // Skip the first count-1 bytes or lines, stream the rest.
      let skip = Math.max(0, count - 1);
      for await (let chunk of data) {
        if (skip > 0) {
          if (bytes) {
            const n = Math.min(skip, chunk.length);
            skip -= n;
            chunk = chunk.subarray(n);
          } else {
            let pos = 0;
            while (skip > 0 && pos < chunk.length) {
              const nl = chunk.indexOf(10, pos);
              if (nl < 0) {
                pos = chunk.length;
                break;
              }
              pos = nl + 1;
              skip--;
            }
            chunk = chunk.subarray(pos);
          }
        }
        if (chunk.length > 0) await write(io.stdout, chunk);
      }
      continue;
    }
    const all = Buffer.concat(await collect(data));
    await write(io.stdout, bytes ? all.subarray(Math.max(0, all.length - count)) : lastLines(all, count));
  }
  if (parsed.flags.has('f') || parsed.flags.has('F')) return follow(env, io, parsed.operands[parsed.operands.length - 1]);
  return status;
};

async function collect(data: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const c of data) out.push(c);
  return out;
}

function lastLines(buf: Buffer, n: number): Buffer {
  if (n === 0) return Buffer.alloc(0);
  let end = buf.length;
  if (buf[end - 1] === 10) end--;
  let pos = end;
  for (let seen = 0; pos > 0; ) {
    const nl = buf.lastIndexOf(10, pos - 1);
    if (nl < 0) return buf;
    if (++seen === n) return buf.subarray(nl + 1);
    pos = nl;
  }
  return buf;
}

/** `tail -f`: prints what is appended to the file until the command is stopped. */
async function follow(env: CommandEnv, io: ShellIO, file: string | undefined): Promise<number> {
  let size = file === undefined ? 0 : env.fs.readFile(file, env.cwd).length;
  for (;;) {
    try {
      await sleep(250, undefined, { signal: env.signal });
    } catch {
      throw new Aborted();
    }
    if (file === undefined) continue;
    const content = env.fs.readFile(file, env.cwd);
    if (content.length > size) await write(io.stdout, content.subarray(size));
    size = content.length;
  }
}

const wc: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('wc', args, { flags: 'lwcmL', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  let which = ['l', 'w', 'c'].filter((f) => parsed.flags.has(f) || (f === 'c' && parsed.flags.has('m')));
  if (which.length === 0) which = ['l', 'w', 'c'];
  let status = 0;
  const rows: Array<{ counts: number[]; file: string }> = [];
  for await (const { file, data } of inputs(env, io, 'wc', parsed.operands, () => (status = 1))) {
    let lines = 0;
    let words = 0;
    let bytes = 0;
    let inWord = false;
    for await (const chunk of data) {
      bytes += chunk.length;
      for (const b of chunk) {
        if (b === 10) lines++;
        const space = b === 32 || (b >= 9 && b <= 13);
        if (!space && !inWord) words++;
        inWord = !space;
      }
    }
    const all: Record<string, number> = { l: lines, w: words, c: bytes };
    rows.push({ counts: which.map((f) => all[f]!), file });
  }
  if (rows.length > 1) rows.push({ counts: which.map((_, i) => rows.reduce((s, r) => s + r.counts[i]!, 0)), file: 'total' });
  for (const r of rows) {
    // One count of stdin is printed bare (`wc -l < f` → `3`), anything else in columns.
    const named = r.file !== '-';
    const nums = r.counts.length === 1 && !named ? String(r.counts[0]) : r.counts.map((n) => String(n).padStart(7)).join(' ');
    await write(io.stdout, `${nums}${named ? ` ${r.file}` : ''}\n`);
  }
  return status;
};

/** A basic regular expression (BRE) as a JavaScript one: `\(`, `\)`, `\{`, `\}`, `\|`, `\+`, `\?` are the operators. */
export function breToRegExpSource(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i]!;
      out += '(){}|+?'.includes(n) ? n : `\\${n}`;
    } else if ('(){}|+?'.includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

const grep: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('grep', args, { flags: 'vicnqFElLhHsowx', values: 'em', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  const f = parsed.flags;
  const operands = [...parsed.operands];
  const pattern = parsed.values.get('e') ?? operands.shift();
  if (pattern === undefined) {
    await fail(io, 'grep: usage: grep [-vicnqFElLhHswx] PATTERN [FILE]...');
    return 2;
  }
  let matcher: (line: string) => boolean;
  try {
    if (f.has('F')) {
      const needle = f.has('i') ? pattern.toLowerCase() : pattern;
      matcher = (line) => {
        const hay = f.has('i') ? line.toLowerCase() : line;
        return f.has('x') ? hay === needle : f.has('w') ? new RegExp(`\\b${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(hay) : hay.includes(needle);
      };
    } else {
      let source = f.has('E') ? pattern : breToRegExpSource(pattern);
      if (f.has('w')) source = `\\b(?:${source})\\b`;
      if (f.has('x')) source = `^(?:${source})$`;
      const re = new RegExp(source, f.has('i') ? 'i' : '');
      matcher = (line) => re.test(line);
    }
  } catch {
    await fail(io, `grep: bad regex '${pattern}'`);
    return 2;
  }
  const max = parsed.values.has('m') ? Number(parsed.values.get('m')) : Infinity;
  let error = false;
  let anyMatch = false;
  const showName = !f.has('h') && (f.has('H') || operands.length > 1);
  for await (const { file, data } of inputs(env, io, 'grep', operands, () => (error = true))) {
    const name = file === '-' ? '(standard input)' : file;
    let count = 0;
    let lineNo = 0;
    let pending = '';
    const handle = async (line: string): Promise<boolean> => {
      lineNo++;
      if (matcher(line) === f.has('v')) return true;
      count++;
      anyMatch = true;
      if (f.has('q')) return false;
      if (!f.has('c') && !f.has('l') && !f.has('L')) await write(io.stdout, `${showName ? `${name}:` : ''}${f.has('n') ? `${lineNo}:` : ''}${line}\n`);
      return count < max && !f.has('l');
    };
    let more = true;
    for await (const chunk of data) {
      pending += chunk.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const line of parts) if (more) more = await handle(line);
      if (!more) break;
    }
    if (more && pending !== '') await handle(pending);
    if (f.has('q') && anyMatch) return 0;
    if (f.has('c')) await write(io.stdout, `${showName ? `${name}:` : ''}${count}\n`);
    if (f.has('l') && count > 0) await write(io.stdout, `${name}\n`);
    if (f.has('L') && count === 0) await write(io.stdout, `${name}\n`);
  }
  if (error && !f.has('s')) return 2;
  return anyMatch ? 0 : error ? 2 : 1;
};

const tee: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('tee', args, { flags: 'ai', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  let status = 0;
  const sinks: FileSink[] = [];
  for (const file of parsed.operands) {
    try {
      sinks.push(new FileSink(env.fs.openWrite(file, env.cwd, { append: parsed.flags.has('a') })));
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await fail(io, `tee: ${file}: ${err.message}`);
      status = 1;
    }
  }
  for await (const chunk of chunks(io.stdin)) {
    for (const s of sinks) await write(s, chunk);
    await write(io.stdout, chunk);
  }
  return status;
};

const sort: Builtin = async (args, io, env) => {
  const parsed = await parseOrReport('sort', args, { flags: 'rnuf', permute: true }, io);
  if (typeof parsed === 'number') return parsed;
  let status = 0;
  const all: string[] = [];
  for await (const { data } of inputs(env, io, 'sort', parsed.operands, () => (status = 2))) {
    const text = Buffer.concat(await collect(data)).toString('utf8');
    all.push(...text.split('\n').filter((l, i, arr) => i < arr.length - 1 || l !== ''));
  }
  const f = parsed.flags;
  const key = (s: string): string => (f.has('f') ? s.toUpperCase() : s);
  all.sort((a, b) => (f.has('n') ? parseFloat(a) - parseFloat(b) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (f.has('r')) all.reverse();
  const out = f.has('u') ? all.filter((l, i) => i === 0 || key(l) !== key(all[i - 1]!)) : all;
  await write(io.stdout, out.map((l) => `${l}\n`).join(''));
  return status;
};

export const TEXT_COMMANDS: Record<string, Builtin> = { echo, printf, head, tail, wc, grep, tee, sort };
