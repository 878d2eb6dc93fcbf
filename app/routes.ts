import { type RouteConfig, index, route } from "@react-router/dev/routes";

// Reads like SPEC §2. Later issues add their screens here.
export default [
  index("routes/home.tsx"),
  route("api/verification/challenge", "routes/api/verification-challenge.ts"),
  route("api/auth/login", "routes/api/auth-login.ts"),
  // 7 Fs blog (issue 6). Static segments (rss.xml, new) outrank :slug in React Router's ranking.
  route("rss.xml", "routes/rss.ts"),
  route("7fs/:category", "routes/blog/category.tsx"),
  route("7fs/:category/rss.xml", "routes/blog/category-rss.ts"),
  route("7fs/:category/new", "routes/blog/post-form.tsx", { id: "post-new" }),
  route("7fs/:category/:slug", "routes/blog/post.tsx"),
  route("7fs/:category/:slug/edit", "routes/blog/post-form.tsx", { id: "post-edit" }),
  route("api/uploads", "routes/api/uploads.ts"),
  route("uploads/*", "routes/uploads-file.ts"),
  route("admin/blog", "routes/admin/blog.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
