// Lint rules: the recommended sets of ESLint and typescript-eslint, nothing exotic.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/', '**/node_modules/', 'data/', 'coverage/', 'packages/client/src/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  { files: ['src/cli/**', 'src/main.ts', 'src/banner.ts', 'bench/**', 'scripts/**'], rules: { 'no-console': 'off' } },
);
