# Multi-stage build of the service on Node 24 (docs/OPERATIONS.md, "In a container"):
#   docker build -t event-calendar-api .
# Behind a TLS-intercepting proxy, hand npm the proxy's CA as a build secret (never stored in a layer):
#   docker build --secret id=npm_ca,src=/path/to/proxy-ca.pem -t event-calendar-api .
# No `# syntax=` line: the Dockerfile frontend built into the engine (BuildKit, Docker 20.10 or later)
# reads it, so building needs no image besides node:24-bookworm-slim.

# Build stage: install from the lockfile and compile TypeScript with the Swagger plugin. Nothing is
# compiled natively (better-sqlite3 ships its binary inside its package; package.json's allowScripts
# turns off the node-gyp run npm would start there for nothing), so the slim image builds too.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# patches/ holds fixes applied to installed libraries (postinstall: patch-package)
COPY patches ./patches
RUN --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
# the build records the release in dist/build-info.json (start-up line, GET /health); .git is not in
# the build context, so the commit comes in as a build argument: --build-arg APP_COMMIT=$(git rev-parse HEAD)
COPY scripts/build-info.mjs ./scripts/
ARG APP_COMMIT=""
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: only the compiled app and production dependencies, run as an unprivileged user.
FROM node:24-bookworm-slim AS runtime
# The heap caps keep the resident size of a busy server under 250 MB (docs/CACHING.md, "Memory");
# the third flag of the server's command (CMD) is not allowed in NODE_OPTIONS.
ENV NODE_ENV=production PORT=3000 NODE_OPTIONS="--max-old-space-size=192 --max-semi-space-size=16"
WORKDIR /app
# The code belongs to root and is read-only for the user the server runs as; only data/ is writable.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# `npm run cli -- …` (and the other npm scripts) start with this check; on the built image it finds
# nothing to build.
COPY scripts/ensure-built.mjs ./scripts/
# The embedded SQLite database (SQLITE_PATH, data/calendar.sqlite) when no MySQL/MariaDB is given:
# a volume, so the file outlives the container (`-v calendar-data:/app/data` names it).
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrations are applied by the app itself at start-up, before it accepts requests. Node is PID 1 and
# handles SIGTERM itself: it finishes requests in flight (SHUTDOWN_GRACE_MS) and exits 0.
CMD ["node", "--no-allocation-site-pretenuring", "dist/src/main.js"]
