// Request bodies are decoded with JSON.parse, which accepts any nesting; but the code that then
// walks the value (JSON.stringify, schema validation, copies) recurses and overflows the stack on
// a body like `{"a":[[[[…5,000 levels…]]]]}`: a 500. Go's encoding/json, which Kratos and Hydra
// use, stops at 10,000 levels with "exceeded max depth"; this limit is lower so that every
// recursive walk after the parse stays well inside the stack.

/** The deepest nesting of objects and arrays a request body may have. */
const maxJsonDepth = 512;

/** True when `text` nests objects and arrays deeper than `maxJsonDepth` (strings are skipped). */
function exceedsJsonDepth(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > maxJsonDepth) return true;
    } else if (char === 0x7d || char === 0x5d) depth -= 1;
  }
  return false;
}

/** JSON.parse that also refuses nesting over `maxJsonDepth` (a SyntaxError like Go's). */
export function parseJson(text: string): unknown {
  if (exceedsJsonDepth(text)) throw new SyntaxError("exceeded max depth");
  return JSON.parse(text) as unknown;
}
