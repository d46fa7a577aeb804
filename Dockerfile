# syntax=docker/dockerfile:1
# --- build: compile TypeScript with the dev dependencies ---
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The dashboard's own lockfile: the root install's postinstall installs it.
COPY web/package.json web/package-lock.json ./web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json openapi.json ./
COPY src ./src
COPY web ./web
RUN npm run build && npm run build:web

# --- runtime: production dependencies only, non-root ---
FROM node:24-bookworm-slim AS runtime
# The image is for watching venues: the feeds are on (the service's own default, off, is for tests).
ENV NODE_ENV=production PORT=3000 DB_PATH=/data/pglite ENABLED_WEBSOCKET=1
# A container is reached only through its published ports, so it listens on every interface and
# asks tokens on user-scoped routes (rules: exposure): create one with dist/auth/token-cli.js.
ENV HOST=0.0.0.0 AUTH_MODE=token
# V8's default old-generation limit follows the host's RAM (about 4 GB) and it then lets a busy
# heap grow lazily: a 1,000,000-row journal export raised RSS by ~270 MB of uncollected garbage.
# A 512 MB limit keeps that under 50 MB with the live heap far below it (BENCHMARKS.md, issue 7).
# --max-semi-space-size=4: the serving thread's young generation, which only a start-up flag sets
# (SERVICE_NODE_FLAGS in src/common/memory/heap-growth.ts; about 30 MB of RSS).
ENV NODE_OPTIONS="--max-old-space-size=512 --max-semi-space-size=4"
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=4s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/main.js"]
