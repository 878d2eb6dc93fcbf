import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The server bundle's entry is our Express app, so start-up code (migrations, seeding) and the
    // routes share one module graph and one database handle.
    rollupOptions: isSsrBuild
      ? { input: "./server/app.ts" }
      : {
          output: {
            manualChunks(id: string) {
              if (/node_modules\/(react|react-dom|react-router|scheduler|cookie|set-cookie-parser|turbo-stream)\//.test(id))
                return "vendor";
              return undefined;
            },
          },
        },
  },
  ssr: {
    // Native and wasm packages must stay on disk, not be bundled.
    external: ["@electric-sql/pglite", "@node-rs/argon2", "pg", "sharp", "pino", "pino-pretty", "@resvg/resvg-js", "satori"],
    // Libraries whose entry loads everything they have (every icon, every primitive, every date
    // function): bundled, so the server keeps only what the app imports. Left external, lucide-react
    // alone cost ~7 MB of heap and 0.4 s at every start (docs/decisions/0040-server-memory.md).
    noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//, "date-fns"],
  },
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
}));
