// Kubernetes' $(VAR) expansion of env values, command and args (third_party/forked/golang/expansion):
// $(NAME) becomes the variable's value, or stays as written when there is none; $$ is a literal $;
// anything else (a bare $NAME, ${NAME}, an unterminated $( ) passes through unchanged.

/** Looks a name up in each map in turn; an unknown name maps back to `$(name)`. */
export function mappingFor(...contexts: Array<Map<string, string>>): (name: string) => string {
  return (name) => {
    for (const ctx of contexts) {
      const v = ctx.get(name);
      if (v !== undefined) return v;
    }
    return `$(${name})`;
  };
}

export function expand(input: string, mapping: (name: string) => string): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const rest = input.slice(cursor + 1);
    let advance = 1;
    if (rest[0] === '$') out += '$';
    else if (rest[0] === '(') {
      const close = rest.indexOf(')', 1);
      if (close >= 0) {
        out += mapping(rest.slice(1, close));
        advance = close + 1;
      } else out += '$(';
    } else out += `$${rest[0]}`;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}
