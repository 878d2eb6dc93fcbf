import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Route middleware: the admin layout's guard runs before every admin loader and action (issue 15).
  future: { v8_middleware: true },
} satisfies Config;
