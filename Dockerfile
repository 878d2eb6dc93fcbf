# Production image: build once, run as a non-root user. See README "Growing: PostgreSQL, S3 and several instances".
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
# glibc malloc: two arenas instead of one per thread (sharp's libvips and resvg threads), and blocks of
# 128 KB and up mapped on their own, so freed image buffers go back to the system rather than staying
# in the heap: ~50 MB less resident after an e2e-like workload (docs/decisions/0040-server-memory.md).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json /app/server.js ./
COPY --from=build /app/server/tick-shapes.mjs ./server/
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Liveness only (no database): a database outage must not restart every instance. Load balancers use /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# A 4 MiB young generation (V8's default 16): ~27 MiB less resident and faster cached pages
# (docs/decisions/0040-server-memory.md); the same flag as `npm start`.
CMD ["node", "--max-semi-space-size=4", "server.js"]
