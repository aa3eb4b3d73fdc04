// libyaml's yaml_emitter_analyze_scalar, shared by the two YAML emitters kubelite mimics: go-yaml
// v2 (the API server's YAML responses, machinery/codec/yaml.ts) and go-yaml v3 (the OpenAPI v2
// document kubectl 1.27/1.28 reads, machinery/openapi/go-yaml-v3.ts). This is the scan over the
// scalar's code points; each emitter turns the facts into the styles it allows.

export const isYamlBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;

/** libyaml's IS_PRINTABLE (unicode output allowed); a tab is not printable. */
export const isYamlPrintable = (c: number): boolean =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

export interface ScalarFacts {
  flowIndicators: boolean;
  blockIndicators: boolean;
  lineBreaks: boolean;
  /** A character other than a tab that must be escaped. */
  special: boolean;
  /** A tab (go-yaml v3 treats it apart from other special characters; v2 does not). */
  tab: boolean;
  leadingSpace: boolean;
  leadingBreak: boolean;
  trailingSpace: boolean;
  trailingBreak: boolean;
  /** A space right after a line break, and a line break right after a space. */
  breakSpace: boolean;
  spaceBreak: boolean;
}

/** The facts of a non-empty scalar. */
export function scalarFacts(s: string): ScalarFacts {
  const f: ScalarFacts = {
    flowIndicators: false,
    blockIndicators: false,
    lineBreaks: false,
    special: false,
    tab: false,
    leadingSpace: false,
    leadingBreak: false,
    trailingSpace: false,
    trailingBreak: false,
    breakSpace: false,
    spaceBreak: false,
  };
  if (s.startsWith('---') || s.startsWith('...')) f.flowIndicators = f.blockIndicators = true;
  const cps = [...s].map((ch) => ch.codePointAt(0)!);
  const blank = (c: number | undefined): boolean => c === undefined || c === 0x20 || c === 0x09 || c === 0 || isYamlBreak(c);
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    const followedByWhitespace = blank(cps[i + 1]);
    const ch = String.fromCodePoint(c);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) f.flowIndicators = f.blockIndicators = true;
      else if (ch === '?' || ch === ':') {
        f.flowIndicators = true;
        if (followedByWhitespace) f.blockIndicators = true;
      } else if (ch === '-' && followedByWhitespace) f.flowIndicators = f.blockIndicators = true;
    } else if (',?[]{}'.includes(ch)) f.flowIndicators = true;
    else if (ch === ':') {
      f.flowIndicators = true;
      if (followedByWhitespace) f.blockIndicators = true;
    } else if (ch === '#' && precededByWhitespace) f.flowIndicators = f.blockIndicators = true;
    if (c === 0x09) f.tab = true;
    else if (!isYamlPrintable(c)) f.special = true;
    if (c === 0x20) {
      if (i === 0) f.leadingSpace = true;
      if (i === cps.length - 1) f.trailingSpace = true;
      if (previousBreak) f.breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isYamlBreak(c)) {
      f.lineBreaks = true;
      if (i === 0) f.leadingBreak = true;
      if (i === cps.length - 1) f.trailingBreak = true;
      if (previousSpace) f.spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = blank(c);
  }
  return f;
}
