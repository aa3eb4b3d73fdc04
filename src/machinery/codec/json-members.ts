// Where a member of a JSON object is in the text, found by skipping over values rather than
// parsing them: to copy a stored object's metadata into a response as it is, or to parse an object
// without a member nobody will read (the managedFields of a pod are a third of its bytes and most
// of the objects parsing it would make). The text is JSON.parse-valid (stored objects), so only
// its structure is followed; nothing is validated.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export class JsonStructureError extends Error {}

/** A member of an object: its key's opening quote, and its value's first and past-last bytes. */
export interface MemberRange {
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Uint8Array, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

/** Past the closing quote of the string whose opening quote is at `i`. */
function stringEnd(b: Uint8Array, i: number): number {
  // A plain loop: the strings of stored objects are mostly a few bytes long (FieldsV1 keys), too
  // short for indexOf's call to pay.
  for (let j = i + 1; j < b.length; j++) {
    const c = b[j];
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) j++;
  }
  throw new JsonStructureError(`unterminated string at ${i}`);
}

/** Past the last byte of the value that starts at `i`. */
export function valueEnd(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < b.length; j++) {
      const d = b[j];
      if (d === QUOTE) j = stringEnd(b, j) - 1;
      else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return j + 1;
    }
    throw new JsonStructureError(`unterminated value at ${i}`);
  }
  // A number, true, false or null.
  let j = i;
  while (j < b.length && b[j] !== COMMA && b[j] !== CLOSE_BRACE && b[j] !== CLOSE_BRACKET && !isSpace(b[j])) j++;
  if (j === i) throw new JsonStructureError(`no value at ${i}`);
  return j;
}

function keyIs(b: Uint8Array, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (b[start + i] !== name.charCodeAt(i)) return false;
  return true;
}

/**
 * The member `name` (ASCII, written without escapes) of the object whose `{` is at `objectStart`,
 * or undefined when it has none.
 */
export function memberRange(b: Uint8Array, objectStart: number, name: string): MemberRange | undefined {
  let i = skipSpace(b, objectStart);
  if (b[i] !== OPEN_BRACE) throw new JsonStructureError(`no object at ${objectStart}`);
  i = skipSpace(b, i + 1);
  if (b[i] === CLOSE_BRACE) return undefined;
  for (;;) {
    if (b[i] !== QUOTE) throw new JsonStructureError(`no key at ${i}`);
    const keyStart = i;
    const keyEnd = stringEnd(b, i);
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) throw new JsonStructureError(`no colon at ${i}`);
    const valueStart = skipSpace(b, i + 1);
    const end = valueEnd(b, valueStart);
    if (keyIs(b, keyStart + 1, keyEnd - 1, name)) return { keyStart, valueStart, valueEnd: end };
    i = skipSpace(b, end);
    if (b[i] !== COMMA) return undefined;
    i = skipSpace(b, i + 1);
  }
}

/**
 * The bytes to leave out to remove `member` from its object, separating comma included: [start, end).
 * `objectStart` is the object's `{`.
 */
export function memberCut(b: Uint8Array, objectStart: number, member: MemberRange): { start: number; end: number } {
  let before = member.keyStart - 1;
  while (isSpace(b[before])) before--;
  // Not the first member: the comma before it goes with it.
  if (before > objectStart && b[before] === COMMA) return { start: before, end: member.valueEnd };
  // The first: the comma after it (if any member follows) goes with it.
  const after = skipSpace(b, member.valueEnd);
  return { start: member.keyStart, end: b[after] === COMMA ? skipSpace(b, after + 1) : member.valueEnd };
}
