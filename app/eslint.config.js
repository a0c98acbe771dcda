import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import local from './scripts/eslint-rules.js';

// Three folders up or more: import through package.json's subpath imports (#server/…, #shared/…, #web/…,
// #drizzle/…, #scripts/…, #tests/…) instead. no-restricted-imports sees import and export declarations;
// the selectors below see import() and vi.mock()/vi.importActual() (esquery regexes cannot hold a '/').
const deepImportMessage =
  'Import remontant de trois dossiers ou plus : importez par #server/…, #shared/…, #web/… (package.json).';
const deepImportSyntax = [
  { selector: 'ImportExpression[source.value=/^(\\.\\.\\x2F){3}/]', message: deepImportMessage },
  {
    selector: "CallExpression[callee.object.name='vi'][arguments.0.value=/^(\\.\\.\\x2F){3}/]",
    message: deepImportMessage,
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', '.node/**', 'drizzle/migrations/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Every linted file (TS, TSX, JS, MJS), tests included: comments cite decisions, not issue numbers.
    plugins: { local },
    rules: { 'local/comments-cite-decisions': 'error' },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['**/*.{ts,tsx,mts,mjs,js}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./){3}', message: deepImportMessage }] },
      ],
      'no-restricted-syntax': ['error', ...deepImportSyntax],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // better-sqlite3's synchronous .get()/.all()/.run() do not exist on PostgreSQL: always await builders.
    files: ['server/**/*.ts'],
    ignores: ['server/db/sqlite/open.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...deepImportSyntax,
        {
          selector: 'CallExpression[callee.property.name=/^(get|all|run)$/][arguments.length=0]',
          message: 'Awaitez le query builder : .get()/.all()/.run() sont propres à SQLite.',
        },
      ],
    },
  },
);
