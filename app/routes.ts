import { type RouteConfig, index, route } from "@react-router/dev/routes";

// Reads like SPEC §2. Later issues add their screens here.
export default [
  index("routes/home.tsx"),
  route("api/verification/challenge", "routes/api/verification-challenge.ts"),
  route("api/auth/login", "routes/api/auth-login.ts"),
  route("auth", "routes/auth.tsx"),
  route("logout", "routes/logout.ts"),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    route("projects", "routes/admin/projects.tsx"),
    route("users", "routes/admin/users.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
