import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", "test-results/", "playwright-report/", "drizzle/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // Imports flow one way: routes → features → components, lib, server (ARCHITECTURE.md). Paths are
    // resolved (the ~/ alias included), so `~/features/x` and `../features/x` are caught alike.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "cli/**/*.ts"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: "./app/lib",
              from: ".",
              except: ["./app/lib", "./node_modules"],
              message: "app/lib holds pure rules: it imports only external packages and other lib modules.",
            },
            {
              target: ["./app/components", "./app/server"],
              from: "./app/features",
              message: "components and server sit below features: pass the data in, or move the module up to a feature.",
            },
            {
              // Tests may still call a route module directly; production code never does.
              target: ["./app", "./server", "./cli"],
              from: "./app/routes",
              message: "Nothing imports a route module: move what is shared into a feature.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["server.js", "scripts/**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);
