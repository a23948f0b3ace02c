# syntax=docker/dockerfile:1
# Build stage: compile TypeScript (with the Swagger plugin) and the native SQLite driver.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# patches/ holds fixes applied to installed libraries (postinstall: patch-package)
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: only the compiled app and production dependencies, run as an unprivileged user.
FROM node:20-bookworm-slim AS runtime
# The old-space cap keeps the resident size of a busy server under 250 MB (docs/PERFORMANCE.md).
ENV NODE_ENV=production PORT=3000 NODE_OPTIONS=--max-old-space-size=192
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrations are applied by the app itself at start-up, before it accepts requests.
CMD ["node", "dist/src/main.js"]
