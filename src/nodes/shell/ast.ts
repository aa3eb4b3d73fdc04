// The syntax tree of a POSIX shell script, as far as the built-in shell understands it.

/** Statements run one after the other (`;`, `&` and newlines separate them). */
export type Script = AndOr[];

export interface AndOr {
  first: Pipeline;
  rest: Array<{ op: '&&' | '||'; pipeline: Pipeline }>;
}

export interface Pipeline {
  negated: boolean;
  commands: Command[];
}

export type Command = SimpleCommand | Compound;

export interface SimpleCommand {
  kind: 'simple';
  assignments: Array<{ name: string; value: Word }>;
  words: Word[];
  redirects: Redirect[];
}

export type Compound =
  | { kind: 'subshell'; body: Script; redirects: Redirect[] }
  | { kind: 'group'; body: Script; redirects: Redirect[] }
  | { kind: 'if'; branches: Array<{ condition: Script; body: Script }>; otherwise?: Script; redirects: Redirect[] }
  | { kind: 'loop'; until: boolean; condition: Script; body: Script; redirects: Redirect[] }
  | { kind: 'for'; name: string; items?: Word[]; body: Script; redirects: Redirect[] };

export type RedirectOp = '>' | '>>' | '>|' | '<' | '<>' | '>&' | '<&' | '<<' | '<<-';

export interface Redirect {
  fd: number;
  op: RedirectOp;
  target: Word;
  /** A here-document's body (op `<<`), with its expansions unless the delimiter was quoted. */
  hereDoc?: { body: Word; expand: boolean };
}

/** A word: literal text, quoted or not, and expansions, to be joined (and, where unquoted, split). */
export type Word = WordPart[];

export type ParamOp = ':-' | '-' | ':=' | '=' | ':+' | '+' | ':?' | '?' | '#' | '##' | '%' | '%%' | 'length';

export type WordPart =
  | { kind: 'text'; text: string; quoted: boolean }
  | { kind: 'param'; name: string; op?: ParamOp; arg?: Word; quoted: boolean }
  | { kind: 'command'; script: Script; quoted: boolean }
  | { kind: 'arith'; expr: Word; quoted: boolean };

export class ShellSyntaxError extends Error {}
