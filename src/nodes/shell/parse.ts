// A recursive-descent parser for the shell language the built-in shell runs: words with quotes,
// backslashes and expansions ($VAR, ${VAR...}, $(...), `...`, $((...))), pipelines, && and ||,
// ;/&/newline lists, redirections (including here-documents), ( ) and { } groups, if/while/until/for.
// Syntax errors are ShellSyntaxError with busybox ash's wording.
import { ShellSyntaxError } from './ast.js';
import type { AndOr, Command, Compound, ParamOp, Pipeline, Redirect, RedirectOp, Script, SimpleCommand, Word, WordPart } from './ast.js';

const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const RESERVED_ENDS = new Set(['then', 'else', 'elif', 'fi', 'do', 'done', '}']);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAMS = new Set(['?', '$', '#', '!', '@', '*', '-', '0']);

export function parseScript(src: string): Script {
  return new Parser(src).parseAll();
}

/** A here-document body with its expansions, as the inside of double quotes. */
function hereDocWord(body: string): Word {
  const parts: WordPart[] = [];
  const text = (t: string, quoted: boolean): void => {
    const last = parts[parts.length - 1];
    if (last?.kind === 'text' && last.quoted === quoted) last.text += t;
    else parts.push({ kind: 'text', text: t, quoted });
  };
  new Parser(body).doubleQuoted(parts, text, true);
  return parts;
}

function unexpected(token: string): ShellSyntaxError {
  return new ShellSyntaxError(`syntax error: unexpected ${token === '' ? 'end of file' : token === '\n' ? 'newline' : `"${token}"`}`);
}

class Parser {
  private pos = 0;
  /** Here-documents whose bodies start after the next newline. */
  private pendingHereDocs: Array<{ redirect: Redirect; delimiter: string; stripTabs: boolean }> = [];

  constructor(private readonly src: string) {}

  parseAll(): Script {
    const script = this.list([], false);
    this.skipBlanks();
    if (this.pos < this.src.length) throw unexpected(this.peekToken());
    if (this.pendingHereDocs.length > 0) this.readHereDocs();
    return script;
  }

  private cur(): string | undefined {
    return this.src[this.pos];
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Skips spaces, tabs, line continuations and comments (not newlines). */
  private skipBlanks(): void {
    for (;;) {
      const c = this.cur();
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      } else return;
    }
  }

