import fs from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Layers: lib below everything of ours; components and server below features; nothing imports a route. */
const LAYER_ZONES = [
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
];

/**
 * Each feature's public surface: the modules (under app/features/<feature>/) other features may
 * import. Everything else in a feature is its own. Routes, server/ and cli/ may use any module; a
 * new entry here is a decision that another feature depends on this one (and it must not close a
 * loop: import-x/no-cycle).
 */
const FEATURE_SURFACE = {
  account: ["account.server.ts", "account-email.server.ts"],
  analytics: [
    "analytics-settings.server.ts",
    "analytics-settings.ts",
    "attribution.server.ts",
    "collector.server.ts",
    "dimensions.ts",
    "ingest.server.ts",
    "report-query.ts",
    "reports.server.ts",
    "rollup.server.ts",
  ],
  admin: ["admin-form.server.ts", "two-factor-guard.server.ts"],
  auth: [
    "auth-messages.ts",
    "guards.server.ts",
    "passkey-client.ts",
    "passkey-schema.ts",
    "passkeys.server.ts",
    "session.server.ts",
    "two-factor-schema.ts",
    "two-factor.server.ts",
  ],
  booking: ["booking-schema.ts", "reach-me-slots.tsx", "reach-me.server.ts"],
  comments: [
    "comment-admin.tsx",
    "comment-import.server.ts",
    "comment-mail.server.ts",
    "comment-schema.ts",
    "comments.server.ts",
    "comments-section.tsx",
  ],
  contact: ["contact.server.ts", "outbox.server.ts"],
  demo: ["demo-content.server.ts", "remove-demo-content.tsx"],
  fediverse: ["fediverse-settings.tsx", "fediverse.server.ts", "inbox.server.ts"],
  feeds: ["feed-item.ts", "feeds.server.ts", "fetch-document.server.ts"],
  imports: [],
  layout: ["menu-editor.tsx", "menus-schema.ts", "menus.server.ts", "site-links.ts"],
  mail: ["mail-banner.tsx", "mail-settings-schema.ts"],
  "owner-pages": ["owner-page-article.tsx", "owner-page-schema.ts", "owner-pages.server.ts", "page-form.tsx"],
  media: ["media-urls.ts", "media-view.tsx", "media.ts"],
  pages: [
    "content.ts",
    "getting-started.ts",
    "page-content.server.ts",
    "portrait.tsx",
    "site-copy.server.ts",
    "site-copy.ts",
    "testimonials-schema.ts",
    "use-layout-copy.ts",
  ],
  posts: [
    "content/content-urls.ts",
    "content/post-render.server.ts",
    "editor/autosave-restore.tsx",
    "editor/autosave-status.tsx",
    "editor/content-editor.tsx",
    "editor/revisions-dialog.tsx",
    "editor/use-autosave.ts",
    "read/post-body.tsx",
    "content/markdown-parse.server.ts",
    "content/markdown-schema.server.ts",
    "read/home-posts.server.ts",
    "read/post-counts.server.ts",
    "write/post-import.server.ts",
    "write/post-schema.ts",
    "write/posts.server.ts",
  ],
  projects: ["projects.server.ts", "project-admin.server.ts", "project-import.server.ts", "project-schema.ts"],
  search: ["search-form.tsx"],
  settings: ["demo-resume.server.ts", "settings-schema.ts", "settings.server.ts", "site-defaults.ts", "site-url.server.ts", "use-site.ts"],
  "share-images": ["share-images.server.ts"],
  subscriptions: [
    "newsletter-settings.server.ts",
    "newsletter-settings.ts",
    "subscribe-form-deferred.tsx",
    "subscribe-offer.tsx",
    "subscriptions.server.ts",
  ],
  uploads: ["media-library.server.ts", "media-library.ts", "site-icons.server.ts", "site-icons.ts", "uploads.server.ts"],
  users: ["user-schema.ts", "users.server.ts"],
  webmentions: ["receive.server.ts", "send.server.ts"],
  verification: ["human-verification.tsx", "verification-widget.ts", "verification.server.ts", "verification.ts"],
};

/** One zone per feature: from the other features, only their public modules. */
function featureZones() {
  const features = fs.readdirSync(path.join(import.meta.dirname, "app/features"));
  const publicModules = Object.entries(FEATURE_SURFACE).flatMap(([feature, modules]) => modules.map((m) => `./${feature}/${m}`));
  return features.map((feature) => ({
    target: `./app/features/${feature}`,
    from: "./app/features",
    except: [`./${feature}`, ...publicModules.filter((m) => !m.startsWith(`./${feature}/`))],
    message: `A feature imports another only through its public modules (FEATURE_SURFACE in eslint.config.js): use one, or make this one public there.`,
  }));
}

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
    // No import loop anywhere (import-x/no-cycle), and a feature reaches another only through that
    // feature's public modules (FEATURE_SURFACE); tests may reach any module.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "cli/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      // no-cycle reads the imported modules itself: it must know TypeScript files and how to parse them.
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: LAYER_ZONES }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["app/features/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: [...LAYER_ZONES, ...featureZones()] }],
    },
  },
  {
    files: ["server.js", "server/*.mjs", "scripts/**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    // A test file's temporary directories come from tempDir(), which removes them after the file on every
    // path: one made by hand was left behind in /tmp whenever a test failed before removing it.
    files: ["**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^mkdtemp(Sync)?$/], CallExpression[callee.name=/^mkdtemp(Sync)?$/]",
          message: "Make temporary directories with tempDir() from tests/helpers/temp-dir.ts: it removes them after the test file.",
        },
      ],
    },
  },
);
