/**
 * The lint rules of the repository (eslint.config.js at the root uses them): ESLint's and typescript-eslint's
 * recommended sets, React's rules of hooks for the frontends, and the globals of where each file runs.
 */
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '**/dist-server/', '.data/', '_local/', 'k8s/test/crds/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // A leading underscore names what is left out on purpose (a field dropped from a copy, an unused parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests and tools read JSON answers of any shape.
    files: ['**/test/**', 'e2e/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The rules of hooks; the React Compiler's rules are left out, as the apps are not compiled by it.
    files: ['frontends/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
    languageOptions: { globals: globals.browser },
  },
  { files: ['frontends/*/public/**/*.js'], languageOptions: { globals: globals.serviceworker } },
);
