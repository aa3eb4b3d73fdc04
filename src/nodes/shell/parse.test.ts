import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ShellSyntaxError } from './ast.js';
import { parseScript } from './parse.js';
import { run } from './shell.testutil.js';

// How words come out after quoting, escapes and expansion: printf prints one <word> per argument.
const WORDS: Array<[string, string[]]> = [
  [`a b   c`, ['a', 'b', 'c']],
  [`'a b' "c d"`, ['a b', 'c d']],
  [`'it''s'`, ['its']],
  [`"it's"`, [`it's`]],
  [`'$HOME' "$HOME" $HOME`, ['$HOME', '/root', '/root']],
  [`a\\ b`, ['a b']],
  [`"a\\"b" 'a\\b' "a\\b"`, ['a"b', 'a\\b', 'a\\b']],
  [`"\\$HOME" \\$HOME`, ['$HOME', '$HOME']],
  [`"" ''`, ['', '']],
  [`x"y"'z'`, ['xyz']],
  [`$UNSET`, []],
  [`"$UNSET"`, ['']],
  [`\${HOME}x \${UNSET:-dflt} \${HOME:+set} \${#HOME}`, ['/rootx', 'dflt', 'set', '5']],
  [`\${SPACED}`, ['a', 'b']],
  [`"\${SPACED}"`, ['a  b']],
  [`$(echo one two)`, ['one', 'two']],
  [`"$(echo one two)"`, ['one two']],
  ['`echo back`', ['back']],
  [`$((1 + 2 * 3)) $(( (1+2) * 3 )) $((7 / 2)) $((7 % 3)) $((1 < 2))`, ['7', '9', '3', '1', '1']],
  [`\${FILE%.txt} \${FILE#*/} \${FILE##*/} \${FILE%%/*}`, ['dir/name', 'name.txt', 'name.txt', 'dir']],
  [`a#b #comment`, ['a#b']],
  [`~ ~/x "~"`, ['/root', '/root/x', '~']],
  [`"multi\nline"`, ['multi\nline']],
];

for (const [words, expected] of WORDS) {
  test(`words: ${words}`, async () => {
    const r = await run(`printf '<%s>' ${words}`, { env: { HOME: '/root', SPACED: 'a  b', FILE: 'dir/name.txt' } });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, expected.length === 0 ? '<>' : expected.map((w) => `<${w}>`).join(''));
  });
}

// Lists, pipelines, exit statuses.
const SCRIPTS: Array<[string, string, number]> = [
  ['echo a; echo b', 'a\nb\n', 0],
  ['true && echo yes || echo no', 'yes\n', 0],
  ['false && echo yes || echo no', 'no\n', 0],
  ['false || false', '', 1],
  ['! false', '', 0],
  ['! true', '', 1],
  ['exit 3', '', 3],
  ['exit 300', '', 44],
  ['false; echo $?', '1\n', 0],
  ['(exit 7); echo $?', '7\n', 0],
  ['(cd /tmp; pwd); pwd', '/tmp\n/\n', 0],
  ['{ echo a; echo b; } | wc -l', '2\n', 0],
  ['echo a | false', '', 1],
  ['false | true', '', 0],
  ['echo one\necho two', 'one\ntwo\n', 0],
  ['echo a &&\necho b', 'a\nb\n', 0],
  ['if false; then echo t; elif true; then echo e; else echo f; fi', 'e\n', 0],
  ['i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done', '1\n2\n3\n', 0],
  ['until false; do echo once; break; done', 'once\n', 0],
  ['for x in a b; do for y in 1 2; do [ $y = 2 ] && continue; echo $x$y; done; done', 'a1\nb1\n', 0],
  ['set -- p q r; echo $# $2 "$@"', '3 q p q r\n', 0],
  ['set -e; false; echo not', '', 1],
  ['set -e; false || true; echo yes', 'yes\n', 0],
  ['X=1 sh -c \'echo $X\'; echo ${X:-unset}', '1\nunset\n', 0],
  ['export A=b; sh -c \'echo $A\'', 'b\n', 0],
  ['sh -c \'echo $0 $1\' name arg', 'name arg\n', 0],
  ['echo ${X:=dflt}; echo $X', 'dflt\ndflt\n', 0],
  ['cat <<EOF\n$HOME\n  x\nEOF', '/root\n  x\n', 0],
  ["cat <<'EOF'\n$HOME\nEOF", '$HOME\n', 0],
  ['eval "echo evaluated"', 'evaluated\n', 0],
];

for (const [script, stdout, status] of SCRIPTS) {
  test(`script: ${JSON.stringify(script)}`, async () => {
    const r = await run(script);
    assert.equal(r.stdout, stdout);
    assert.equal(r.status, status);
  });
}

// Syntax errors: busybox ash's wording, status 2.
const SYNTAX_ERRORS: Array<[string, string]> = [
  ['echo "unterminated', 'sh: syntax error: unterminated quoted string\n'],
  ["echo 'unterminated", 'sh: syntax error: unterminated quoted string\n'],
  ['&& echo', 'sh: syntax error: unexpected "&&"\n'],
  ['echo a |', 'sh: syntax error: unexpected end of file\n'],
  ['if true; then echo', 'sh: syntax error: unexpected end of file\n'],
  ['fi', 'sh: syntax error: unexpected "fi"\n'],
  ['echo ${', "sh: syntax error: bad substitution\n"],
  ['( echo', 'sh: syntax error: unexpected end of file\n'],
];

for (const [script, stderr] of SYNTAX_ERRORS) {
  test(`syntax error: ${JSON.stringify(script)}`, async () => {
    const r = await run(script);
    assert.equal(r.stderr, stderr);
    assert.equal(r.status, 2);
  });
}

test('the parser never throws anything but a syntax error, whatever the input', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => {
      try {
        parseScript(s);
      } catch (err) {
        assert.ok(err instanceof ShellSyntaxError, `${String(err)} for ${JSON.stringify(s)}`);
      }
    }),
    { numRuns: 2000 },
  );
});

test('the parser never throws on inputs made of shell syntax', () => {
  const token = fc.constantFrom('echo', 'a', ' ', "'", '"', '\\', '$', '${', '}', '$(', ')', '(', '`', ';', '&&', '||', '|', '>', '<', '<<', '2>&1', '\n', '#', 'if', 'then', 'fi', 'for', 'in', 'do', 'done', '{', '$((', '))', '=', 'x=1', '*');
  fc.assert(
    fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
      try {
        parseScript(tokens.join(''));
      } catch (err) {
        assert.ok(err instanceof ShellSyntaxError, `${String(err)} for ${JSON.stringify(tokens.join(''))}`);
      }
    }),
    { numRuns: 3000 },
  );
});

test('sh -c with any script always ends with an exit status (0-255)', async () => {
  const token = fc.constantFrom('echo', 'cat', 'ls', 'x', ' ', "'", '"', '$', '$?', '${x:-y}', ';', '&&', '||', '|', '>/tmp/f', '<', '\n', 'true', 'false', 'exit 2', 'test', '[', ']', '-f', '/tmp/f', 'nosuchcmd', '(', ')', '$(', '`');
  await fc.assert(
    fc.asyncProperty(fc.array(token, { maxLength: 20 }), async (tokens) => {
      const r = await run(tokens.join(''));
      assert.ok(Number.isInteger(r.status) && r.status >= 0 && r.status <= 255, `status ${r.status}`);
    }),
    { numRuns: 300 },
  );
});
