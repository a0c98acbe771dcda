// The hostile spellings of one path for the doors test (doors.test.ts): percent-encodings in upper and lower
// case, double encoding, `.` and `..` segments, doubled and trailing slashes, `;param`, upper case,
// full-width letters… each marked with whether the router decodes it to the very same route (then it must
// meet the same gate) or to another path.
export interface Spelling {
  label: string;
  path: string;
  /** The router decodes this spelling to the very same route: it must meet the same gate (401). */
  same: boolean;
}

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
export const enc = (c: string) => `%${hex(c)}`;
const encodeAll = (segment: string) => [...segment].map(enc).join('');
export const join = (segments: string[]) => `/${segments.join('/')}`;
const replaceAt = (segments: string[], i: number, value: string) =>
  segments.map((s, j) => (j === i ? value : s));

export function spellingsOf(segments: string[]): Spelling[] {
  const out: Spelling[] = [{ label: 'canonical', path: join(segments), same: true }];
  const add = (label: string, path: string, same: boolean) => out.push({ label, path, same });
  const [first] = segments as [string, ...string[]];
  const firstLetterAs = (spelling: string) => join(replaceAt(segments, 0, spelling + first.slice(1)));

  // The router decodes percent-encoded letters: these are the same door.
  [...first].forEach((c, i) => {
    if (/[a-z]/i.test(c))
      add(
        `letter ${i} of /${first} encoded`,
        join(replaceAt(segments, 0, first.slice(0, i) + enc(c) + first.slice(i + 1))),
        true,
      );
  });
  add('upper-case hex digits', firstLetterAs(`%${hex(first[0]!).toUpperCase()}`), true);
  segments.forEach((s, i) =>
    add(`segment ${i} fully encoded`, join(replaceAt(segments, i, encodeAll(s))), true),
  );
  add('every segment fully encoded', join(segments.map(encodeAll)), true);
  segments.forEach((s, i) => {
    if (s.includes('.')) {
      add(`%2E for the dots of segment ${i}`, join(replaceAt(segments, i, s.replaceAll('.', '%2E'))), true);
      add(`%2e for the dots of segment ${i}`, join(replaceAt(segments, i, s.replaceAll('.', '%2e'))), true);
      add(
        `double-encoded dots of segment ${i}`,
        join(replaceAt(segments, i, s.replaceAll('.', '%252E'))),
        false,
      );
    }
  });

  // Spellings a normalising proxy would turn into the canonical path; the router does not.
  for (let i = 0; i < segments.length; i++) {
    const before = segments.slice(0, i + 1);
    const after = segments.slice(i + 1);
    if (after.length > 0) {
      add(`/./ after segment ${i}`, join([...before, '.', ...after]), false);
      add(`/%2E/ after segment ${i}`, join([...before, '%2E', ...after]), false);
      add(`/x/../ after segment ${i}`, join([...before, 'x', '..', ...after]), false);
      add(`/x/%2E%2E/ after segment ${i}`, join([...before, 'x', '%2E%2E', ...after]), false);
      add(`%2F for slash ${i + 1}`, `${join(before)}%2F${after.join('/')}`, false);
      add(`%2f for slash ${i + 1}`, `${join(before)}%2f${after.join('/')}`, false);
      add(`backslash for slash ${i + 1}`, `${join(before)}\\${after.join('/')}`, false);
    }
    add(`doubled slash ${i}`, `${join(segments.slice(0, i))}/${join(segments.slice(i))}`, false);
    add(`;param on segment ${i}`, join(replaceAt(segments, i, `${segments[i]};jsessionid=1`)), false);
  }
  add('leading ../', `/..${join(segments)}`, false);
  add('trailing slash', `${join(segments)}/`, false);
  add('trailing /.', `${join(segments)}/.`, false);
  add('upper-case first segment', join(replaceAt(segments, 0, first.toUpperCase())), false);
  add('upper-case path', join(segments).toUpperCase(), false);
  // The first letter in encodings a decoder must not take for that letter.
  const code = first.charCodeAt(0);
  add('double encoding', firstLetterAs(`%25${hex(first[0]!)}`), false);
  add('overlong UTF-8 letter', firstLetterAs(`%C1%${(0x80 + (code & 0x3f)).toString(16)}`), false);
  add('full-width letter', firstLetterAs(`%EF%BD%${(0x80 + code - 0x60).toString(16)}`), false);
  add('%u escape', firstLetterAs(`%u00${hex(first[0]!)}`), false);
  add('NUL in the path', join(replaceAt(segments, 0, `${first}%00`)), false);
  add('space after the first segment', join(replaceAt(segments, 0, `${first}%20`)), false);
  return out;
}
