/**
 * A value as ICU MessageFormat literal text. Our own messages (901xxxx) reach UIs that do not
 * know them (Ory Elements' older renderer) as the default message of an ICU formatter, so a value
 * with `{`, `}` or `<` in it (an e-mail address may hold braces, a device name anything) must not
 * read as a placeholder or tag there. Quoted, it formats to itself; values without such characters
 * (nearly all) are unchanged, so the text reads the same to a UI that prints it as sent.
 */
export function icuLiteral(value: string): string {
  if (!/[{}<]/.test(value)) return value;
  return value.replace(/'/g, "''").replace(/[{}<]+/g, (run) => `'${run}'`);
}
