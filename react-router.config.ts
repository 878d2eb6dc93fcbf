import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Route middleware: the admin layout's guard runs before every admin loader and action (issue 15).
  future: { v8_middleware: true },
  // The whole route manifest once, as a file of its own, rather than a partial manifest worked out
  // for every hydrated page (React Router matched and ranked the route tree again for it, twice per
  // render) and a /__manifest request per navigation. Pages without React (anonymous public pages)
  // ship neither.
  routeDiscovery: { mode: "initial" },
} satisfies Config;
