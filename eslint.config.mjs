// ESLint (`npm run lint`): typescript-eslint's type-aware recommended rules over every room.
// Layering is checked separately by scripts/check-layers.mjs (`npm run lint:layers`).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.tsbuild/**',
      'node_modules/**',
      'test/artifacts/**',
      'release/**',
      '**/*.d.ts',
      '**/*.d.mts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Build-time TypeScript outside the four rooms gets a default project.
        projectService: { allowDefaultProject: ['schemas/*.ts', 'scripts/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Messages, task-protocol payloads and zod-checked JSON are typed by casts at the boundary
      // (`raw as TaskToHost`); flagging every later use of such a value would need hundreds of
      // redundant re-checks. The boundary validation (protocol.ts, schema.ts) is where safety lives.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // tsc's noUnusedLocals/noUnusedParameters already report these (tsconfig.base.json).
      '@typescript-eslint/no-unused-vars': 'off',
      // Error messages interpolate numbers, nulls and unions on purpose ("exited with code null").
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Interfaces implemented by sync and async operators alike declare `async` without `await`.
      '@typescript-eslint/require-await': 'off',
      // node:test's test()/it()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      // Expected SQL and CLI output is matched with its indentation written out as spaces.
      'no-regex-spaces': 'off',
      // String(v) runs after objects were JSON-encoded or on values narrowed from unknown
      // (connectors/csv.ts, sql/values.ts); the rule does not follow those guards.
      '@typescript-eslint/no-base-to-string': 'off',
      // `'latest' | string` and `T | unknown` document the accepted literals on purpose.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Interfaces such as CliIO are plain objects of functions that never use `this`.
      '@typescript-eslint/unbound-method': 'off',
      // A task rethrows what an operator threw, whatever it is, so the failure keeps its cause.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingUnknown: true, allowThrowingAny: true },
      ],
    },
  },
  {
    // Tests poke at untyped JSON (JSON Schema, wire messages) on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain JavaScript (scripts, bin): no type information to lint with.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
);
