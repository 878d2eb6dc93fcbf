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
  },
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
}));
