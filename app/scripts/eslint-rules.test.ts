// The project's ESLint configuration refuses a comment that cites an issue number, in every kind of file
// it lints, and leaves alone what only looks like one.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const RULE = 'local/comments-cite-decisions';

async function flagged(code: string, filePath = 'server/example.ts'): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === RULE).length;
}

describe('comments cite decisions, not issue numbers', () => {
  it.each([
    ['// Idempotent creates (issue #13): one answer per key.\n', 'server/example.ts'],
    ['/** Lifetime of a link (spec issue 4: 48 h). */\nexport const A = 1;\n', 'shared/example.ts'],
    ['// Delivery (issues #13, #21).\n', 'scripts/example.ts'],
    ['// Hardened in #21.\n', 'web/example.tsx'],
    ['const a = 1; /* see (#7) */\nexport { a };\n', 'tests/e2e/example.e2e.ts'],
    ['// Issue 12, defect 1.\n', 'server/db/example.mjs'],
  ])('flags %j', async (code, filePath) => {
    expect(await flagged(code, filePath)).toBe(1);
  });

  it.each([
    '// Idempotent creates (docs/decisions/0020-idempotent-creates.md).\n',
    '// Decision 0015, "Alerts": daily totals.\n',
    "// Escapes ' as &#39; and keys as PKCS#8; blue is #3b82f6 and grey #e5e7eb.\n",
    '// The exact-name search issues the same statements.\n',
    "export const s = 'issue #21 in a string is not a comment';\n",
  ])('accepts %j', async (code) => {
    expect(await flagged(code)).toBe(0);
  });
});