  private skipNewlines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.cur() !== '\n') return;
      this.pos++;
      if (this.pendingHereDocs.length > 0) this.readHereDocs();
    }
  }

  /** The operator or word at the cursor, for error messages. */
  private peekToken(): string {
    for (const op of ['&&', '||', ';;', ';', '&', '|', '(', ')', '\n']) if (this.startsWith(op)) return op;
    return this.peekPlainWord() ?? this.src.slice(this.pos, this.pos + 1);
  }

  /** The unquoted literal word at the cursor (a reserved word candidate), without consuming it. */
  private peekPlainWord(): string | undefined {
    let end = this.pos;
    while (end < this.src.length && !META.has(this.src[end]!) && !'\'"\\$`'.includes(this.src[end]!)) end++;
    if (end === this.pos) return undefined;
    const next = this.src[end];
    if (next !== undefined && !META.has(next)) return undefined;
    return this.src.slice(this.pos, end);
  }

  private expectWord(word: string): void {
    this.skipNewlines();
    if (this.peekPlainWord() !== word) throw unexpected(this.peekToken());
    this.pos += word.length;
  }

  private list(endWords: string[], closeParen: boolean): Script {
    const items: AndOr[] = [];
    for (;;) {
      this.skipNewlines();
      if (this.pos >= this.src.length) break;
      if (closeParen && this.cur() === ')') break;
      const kw = this.peekPlainWord();
      if (kw !== undefined && endWords.includes(kw)) break;
      items.push(this.andOr());
      this.skipBlanks();
      if ((this.cur() === ';' && !this.startsWith(';;')) || (this.cur() === '&' && !this.startsWith('&&'))) {
        this.pos++;
        continue;
      }
      if (this.cur() === '\n') continue;
      break;
    }
    return items;
  }

  private andOr(): AndOr {
    const first = this.pipeline();
    const rest: AndOr['rest'] = [];
    for (;;) {
      this.skipBlanks();
      const op = this.startsWith('&&') ? '&&' : this.startsWith('||') ? '||' : undefined;
      if (op === undefined) return { first, rest };
      this.pos += 2;
      this.skipNewlines();
      rest.push({ op, pipeline: this.pipeline() });
    }
  }

  private pipeline(): Pipeline {
    this.skipBlanks();
    let negated = false;
    if (this.peekPlainWord() === '!') {
      negated = true;
      this.pos++;
    }
    const commands = [this.command()];
    for (;;) {
      this.skipBlanks();
      if (this.cur() !== '|' || this.startsWith('||')) return { negated, commands };
      this.pos++;
      this.skipNewlines();
      commands.push(this.command());
    }
  }

  private command(): Command {
    this.skipBlanks();
    if (this.cur() === '(') {
      this.pos++;
      const body = this.list([], true);
      this.skipNewlines();
      if (this.cur() !== ')') throw unexpected(this.peekToken());
      this.pos++;
      return this.withRedirects({ kind: 'subshell', body, redirects: [] });
    }
    const kw = this.peekPlainWord();
    if (kw !== undefined && RESERVED_ENDS.has(kw)) throw unexpected(kw);
    switch (kw) {
      case '{': {
        this.pos++;
        const body = this.list(['}'], false);
        this.expectWord('}');
        return this.withRedirects({ kind: 'group', body, redirects: [] });
      }
      case 'if':
        return this.withRedirects(this.ifClause());
      case 'while':
      case 'until': {
        this.pos += kw.length;
        const condition = this.list(['do'], false);
        this.expectWord('do');
        const body = this.list(['done'], false);
        this.expectWord('done');
        return this.withRedirects({ kind: 'loop', until: kw === 'until', condition, body, redirects: [] });
      }
      case 'for':
        return this.withRedirects(this.forClause());
      default:
        return this.simpleCommand();
    }
  }

  private ifClause(): Compound {
    this.pos += 2;
    const branches: Array<{ condition: Script; body: Script }> = [];
    let otherwise: Script | undefined;
    for (;;) {
      const condition = this.list(['then'], false);
      this.expectWord('then');
      const body = this.list(['elif', 'else', 'fi'], false);
      branches.push({ condition, body });
      this.skipNewlines();
      const next = this.peekPlainWord();
      if (next === 'elif') {
        this.pos += 4;
        continue;
      }
      if (next === 'else') {
        this.pos += 4;
        otherwise = this.list(['fi'], false);
      }
      this.expectWord('fi');
      return { kind: 'if', branches, otherwise, redirects: [] };
    }
  }

  private forClause(): Compound {
    this.pos += 3;
    this.skipBlanks();
    const name = this.peekPlainWord();
    if (name === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ShellSyntaxError(`syntax error: bad for loop variable`);
    this.pos += name.length;
    this.skipNewlines();
    let items: Word[] | undefined;
    if (this.peekPlainWord() === 'in') {
      this.pos += 2;
      items = [];
      for (;;) {
        this.skipBlanks();
        if (this.cur() === ';' || this.cur() === '\n' || this.cur() === undefined) break;
        const w = this.word();
        if (w === undefined) throw unexpected(this.peekToken());
        items.push(w);
      }
    }
    this.skipBlanks();
    if (this.cur() === ';') this.pos++;
    this.expectWord('do');
    const body = this.list(['done'], false);
    this.expectWord('done');
    return { kind: 'for', name, items, body, redirects: [] };
  }

  private withRedirects(c: Compound): Compound {
    for (;;) {
      this.skipBlanks();
      const r = this.redirect();
      if (r === undefined) return c;
      c.redirects.push(r);
    }
  }

  private simpleCommand(): SimpleCommand {
    const cmd: SimpleCommand = { kind: 'simple', assignments: [], words: [], redirects: [] };
    for (;;) {
      this.skipBlanks();
      const c = this.cur();
      if (c === undefined || c === '\n' || c === ';' || c === '&' || c === '|' || c === ')' || c === '(') break;
      const r = this.redirect();
      if (r !== undefined) {
        cmd.redirects.push(r);
        continue;
      }
      const start = this.pos;
      const w = this.word();
      if (w === undefined) break;
      const assignment = cmd.words.length === 0 ? this.asAssignment(w) : undefined;
      if (assignment !== undefined) cmd.assignments.push(assignment);
      else cmd.words.push(w);
      if (this.pos === start) break;
    }
    if (cmd.words.length === 0 && cmd.assignments.length === 0 && cmd.redirects.length === 0) throw unexpected(this.peekToken());
    return cmd;
  }

  /** `NAME=value` as the first words of a command: an assignment. */
  private asAssignment(w: Word): { name: string; value: Word } | undefined {
    const first = w[0];
    if (first?.kind !== 'text' || first.quoted) return undefined;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.text);
    if (!m) return undefined;
    const rest = first.text.slice(m[0].length);
    const value: Word = rest === '' ? w.slice(1) : [{ kind: 'text', text: rest, quoted: false }, ...w.slice(1)];
    return { name: m[1]!, value };
  }

  private redirect(): Redirect | undefined {
    const m = /^(\d*)(>>|>&|>\||<<-|<<|<&|<>|>|<)/.exec(this.src.slice(this.pos, this.pos + 8));
    if (!m) return undefined;
    const op = m[2] as RedirectOp;
    const fd = m[1] !== '' ? Number(m[1]) : op.startsWith('<') && op !== '<>' ? 0 : op === '<>' ? 0 : 1;
    this.pos += m[0].length;
    this.skipBlanks();
    const target = this.word();
    if (target === undefined) throw unexpected(this.peekToken());
    const redirect: Redirect = { fd, op, target };
    if (op === '<<' || op === '<<-') {
      const delimiter = target.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      redirect.hereDoc = { body: [], expand: target.every((p) => p.kind !== 'text' || !p.quoted) };
      this.pendingHereDocs.push({ redirect, delimiter, stripTabs: op === '<<-' });
    }
    return redirect;
  }

  /** Reads the bodies of pending here-documents, the lines after the newline just consumed. */
  private readHereDocs(): void {
    for (const doc of this.pendingHereDocs) {
      const bodyLines: string[] = [];
      for (;;) {
        if (this.pos >= this.src.length) break;
        let end = this.src.indexOf('\n', this.pos);
        if (end < 0) end = this.src.length;
        let line = this.src.slice(this.pos, end);
        this.pos = Math.min(end + 1, this.src.length);
        if (doc.stripTabs) line = line.replace(/^\t+/, '');
        if (line === doc.delimiter) break;
        bodyLines.push(line);
      }
      const body = bodyLines.map((l) => `${l}\n`).join('');
      doc.redirect.hereDoc!.body = doc.redirect.hereDoc!.expand ? hereDocWord(body) : [{ kind: 'text', text: body, quoted: true }];
    }
    this.pendingHereDocs = [];
  }

  /** A word at the cursor, or undefined at an operator. `until` ends it in `${...}` arguments. */
  private word(until?: string): Word | undefined {
    const parts: WordPart[] = [];
    const start = this.pos;
    const text = (t: string, quoted: boolean): void => {
      const last = parts[parts.length - 1];
      if (last?.kind === 'text' && last.quoted === quoted) last.text += t;
      else parts.push({ kind: 'text', text: t, quoted });
    };
    for (;;) {
      const c = this.cur();
      if (c === undefined) break;
      if (until !== undefined ? c === until : META.has(c)) break;
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next === '\n') this.pos += 2;
        else if (next === undefined) {
          text('\\', false);
          this.pos++;
        } else {
          text(next, true);
          this.pos += 2;
        }
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('syntax error: unterminated quoted string');
        text(this.src.slice(this.pos + 1, end), true);
        this.pos = end + 1;
      } else if (c === '"') {
        this.pos++;
        this.doubleQuoted(parts, text);
      } else if (c === '$') {
        this.dollar(parts, text, false);
      } else if (c === '`') {
        parts.push({ kind: 'command', script: this.backquoted(), quoted: false });
      } else {
        text(c, false);
        this.pos++;
      }
    }
    if (this.pos === start) return undefined;
    if (parts.length === 0) parts.push({ kind: 'text', text: '', quoted: true });
    return parts;
  }

  /**
   * The inside of "...", or with `hereDoc` a whole here-document body (which ends at the end of
   * the text, where `"` is an ordinary character and `\"` is two).
   */
  doubleQuoted(parts: WordPart[], text: (t: string, quoted: boolean) => void, hereDoc = false): void {
    // An empty "" still makes a (quoted, empty) word.
    text('', true);
    const escapable = hereDoc ? '$`\\\n' : '$`"\\\n';
    for (;;) {
      const c = this.cur();
      if (c === undefined) {
        if (hereDoc) return;
        throw new ShellSyntaxError('syntax error: unterminated quoted string');
      }
      if (c === '"' && !hereDoc) {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next !== undefined && escapable.includes(next)) {
          if (next !== '\n') text(next, true);
          this.pos += 2;
        } else {
          text('\\', true);
          this.pos++;
        }
      } else if (c === '$') {
        this.dollar(parts, text, true);
      } else if (c === '`') {
        parts.push({ kind: 'command', script: this.backquoted(), quoted: true });
      } else {
        text(c, true);
        this.pos++;
      }
    }
  }

  private backquoted(): Script {
    this.pos++;
    let inner = '';
    for (;;) {
      const c = this.cur();
      if (c === undefined) throw new ShellSyntaxError('syntax error: unterminated quoted string');
      this.pos++;
      if (c === '`') break;
      const next = this.cur();
      if (c === '\\' && next !== undefined && '$`\\'.includes(next)) {
        inner += next;
        this.pos++;
      } else inner += c;
    }
    return parseScript(inner);
  }

  private dollar(parts: WordPart[], text: (t: string, quoted: boolean) => void, quoted: boolean): void {
    const next = this.src[this.pos + 1];
    if (next === '(' && this.src[this.pos + 2] === '(') {
      const inner = this.arithmeticText(this.pos + 3);
      parts.push({ kind: 'arith', expr: new Parser(inner).word('\0') ?? [], quoted });
      return;
    }
    if (next === '(') {
      this.pos += 2;
      const script = this.list([], true);
      this.skipNewlines();
      if (this.cur() !== ')') throw new ShellSyntaxError('syntax error: unterminated quoted string');
      this.pos++;
      parts.push({ kind: 'command', script, quoted });
      return;
    }
    if (next === '{') {
      this.pos += 2;
      parts.push(this.braced(quoted));
      return;
    }
    if (next !== undefined && NAME_START.test(next)) {
      let end = this.pos + 1;
      while (end < this.src.length && NAME_CHAR.test(this.src[end]!)) end++;
      parts.push({ kind: 'param', name: this.src.slice(this.pos + 1, end), quoted });
      this.pos = end;
      return;
    }
    if (next !== undefined && (/[0-9]/.test(next) || SPECIAL_PARAMS.has(next))) {
      parts.push({ kind: 'param', name: next, quoted });
      this.pos += 2;
      return;
    }
    text('$', quoted);
    this.pos++;
  }

  /** The text of `$((...))` from `start` to the `))` that closes it (inner parentheses balance). */
  private arithmeticText(start: number): string {
    let depth = 0;
    for (let i = start; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0 && this.src[i + 1] === ')') {
          this.pos = i + 2;
          return this.src.slice(start, i);
        }
        depth--;
      }
    }
    throw new ShellSyntaxError('syntax error: unterminated quoted string');
  }

  private braced(quoted: boolean): WordPart {
    let name = '';
    let length = false;
    if (this.cur() === '#' && this.src[this.pos + 1] !== '}') {
      length = true;
      this.pos++;
    }
    const first = this.cur() ?? '';
    if (first !== '' && (SPECIAL_PARAMS.has(first) || /[0-9]/.test(first)) && !(first === '#' && length)) {
      name = first;
      this.pos++;
      while (/^[0-9]+$/.test(name) && /[0-9]/.test(this.cur() ?? '')) name += this.src[this.pos++];
    } else {
      while (NAME_CHAR.test(this.cur() ?? '')) name += this.src[this.pos++];
    }
    if (name === '') throw new ShellSyntaxError('syntax error: bad substitution');
    if (length) {
      if (this.cur() !== '}') throw new ShellSyntaxError('syntax error: bad substitution');
      this.pos++;
      return { kind: 'param', name, op: 'length', quoted };
    }
    if (this.cur() === '}') {
      this.pos++;
      return { kind: 'param', name, quoted };
    }
    const m = /^(:-|:=|:\+|:\?|##|%%|-|=|\+|\?|#|%)/.exec(this.src.slice(this.pos, this.pos + 2));
    if (!m) {
      if (this.cur() === undefined) throw new ShellSyntaxError("syntax error: missing '}'");
      throw new ShellSyntaxError('syntax error: bad substitution');
    }
    this.pos += m[1]!.length;
    const arg = this.word('}') ?? [];
    if (this.cur() !== '}') throw new ShellSyntaxError("syntax error: missing '}'");
    this.pos++;
    return { kind: 'param', name, op: m[1] as ParamOp, arg, quoted };
  }
}
