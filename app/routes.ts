import { type RouteConfig, index, route } from "@react-router/dev/routes";

// Reads like SPEC §2. Later issues add their screens here.
export default [
  index("routes/home.tsx"),
  route("api/verification/challenge", "routes/api/verification-challenge.ts"),
  route("api/auth/login", "routes/api/auth-login.ts"),
  route("contact", "routes/contact.tsx"),
  route("api/send-contact-email", "routes/api/send-contact-email.ts"),
  route("admin/messages", "routes/admin/messages.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
