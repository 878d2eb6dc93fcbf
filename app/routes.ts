import { type RouteConfig, index, route } from "@react-router/dev/routes";

// Reads like SPEC §2. Later issues add their screens here.
export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  // The page keeps its SPEC title and address; in code a job on it is a "position" (a "role" is a permission).
  route("recent-roles", "routes/recent-positions.tsx"),
  route("projects", "routes/projects.tsx"),
  route("testimonials", "routes/testimonials.tsx"),
  route("hero-mockups", "routes/hero-mockups.tsx"),
  route("robots.txt", "routes/robots-txt.ts"),
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("api/feeds/substack", "routes/api/feeds-substack.ts"),
  route("api/feeds/tsp-blog", "routes/api/feeds-tsp-blog.ts"),
  route("api/feeds/tsp-kb", "routes/api/feeds-tsp-kb.ts"),
  route("api/verification/challenge", "routes/api/verification-challenge.ts"),
  route("api/auth/login", "routes/api/auth-login.ts"),
  route("contact", "routes/contact.tsx"),
  route("api/send-contact-email", "routes/api/send-contact-email.ts"),
  route("auth", "routes/auth.tsx"),
  route("logout", "routes/logout.ts"),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    route("blog", "routes/admin/blog.tsx"),
    route("projects", "routes/admin/projects.tsx"),
    route("users", "routes/admin/users.tsx"),
    route("messages", "routes/admin/messages.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("account", "routes/admin/account.tsx"),
  ]),
  // 7 Fs blog. Static segments (rss.xml, new) outrank :slug in React Router's ranking.
  route("rss.xml", "routes/rss.ts"),
  route("7fs/:category", "routes/blog/category.tsx"),
  route("7fs/:category/rss.xml", "routes/blog/category-rss.ts"),
  route("7fs/:category/new", "routes/blog/post-form.tsx", { id: "post-new" }),
  route("7fs/:category/:slug", "routes/blog/post.tsx"),
  route("7fs/:category/:slug/edit", "routes/blog/post-form.tsx", { id: "post-edit" }),
  route("api/uploads", "routes/api/uploads.ts"),
  route("uploads/*", "routes/uploads-file.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
