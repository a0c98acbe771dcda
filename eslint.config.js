import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import local from './scripts/eslint-rules.js';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'drizzle/migrations/**', 'coverage/**'] },
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
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // better-sqlite3's synchronous .get()/.all()/.run() do not exist on PostgreSQL: always await builders.
    files: ['server/**/*.ts'],
    ignores: ['server/db/client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(get|all|run)$/][arguments.length=0]',
          message: 'Awaitez le query builder : .get()/.all()/.run() sont propres à SQLite.',
        },
      ],
    },
  },
);
